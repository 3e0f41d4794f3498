// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#pragma once

#include <QByteArray>
#include <QString>
#include <QStringList>

namespace redrive::audit {

struct EvidenceVerdict {
    bool ok = false;
    QString problem;      // the first thing found wrong, in one sentence
    QStringList checked;  // what was verified, one line each, in order
    QStringList notes;    // what the bundle cannot show (e.g. entries not linked to the checkpoint)
};

// Re-checks an evidence bundle (evidence.h) on its own, without the database: the body against
// its recorded SHA-256 and size; every audit entry's hash against its contents and each link
// between consecutive entries (and, when the bundle says they are linked, the unbroken chain up
// to the checkpoint's hash); the checkpoint's Ed25519 signature; then bundle_sha256 over the
// rest. Stops at the first problem.
EvidenceVerdict verifyEvidence(const QByteArray &fileContents);

} // namespace redrive::audit
