// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#pragma once

#include <QByteArrayView>
#include <QString>

#include <optional>
#include <span>

// A single-pass JSON scanner for the ingest hot path: it validates a whole JSON text whose root
// is an object and records where selected top-level members are, without building a DOM.
// Work is linear in the input, nesting is bounded, and no input throws or allocates per byte.
namespace redrive::signatures::jsonscan {

enum class Kind { String, Number, Object, Array, True, False, Null };

struct Member {
    bool found = false;
    Kind kind = Kind::Null;
    qsizetype begin = 0; // the value's first byte (the opening quote for strings)
    qsizetype end = 0; // one past its last byte
};

enum class Status {
    Ok,
    NotJson, // not a JSON object, or syntax error anywhere in the text
    TooDeep, // nesting beyond kMaxDepth
};

inline constexpr int kMaxDepth = 512;

// Scans `json`; for each key in `keys` fills the same position of `members` with the LAST
// top-level member of that name (JSON.parse and QJsonDocument both keep the last duplicate).
// `members` must be as long as `keys`.
Status scanObject(QByteArrayView json, std::span<const QByteArrayView> keys, std::span<Member> members);

// Decodes a string member found by scanObject. nullopt when the text is not valid UTF-8 or
// carries an unpaired surrogate escape: an id must be one well-defined Unicode string.
std::optional<QString> decodeString(QByteArrayView json, const Member &member);

// An integer member ("-"? digits, no fraction or exponent) that fits in 64 bits.
std::optional<qint64> decodeInteger(QByteArrayView json, const Member &member);

} // namespace redrive::signatures::jsonscan
