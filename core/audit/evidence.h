// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#pragma once

#include "audit/auditentry.h"
#include "audit/checkpoint.h"
#include "query/eventdetail.h"

#include <QJsonObject>
#include <QList>
#include <QSet>

#include <optional>

// An evidence bundle: one JSON file that lets someone without database access re-check what
// Redrive recorded about one event — the envelope and the body itself (so its SHA-256 can be
// recomputed), every delivery and attempt, notes, the replays that selected it, the audit
// entries that touched it with their hash links, and a checkpoint of the audit log signed by the
// receiver at export time. A top-level bundle_sha256 over a canonical encoding of everything
// else exposes edits made to the file after export.
namespace redrive::audit {

inline constexpr char kEvidenceFormat[] = "redrive-evidence-v1";

struct EvidenceReplay {
    qint64 id = 0;
    QString status;
    QString requestedBy;
    QString requesterRole;
    QString reason;
    QString ticket;
    bool requiresApproval = false;
    qint64 count = 0;
    QString approvedBy;
    QString decisionReason;
    qint64 createdAt = 0;
    std::optional<qint64> decidedAt;
    std::optional<qint64> startedAt;
    std::optional<qint64> finishedAt;
};

// Everything a bundle holds, already read from the database (see evidencereader.h).
struct EvidenceData {
    EventDetail detail;
    QList<EvidenceReplay> replays;
    // Ascending seq. With linkedToCheckpoint, every entry from the first one about this event
    // up to the checkpoint's seq (so each hash link can be followed to the signed head);
    // otherwise only the entries about this event.
    QList<AuditEntry> audit;
    QSet<qint64> aboutEvent; // seqs of the entries that name this event, a delivery or a replay of it
    bool linkedToCheckpoint = false;
};

struct EvidenceMeta {
    qint64 exportedAtMs = 0;
    QString exportedBy;   // the admin API identity that exported it
    QString role;
    QString generator;    // "redrive console 0.1.0"
};

// The complete bundle, bundle_sha256 included.
QJsonObject buildEvidenceBundle(const EvidenceData &data, const Checkpoint &checkpoint, const EvidenceMeta &meta);

// The bytes bundle_sha256 covers: every member except bundle_sha256, as compact JSON with the
// keys of every object sorted (by UTF-16 code unit), no whitespace, strings as UTF-8 with only
// the escapes JSON requires, integers without exponent. For the data in a bundle this equals
// Python's json.dumps(obj, sort_keys=True, separators=(",", ":"), ensure_ascii=False).
QByteArray canonicalBundleBytes(QJsonObject bundle);
QString computeBundleSha256(const QJsonObject &bundle);

} // namespace redrive::audit
