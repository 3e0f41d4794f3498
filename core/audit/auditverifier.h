// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#pragma once

#include "audit/auditlog.h"
#include "audit/checkpoint.h"

#include <optional>

namespace redrive::audit {

struct VerifyOptions {
    // Also check the log against an exported checkpoint: its signature, that the entry at its
    // seq still has its hash, and that the log still reaches its seq (tail truncation).
    std::optional<Checkpoint> checkpoint;
    // False when the caller compares against a seq/hash it already trusts (no signature).
    bool checkSignature = true;
    // When set, the checkpoint must have been signed by this key (raw Ed25519 public key).
    QByteArray trustedPublicKey;
    int pageSize = 1000; // entries read per query: memory stays bounded on any log size
};

struct VerifyResult {
    bool ok = true;
    qint64 count = 0; // intact entries walked before the first problem
    std::optional<qint64> firstBadSeq; // the first entry that is wrong or missing
    QString problem; // one sentence naming what is wrong
    AuditHead head; // last intact entry
    bool checkpointChecked = false;
};

// Walks the chain from seq 1 in ascending order, streaming pages. Stops at the first problem:
// a missing seq (deleted row), a prev_hash that is not the previous entry's hash (deleted or
// reordered rows), a hash that does not match the entry's contents (edited row), or a
// disagreement with the checkpoint. nullopt only when the database cannot be read.
Result<VerifyResult> verifyAuditChain(Db &db, const VerifyOptions &options);

} // namespace redrive::audit
