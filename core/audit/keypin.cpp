// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#include "keypin.h"

#include "audit/signingkey.h"
#include "crypto/crypto.h"

#include <QFile>
#include <QFileInfo>
#include <QJsonDocument>
#include <QJsonObject>

namespace redrive::audit {
namespace {

// 64 hex digits or base64 of exactly 32 bytes.
std::optional<QByteArray> rawKeyFromText(QByteArrayView text)
{
    if (text.size() == 64) {
        if (auto key = crypto::decodeHex(text))
            return key;
    }
    if (auto key = crypto::decodeBase64(text); key && key->size() == 32)
        return key;
    return std::nullopt;
}

} // namespace

bool KeyPin::matches(const QByteArray &key) const
{
    if (!publicKey.isEmpty() && !crypto::constantTimeEquals(publicKey, key))
        return false;
    if (!keyId.isEmpty() && SigningKey::keyIdOf(key) != keyId)
        return false;
    return isSet();
}

QString KeyPin::describe() const
{
    if (!publicKey.isEmpty())
        return QStringLiteral("key %1 (pinned with --public-key)").arg(SigningKey::keyIdOf(publicKey));
    return QStringLiteral("key %1 (pinned with --key-id)").arg(keyId);
}

Result<QByteArray> parsePublicKeyArgument(const QString &argument)
{
    const QByteArray text = argument.trimmed().toLatin1();
    if (!QFileInfo::exists(argument)) {
        if (auto key = rawKeyFromText(text))
            return *key;
        return Failure(QStringLiteral(
            "--public-key: \"%1\" is neither a file nor an Ed25519 public key (64 hex digits or "
            "base64 of 32 bytes)")
                           .arg(argument.left(80)));
    }
    QFile file(argument);
    if (!file.open(QIODevice::ReadOnly))
        return Failure(QStringLiteral("--public-key: cannot read %1: %2").arg(argument, file.errorString()));
    // A key, a PEM block or a checkpoint is small; a bundle passed here by mistake is not read whole.
    const QByteArray contents = file.read(64LL * 1024).trimmed();
    if (auto key = rawKeyFromText(contents))
        return *key;
    if (contents.contains("-----BEGIN")) {
        const auto key = SigningKey::publicKeyFromPem(contents);
        if (!key)
            return Failure(
                QStringLiteral("--public-key: %1: %2 (a private key is not accepted: give the public half, "
                               "`openssl pkey -in KEY -pubout`, or a checkpoint file)")
                    .arg(argument, key.error()));
        return *key;
    }
    QJsonParseError parse;
    const QJsonDocument doc = QJsonDocument::fromJson(contents, &parse);
    if (parse.error == QJsonParseError::NoError && doc.isObject()) {
        const auto key
            = crypto::decodeBase64(doc.object().value(QLatin1String("public_key")).toString().toLatin1());
        if (key && key->size() == 32)
            return *key;
        return Failure(
            QStringLiteral("--public-key: %1 is JSON without a base64 Ed25519 \"public_key\" (use the file "
                           "`redrived audit checkpoint --out FILE` writes)")
                .arg(argument));
    }
    return Failure(QStringLiteral(
        "--public-key: %1 holds no Ed25519 public key (hex, base64, PEM or a checkpoint's JSON)")
                       .arg(argument));
}

Result<QString> parseKeyIdArgument(const QString &argument)
{
    const QString id = argument.trimmed().toLower();
    if (id.size() != 16 || !crypto::decodeHex(id.toLatin1()))
        return Failure(
            QStringLiteral("--key-id: \"%1\" is not a key id (16 hex digits, as checkpoints show them)")
                .arg(argument.left(80)));
    return id;
}

} // namespace redrive::audit
