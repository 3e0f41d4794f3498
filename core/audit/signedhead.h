// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#pragma once

#include "audit/auditverifier.h"
#include "audit/checkpoint.h"
#include "storage/database.h"

#include <QString>

#include <optional>

namespace redrive::audit {

class SigningKey;

// The last head the receiver signed, kept in a file next to its audit key and not in the
// database: someone who can write the database (and drop its append-only triggers) can delete the
// tail or rewrite an entry, and the chain alone would then verify the shorter or rewritten log.
// The file holds the checkpoint as `redrived audit checkpoint --out` writes it.
QString signedHeadPath(const QString &keyFile); // "<key file>.head"

// A nullopt value when nothing has been signed yet.
Result<std::optional<Checkpoint>> readSignedHead(const QString &path);

struct AuditLogVerification {
    VerifyResult result; // the first problem found, or the intact chain
    std::optional<Checkpoint> lastSigned; // the head the log was checked against, when there is one
    bool brokenAtLastSigned = false; // the problem was found checking against lastSigned
    bool headUnreadable = false; // the head file exists but cannot be read (result.problem says why)
};

// What `redrived audit verify` and GET audit/verify answer, so both say the same: the chain,
// checked against `options.checkpoint` when one is given, and against the last head this
// receiver signed (signedHeadPath(keyFile)) when `keyFile` is set — a log cut or rewritten below
// that head does not verify, whatever the chain alone says. A head file that exists but cannot
// be read is a broken log, never skipped (whoever can delete it could also replace it). When the
// key file exists, checkpoints must have been signed by its key. Fails when the key or the
// database cannot be read.
Result<AuditLogVerification> verifyAuditLog(Db &db, VerifyOptions options, const QString &keyFile);

struct GuardedCheckpoint {
    enum class Outcome { Signed, Refused, Failed };
    Outcome outcome = Outcome::Failed;
    std::optional<Checkpoint> checkpoint; // Signed
    std::optional<qint64> firstBadSeq; // Refused: the first entry that is wrong or missing
    QString problem; // Refused: one sentence; Failed: the error
    std::optional<Checkpoint> lastSigned; // what the log was checked against, when there was one
};

// Signs the head of the log only when the whole chain verifies and extends the last signed head
// (its entry still has its hash, the log still reaches it, and it was signed by `key`); then
// records the new head in `headFile`. Refuses otherwise, and when `headFile` exists but cannot
// be read: an attacker who can delete it could also replace it, so it is never ignored.
GuardedCheckpoint makeGuardedCheckpoint(Db &db, const SigningKey &key, const QString &headFile, qint64 nowMs);

} // namespace redrive::audit
