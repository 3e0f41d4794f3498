// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#pragma once

#include "audit/auditentry.h"
#include "audit/checkpoint.h"
#include "query/eventdetail.h"

#include <QJsonObject>
#include <QList>
#include <QSet>
#include <QStringList>

#include <optional>

// An evidence bundle: one JSON file that lets someone without database access re-check what
// Redrive recorded about one event — the envelope and the body itself (so its SHA-256 can be
// recomputed), every delivery and attempt, notes, the replays that selected it, the audit
// entries that touched it with their hash links, and a checkpoint of the audit log signed by the
// receiver at export time.
//
// The receiver builds it from its own database (GET /admin/v1/events/{id}/evidence) and signs
// it with its audit key: `signature` is Ed25519 over the canonical bytes of everything except
// `bundle_sha256` and `signature`, so no member can change without the signature failing.
// `sections` holds a SHA-256 per member, inside the signed bytes, so a verifier can say which
// part changed. `bundle_sha256` is a plain hash over the same bytes (a quick integrity check
// anyone can recompute; it proves nothing about who made the file).
//
// Version 1 bundles were assembled by the console and carry no signature: only their audit
// entries (hash-chained up to the signed checkpoint) are protected. Verifiers still read them.
namespace redrive::audit {

class SigningKey;

inline constexpr char kEvidenceFormatV1[] = "redrive-evidence-v1"; // console-built, unsigned (read only)
inline constexpr char kEvidenceFormat[] = "redrive-evidence-v2"; // receiver-built and signed

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
    QString exportedBy; // the admin API identity that exported it
    QString role;
    QString generator; // "redrived 0.1.0"
};

// The complete signed bundle: sections, bundle_sha256 and the signature block
// {"algorithm": "Ed25519", "public_key" (base64), "key_id", "signature" (base64), "signs"}.
// The checkpoint must have been made with the same key. nullopt when signing fails.
Result<QJsonObject> buildSignedEvidenceBundle(
    const EvidenceData &data, const Checkpoint &checkpoint, const EvidenceMeta &meta, const SigningKey &key);

// The members `sections` has a digest for, in the order a verifier reports them.
QStringList evidenceSectionNames();
// {"<member>": sha256 hex of canonicalBundleBytes({"<member>": value})} for each section present.
QJsonObject computeEvidenceSections(const QJsonObject &bundle);

// The bytes bundle_sha256 and the signature cover: every member except bundle_sha256 and
// signature, as compact JSON with the keys of every object sorted (by UTF-16 code unit), no
// whitespace, strings as UTF-8 with only the escapes JSON requires, integers without exponent.
// For the data in a bundle this equals Python's
// json.dumps(obj, sort_keys=True, separators=(",", ":"), ensure_ascii=False).
QByteArray canonicalBundleBytes(QJsonObject bundle);
QString computeBundleSha256(const QJsonObject &bundle);

} // namespace redrive::audit
