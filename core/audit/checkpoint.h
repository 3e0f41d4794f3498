// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#pragma once

#include "storage/database.h"

#include <QByteArray>
#include <QJsonObject>
#include <QString>

#include <optional>

namespace redrive::audit {

class SigningKey;

// A signed statement "the audit log's entry `seq` has hash `hash`", made at `atMs`. A
// checkpoint exported and kept outside the database exposes a truncated tail or a rewritten
// history later: the hash chain alone cannot (CloudTrail's signed digests play the same role).
struct Checkpoint {
    qint64 seq = 0;
    QString hash;
    qint64 atMs = 0;
    QByteArray publicKey; // raw Ed25519, 32 bytes
    QByteArray signature; // 64 bytes over signedPayload()

    // "redrive-audit-checkpoint-v1\n<seq>\n<hash>\n<at ms>\n"
    [[nodiscard]] QByteArray signedPayload() const;
    [[nodiscard]] bool signatureValid() const;

    // {"seq", "hash", "at" (ISO-8601), "at_ms", "algorithm": "Ed25519", "public_key" (base64),
    //  "key_id", "signature" (base64)}
    [[nodiscard]] QJsonObject toJson() const;
    static Result<Checkpoint> fromJson(const QJsonObject &object);

    static Result<Checkpoint> readFile(const QString &path);
    Result<> writeFile(const QString &path) const;
};

// Signs the current head of the log (seq 0 and the genesis hash for an empty log).
Result<Checkpoint> makeCheckpoint(Db &db, const SigningKey &key, qint64 nowMs);

} // namespace redrive::audit
