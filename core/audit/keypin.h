// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#pragma once

#include "util/result.h"

#include <QByteArray>
#include <QString>

#include <optional>

namespace redrive::audit {

// The receiver key a verifier is told to expect, from outside the file being verified (a key
// taken from the bundle itself proves only that someone signed it). Either the full public key
// or only its 16-hex-digit key id; both when both were given.
struct KeyPin {
    QByteArray publicKey; // raw Ed25519, 32 bytes; empty when pinned by key id only
    QString keyId; // lowercase; empty when pinned by public key only

    [[nodiscard]] bool isSet() const { return !publicKey.isEmpty() || !keyId.isEmpty(); }
    [[nodiscard]] bool matches(const QByteArray &key) const;
    // "the public key given with --public-key" / "key id 0123…" for messages.
    [[nodiscard]] QString describe() const;
};

// --public-key FILE|HEX: the raw key as 64 hex digits or as base64, inline; otherwise the name
// of a file holding one of those, a PEM public key (`openssl pkey -in audit-key.pem -pubout`), or
// a JSON object with "public_key" (the checkpoint `redrived audit checkpoint --out FILE` writes).
Result<QByteArray> parsePublicKeyArgument(const QString &argument);

// --key-id ID: the 16 hex digits a checkpoint, a bundle and `redrived audit checkpoint` show.
Result<QString> parseKeyIdArgument(const QString &argument);

} // namespace redrive::audit
