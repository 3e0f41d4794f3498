// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#pragma once

// Text that comes from outside and is bound into a TEXT column: the one place it is made safe to
// store, on both engines. Used by the ingest store (events, rejections, business keys, ordering
// keys) and the audit log (actors, targets, reasons).

#include <QByteArray>
#include <QString>

namespace redrive::storedtext {

inline QByteArray storedHeaders(const QByteArray &json)
{
    return json.isEmpty() ? QByteArrayLiteral("[]") : json;
}

// Stored text must be valid UTF-8 (PostgreSQL refuses anything else; readers decode it). QtSql
// used to repair stored headers through QString, so invalid sequences are repaired that way.
inline QByteArray validUtf8(const QByteArray &bytes)
{
    return bytes.isValidUtf8() ? bytes : QString::fromUtf8(bytes).toUtf8();
}

// PostgreSQL's text type cannot hold NUL, and Qt's PostgreSQL driver passes bound values as C
// strings: a NUL from a sender (a percent-decoded path, a JSON "\u0000") silently cuts the value
// and fails the statement, and with it every other row of the group commit. SQLite would store
// it, and readers would cut it. So every NUL becomes U+FFFD, the replacement character, and a
// value is cut to at most `maxChars` UTF-16 units without splitting a surrogate pair. Unpaired
// surrogates already become U+FFFD when QString is converted to UTF-8 for binding.
inline QString safeText(const QString &text, qsizetype maxChars = -1)
{
    QString out = text;
    if (maxChars >= 0 && out.size() > maxChars) {
        qsizetype cut = maxChars;
        if (cut > 0 && out.at(cut - 1).isHighSurrogate())
            --cut;
        out.truncate(cut);
    }
    if (out.contains(QChar(0)))
        out.replace(QChar(0), QChar(QChar::ReplacementCharacter));
    return out;
}

// True when `bytes` holds a C0 control character (NUL, CR, LF, ESC, ...) or DEL: no legitimate
// request path or identifier carries one.
inline bool hasControl(QByteArrayView bytes)
{
    for (const char c : bytes) {
        const auto u = static_cast<unsigned char>(c);
        if (u < 0x20 || u == 0x7f)
            return true;
    }
    return false;
}

} // namespace redrive::storedtext
