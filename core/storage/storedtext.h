// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#pragma once

// How the ingest store turns a request's header JSON into stored text, shared by the SQLite and
// PostgreSQL batch paths. Not a public header.

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

} // namespace redrive::storedtext
