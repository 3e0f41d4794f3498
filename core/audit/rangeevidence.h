// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#pragma once

#include "audit/checkpoint.h"
#include "audit/evidenceverifier.h"
#include "storage/database.h"

#include <QJsonObject>

#include <optional>

// An audit evidence bundle for a time range: the audit entries recorded in [since, until), and
// every entry after them up to a checkpoint the receiver signed, so each hash link can be
// followed to the signed head. The signed head hash commits to every entry before it, so no
// entry in the file can change without the chain failing to reach the signature. The entry
// just before the range is included too (unless the range starts at entry 1): its time shows
// that no entry of the range was left out at the front.
//
// The console builds it from its read-only database and the checkpoint it fetched from the
// receiver; `redrive --verify-evidence FILE` re-checks it without the database (the format is
// recognised by verifyEvidence()). The range and the export record are not signed: they only
// say what was asked for; bundle_sha256 is a plain integrity hash over everything.
namespace redrive::audit {

inline constexpr char kAuditEvidenceFormat[] = "redrive-audit-evidence-v1";

struct AuditRange {
    qint64 sinceMs = 0; // inclusive
    qint64 untilMs = 0; // exclusive
};

struct AuditEvidenceMeta {
    qint64 exportedAtMs = 0;
    QString exportedBy;
    QString generator; // "redrive 0.1.0"
};

// Reads the entries and builds the bundle. Fails with a sentence when the range is empty or
// reversed, when the database does not (or no longer) hold the checkpoint's entry with its hash,
// when no entry of the range is at or before the checkpoint, or when more than `maxEntries`
// entries would have to be included (export a narrower or a more recent range).
Result<QJsonObject> buildAuditRangeEvidence(Db &db, const Checkpoint &checkpoint, const AuditRange &range,
    const AuditEvidenceMeta &meta, int maxEntries = 200'000);

// How to check the file, for the README written beside it.
QString auditEvidenceReadme(const QJsonObject &bundle, const QString &fileName);

// Re-checks such a bundle (called by verifyEvidence() for its format).
EvidenceVerdict verifyAuditRangeEvidence(const QJsonObject &bundle, const KeyPin &pin);

} // namespace redrive::audit
