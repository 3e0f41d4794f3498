// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#pragma once

#include "audit/checkpoint.h"
#include "audit/evidence.h"
#include "audit/signingkey.h"
#include "crypto/crypto.h"

#include <optional>

// An evidence bundle made without a database: one event (7) with a body, one delivery with two
// attempts, a note, a replay, and an audit chain of four entries (1 and 3 about the event) up to
// a checkpoint of entry 4, signed with `key` the way the receiver signs it.
namespace redrive::test {

inline constexpr qint64 kSampleEventId = 7;
inline constexpr qint64 kSampleBase = 1'750'000'000'000;

inline audit::EvidenceData sampleEvidenceData()
{
    audit::EvidenceData data;
    EventDetail &d = data.detail;
    d.row.id = kSampleEventId;
    d.row.receivedAt = kSampleBase;
    d.row.source = QStringLiteral("github");
    d.row.type = QStringLiteral("push");
    d.row.providerEventId = QStringLiteral("gh-delivery-1");
    d.row.status = EventStatus::Succeeded;
    d.row.lastSeenAt = kSampleBase;
    d.contentType = QStringLiteral("application/json");
    d.body = QByteArrayLiteral("{\"order\":\"ORD-1001\",\"total\":4200}");
    d.bodySha256 = QString::fromLatin1(crypto::sha256Hex(d.body));
    d.bodySize = d.body.size();
    d.headersJson
        = QByteArrayLiteral("[[\"X-GitHub-Event\",\"push\"],[\"X-Hub-Signature-256\",\"[redacted]\"]]");
    d.verifiedBy = QStringLiteral("env:GITHUB_WEBHOOK_SECRET");

    DeliveryRecord rec;
    rec.summary.id = 40;
    rec.summary.destination = QStringLiteral("fulfillment");
    rec.summary.status = DeliveryStatus::Succeeded;
    rec.summary.attemptCount = 2;
    rec.summary.downstreamRef = QStringLiteral("ORD-1001");
    rec.summary.downstream = DownstreamState::SucceededWithRef;
    rec.idempotencyKey = QStringLiteral("evt_7_fulfillment");
    rec.createdAt = kSampleBase;
    rec.succeededAt = kSampleBase + 6'000;
    AttemptRecord first;
    first.number = 1;
    first.trigger = AttemptTrigger::Automatic;
    first.startedAt = kSampleBase + 1'000;
    first.durationMs = 120;
    first.statusCode = 503;
    first.category = FailureCategory::HttpRetryable;
    first.explanation = QStringLiteral("503 is retryable");
    AttemptRecord second = first;
    second.number = 2;
    second.trigger = AttemptTrigger::Replay;
    second.replayId = 41;
    second.startedAt = kSampleBase + 6'000;
    second.statusCode = 200;
    second.category = FailureCategory::None;
    second.explanation = QStringLiteral("2xx");
    rec.attempts = { first, second };
    d.deliveries = { rec };
    d.notes = { NoteRecord {
        1, QStringLiteral("bob"), QStringLiteral("customer confirmed ORD-1001"), kSampleBase + 7'000 } };

    audit::EvidenceReplay replay;
    replay.id = 41;
    replay.status = QStringLiteral("completed");
    replay.requestedBy = QStringLiteral("alice");
    replay.requesterRole = QStringLiteral("support");
    replay.reason = QStringLiteral("customer asked");
    replay.requiresApproval = true;
    replay.count = 1;
    replay.approvedBy = QStringLiteral("olga");
    replay.createdAt = kSampleBase + 5'000;
    data.replays = { replay };

    const struct {
        const char *action;
        QString target;
        const char *reason;
    } rows[] = {
        { "note_added", QStringLiteral("event:7"), "" },
        { "destination_paused", QStringLiteral("destination:crm"), "maintenance" },
        { "replay_requested", QStringLiteral("replay:41"), "customer asked" },
        { "token_created", QStringLiteral("token:ci"), "" },
    };
    QString prev = QLatin1String(audit::kGenesisHash);
    qint64 seq = 0;
    for (const auto &r : rows) {
        audit::AuditEntry e;
        e.seq = ++seq;
        e.atMs = kSampleBase + 7'000 + seq;
        e.actor = QStringLiteral("olga");
        e.role = QStringLiteral("operator");
        e.action = QLatin1String(r.action);
        e.target = r.target;
        e.reason = QString::fromUtf8(r.reason);
        e.details = QStringLiteral("{\"note\":\"ünïcode\"}");
        e.prevHash = prev;
        e.hash = audit::computeEntryHash(e);
        prev = e.hash;
        data.audit.append(e);
    }
    data.aboutEvent = { 1, 3 };
    data.linkedToCheckpoint = true;
    return data;
}

inline audit::Checkpoint sampleCheckpoint(const audit::EvidenceData &data, const audit::SigningKey &key)
{
    audit::Checkpoint cp;
    cp.seq = data.audit.last().seq;
    cp.hash = data.audit.last().hash;
    cp.atMs = kSampleBase + 60'000;
    cp.publicKey = key.publicKey();
    cp.signature = key.sign(cp.signedPayload());
    return cp;
}

inline QJsonObject sampleSignedBundle(
    const audit::SigningKey &key, const QString &exportedBy = QStringLiteral("audrey"))
{
    const audit::EvidenceData data = sampleEvidenceData();
    audit::EvidenceMeta meta;
    meta.exportedAtMs = kSampleBase + 60'000;
    meta.exportedBy = exportedBy;
    meta.role = QStringLiteral("auditor");
    meta.generator = QStringLiteral("redrive tests");
    QString error;
    const auto bundle = audit::buildSignedEvidenceBundle(data, sampleCheckpoint(data, key), meta, key);
    if (!bundle)
        qWarning("sampleSignedBundle: %s", qPrintable(bundle.error()));
    return bundle.value_or(QJsonObject());
}

} // namespace redrive::test
