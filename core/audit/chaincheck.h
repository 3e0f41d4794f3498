// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#pragma once

#include "audit/auditverifier.h"

#include <QList>
#include <QString>

#include <optional>

namespace redrive::audit {

// A point of the chain someone kept outside the database: "entry `seq` had hash `hash`".
// Auditors save them in the console; a signed checkpoint from the receiver is one too.
struct ChainAnchor {
    qint64 seq = 0;
    QString hash;
    qint64 atMs = 0; // when it was taken
    QString keyId; // the receiver key that signed it; empty for a head the console computed itself
};

struct AnchorResult {
    enum class State {
        Unchanged, // the entry at seq still has the saved hash, and the chain up to it is intact
        Changed, // an entry up to seq differs: firstChangedSeq names the first one found
        CutOff // the log now ends before seq: the tail was removed
    };
    State state = State::Unchanged;
    qint64 firstChangedSeq = 0; // Changed and CutOff
    QString problem; // one sentence, empty when Unchanged
};

struct ChainReport {
    VerifyResult chain; // the walk from seq 1 (hashes recomputed from the rows)
    QList<AnchorResult> anchors; // one per anchor, in the order given
};

// Walks the chain once and proves each anchor against it: an anchor below the first broken
// entry is unchanged exactly when its entry still has the saved hash (the intact links below
// it then pin every earlier entry); an anchor at or above the break names the break; an anchor
// beyond the end of an intact log names the cut-off tail. A log rewritten and re-hashed from
// some entry on is internally consistent: only the anchor's hash shows it, and the first
// rewritten entry is then known only to be at or before the anchor. nullopt when the database
// cannot be read.
Result<ChainReport> checkChain(Db &db, const QList<ChainAnchor> &anchors);

} // namespace redrive::audit
