// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#include "checkpoint.h"

#include "audit/auditlog.h"
#include "audit/signingkey.h"
#include "crypto/crypto.h"
#include "util/clock.h"

#include <QFile>
#include <QJsonDocument>
#include <QSaveFile>

namespace redrive::audit {

QByteArray Checkpoint::signedPayload() const
{
    return QByteArrayLiteral("redrive-audit-checkpoint-v1\n") + QByteArray::number(seq) + '\n'
        + hash.toLatin1() + '\n' + QByteArray::number(atMs) + '\n';
}

bool Checkpoint::signatureValid() const
{
    return SigningKey::verify(publicKey, signedPayload(), signature);
}

QJsonObject Checkpoint::toJson() const
{
    return QJsonObject {
        { QStringLiteral("seq"), seq },
        { QStringLiteral("hash"), hash },
        { QStringLiteral("at"), isoUtc(atMs) },
        { QStringLiteral("at_ms"), atMs },
        { QStringLiteral("algorithm"), QStringLiteral("Ed25519") },
        { QStringLiteral("public_key"), QString::fromLatin1(publicKey.toBase64()) },
        { QStringLiteral("key_id"), SigningKey::keyIdOf(publicKey) },
        { QStringLiteral("signature"), QString::fromLatin1(signature.toBase64()) },
    };
}

Result<Checkpoint> Checkpoint::fromJson(const QJsonObject &o)
{
    Checkpoint c;
    const QJsonValue seq = o.value(QLatin1String("seq"));
    if (!seq.isDouble() || seq.toDouble() < 0 || seq.toDouble() != static_cast<double>(seq.toInteger()))
        return Failure(QStringLiteral("checkpoint: \"seq\" must be a non-negative integer"));
    c.seq = seq.toInteger();
    c.hash = o.value(QLatin1String("hash")).toString();
    if (c.hash.size() != 64 || !crypto::decodeHex(c.hash.toLatin1()))
        return Failure(QStringLiteral("checkpoint: \"hash\" must be 64 hex digits"));
    const QJsonValue atMs = o.value(QLatin1String("at_ms"));
    if (!atMs.isDouble())
        return Failure(QStringLiteral("checkpoint: \"at_ms\" must be a number"));
    c.atMs = atMs.toInteger();
    if (o.value(QLatin1String("algorithm")).toString() != u"Ed25519")
        return Failure(QStringLiteral("checkpoint: \"algorithm\" must be \"Ed25519\""));
    const auto key = crypto::decodeBase64(o.value(QLatin1String("public_key")).toString().toLatin1());
    if (!key || key->size() != 32)
        return Failure(QStringLiteral("checkpoint: \"public_key\" must be a base64 Ed25519 public key"));
    c.publicKey = *key;
    const auto sig = crypto::decodeBase64(o.value(QLatin1String("signature")).toString().toLatin1());
    if (!sig || sig->size() != 64)
        return Failure(QStringLiteral("checkpoint: \"signature\" must be a base64 Ed25519 signature"));
    c.signature = *sig;
    return c;
}

Result<Checkpoint> Checkpoint::readFile(const QString &path)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return Failure(QStringLiteral("cannot read checkpoint %1: %2").arg(path, file.errorString()));
    QJsonParseError parseError;
    const QJsonDocument doc = QJsonDocument::fromJson(file.read(64LL * 1024), &parseError);
    if (!doc.isObject())
        return Failure(QStringLiteral("checkpoint %1 is not a JSON object").arg(path));
    auto c = fromJson(doc.object());
    if (!c)
        return Failure(path + QLatin1String(": ") + c.error());
    return c;
}

Result<> Checkpoint::writeFile(const QString &path) const
{
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly))
        return Failure(QStringLiteral("cannot write %1: %2").arg(path, file.errorString()));
    file.write(QJsonDocument(toJson()).toJson(QJsonDocument::Indented));
    if (!file.commit())
        return Failure(QStringLiteral("cannot write %1: %2").arg(path, file.errorString()));
    return ok();
}

Result<Checkpoint> makeCheckpoint(Db &db, const SigningKey &key, qint64 nowMs)
{
    const auto head = auditHead(db);
    if (!head)
        return Failure(head.error());
    Checkpoint c;
    c.seq = head->seq;
    c.hash = head->hash;
    c.atMs = nowMs;
    c.publicKey = key.publicKey();
    c.signature = key.sign(c.signedPayload());
    if (c.signature.isEmpty())
        return Failure(QStringLiteral("signing the checkpoint failed"));
    return c;
}

} // namespace redrive::audit
