// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#pragma once

#include <QByteArray>
#include <QByteArrayView>
#include <QList>
#include <QString>
#include <QStringList>

#include <optional>

// Redaction by JSON pointer: what support sees of a body that carries customers' data. The
// redacted copy is the body with each matched value (a whole subtree for an object or array)
// replaced by "[redacted]" and every other byte as received, so a reader sees the provider's own
// layout and only the redacted values changed. Computed once, at ingest, and stored beside the
// original (events.redacted_body); destinations keep receiving the original.
namespace redrive::privacy {

// The text that replaces a redacted value, quotes included.
inline constexpr QByteArrayView kRedactedJson = "\"[redacted]\"";

struct Redaction {
    QByteArray body; // the redacted copy
    QStringList paths; // the configured pointers that matched, in configuration order
};

// `body` with every value at one of `pointers` (RFC 6901, UTF-8) replaced. A member that appears
// twice in an object is redacted twice: whichever one a reader's JSON parser keeps, it is not the
// original. nullopt when no pointer matched, or the body is not JSON as far as the scan reads
// it (then nothing can be located, and there is nothing to redact).
std::optional<Redaction> redact(QByteArrayView body, const QList<QByteArray> &pointers);

// The scalar values a redaction removes (strings as decoded, numbers as written), at least
// `minLength` characters long: what must not come back in a destination's response excerpt
// either (a destination may echo the customer's email in its error).
QStringList redactedValues(QByteArrayView body, const QList<QByteArray> &pointers, int minLength = 4);

// `text` with every occurrence of one of `values` replaced by [redacted].
QString scrub(QString text, const QStringList &values);

} // namespace redrive::privacy
