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
};

// Reads what an evidence bundle holds for one event, in one consistent read. nullopt with an
// empty error when the event does not exist; nullopt with an error when the database cannot be
// read or does not yet hold the checkpoint's head (a lagging replica).
std::optional<EvidenceData> readEvidenceData(Db &db, qint64 eventId, const EvidenceReadOptions &options, QString *error);

} // namespace redrive::audit
