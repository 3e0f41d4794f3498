// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#pragma once

#include <QByteArrayView>
#include <QString>

#include <optional>
#include <span>

// Reads the top-level members a signature scheme needs from a webhook body, on the ingest hot
// path. simdjson validates the whole text (grammar, UTF-8, escapes, numbers) before anything
// is read, so a body that is not one well-formed JSON object yields nothing. One parser per
// thread is reused; nesting is bounded.
//
// Beyond RFC 8259's grammar, simdjson also refuses what RFC 8259 calls not interoperable and
// I-JSON (RFC 7493) forbids: unpaired surrogate escapes and numbers outside 64-bit integers
// and doubles. Such a body is "not JSON" here.
namespace redrive::signatures::jsonbody {

enum class Status {
    Ok,
    NotJson, // not a JSON object, or invalid anywhere in the text
    TooDeep, // nesting beyond kMaxDepth
};

// Levels of nesting, the root object included: 511 containers may sit below it.
inline constexpr int kMaxDepth = 512;

struct Member {
    bool found = false;
    // A string value, when it holds no NUL character: an id must be one well-defined string.
    std::optional<QString> string;
    // An integer value ("-"? digits, no fraction or exponent) that fits in 64 bits.
    std::optional<qint64> integer;
};

// A scalar found at an RFC 6901 pointer (a business key). `text` holds a string (without NUL) or a
// number in its shortest decimal form; booleans, null, objects and arrays give no text.
struct Scalar {
    bool found = false;
    std::optional<QString> text;
};

// Reads `json`; for each key in `keys` fills the same position of `members` with the LAST
// top-level member of that name (JSON.parse and QJsonDocument both keep the last duplicate).
// `members` must be as long as `keys`.
// In the same parse, fills each position of `scalars` with what the same position of `pointers`
// (UTF-8 RFC 6901 pointers; `scalars` as long as `pointers`) finds in the document.
Status readObject(QByteArrayView json, std::span<const QByteArrayView> keys, std::span<Member> members,
    std::span<const QByteArrayView> pointers = {}, std::span<Scalar> scalars = {});

} // namespace redrive::signatures::jsonbody
