// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#pragma once

#include "audit/keypin.h"

#include <QByteArray>
#include <QString>
#include <QStringList>

namespace redrive::audit {

struct EvidenceVerdict {
    bool ok = false;
    QString problem; // the first thing found wrong, in one sentence
    QStringList checked; // what was verified, one line each, in order
    QStringList notes; // what the bundle cannot show (e.g. entries not linked to the checkpoint)
    bool signedByReceiver = false; // a receiver signature was present and valid
    QString keyId; // the key that signed it (signed bundles)
    bool keyPinned = false; // ...and it is the key the caller pinned
    // For an intact bundle, one sentence on whom and what it trusts (printed last by the CLI).
    [[nodiscard]] QString trustSummary() const;
};

// Re-checks an evidence bundle (evidence.h) on its own, without the database, and stops at the
// first problem, naming it:
//  - the pin: with `pin` set, the bundle must be signed, and by that key;
//  - the body against its recorded SHA-256 and size;
//  - every audit entry's hash against its contents and each link between consecutive entries
//    (and, when the bundle says they are linked, the unbroken chain up to the checkpoint's hash);
//  - the checkpoint's Ed25519 signature (and, in a signed bundle, that the same key made it);
//  - the receiver's signature over the canonical bytes, naming the part that changed from the
//    signed per-part digests (event, body, deliveries and attempts, notes, replays, audit, ...);
//  - bundle_sha256 over the same bytes.
// A version 1 bundle (console-built, unsigned) still verifies, with a note that only its audit
// entries are protected; a version 2 bundle without its signature fails.
EvidenceVerdict verifyEvidence(const QByteArray &fileContents, const KeyPin &pin = {});

} // namespace redrive::audit
