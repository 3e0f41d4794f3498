// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#pragma once

#include "audit/evidence.h"
#include "storage/database.h"

namespace redrive::audit {

struct EvidenceReadOptions {
    qint64 checkpointSeq = 0; // the signed head the bundle is anchored to; later entries are left out
    // The audit entries from the first one about the event up to the checkpoint are included
    // so every link can be followed; above this many, only the entries about the event are.
    int maxLinkedEntries = 10'000;
    // The original body (a role that may reveal it); otherwise the redacted copy, marked so.
    bool originalBody = false;
};

// Reads what an evidence bundle holds for one event. Runs inside the caller's open transaction,
// which must give all its statements one snapshot, so a bundle never mixes two moments (the
// receiver's export: BEGIN IMMEDIATE on SQLite, REPEATABLE READ on PostgreSQL). A nullopt
// value when the event does not exist; a failure when the database cannot be read or does not
// hold the audit log up to the checkpoint's entry.
Result<std::optional<EvidenceData>> readEvidenceData(
    Db &db, qint64 eventId, const EvidenceReadOptions &options);

} // namespace redrive::audit
