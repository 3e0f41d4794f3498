// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#include "evidence.h"

#include "audit/signingkey.h"
#include "crypto/crypto.h"
#include "util/clock.h"
#include "util/jsonvalues.h"

#include <QJsonArray>
#include <QJsonDocument>

namespace redrive::audit {
namespace {

using json::isoOrNull;
using json::numberOrNull;
// Evidence bundles render empty optional text as null (the format is signed: keep it so).
QJsonValue text(const QString &s)
{
    return json::nonEmptyOrNull(s);
}

QJsonObject envelope(const EventDetail &d)
{
    QJsonObject o = eventRowJson(d.row);
    o.insert(QStringLiteral("content_type"), d.contentType);
    o.insert(QStringLiteral("body_sha256"), d.bodySha256);
    o.insert(QStringLiteral("body_size"), d.bodySize);
    o.insert(QStringLiteral("verified_by"), text(d.verifiedBy));
    o.insert(QStringLiteral("clock_skew_ms"), numberOrNull(d.clockSkewMs));
    o.insert(QStringLiteral("remote_addr"), text(d.remoteAddr));
    o.insert(QStringLiteral("legal_hold"), d.legalHold);
    // The body in the bundle is the redacted copy for a role that may not reveal: the signature
    // covers the copy, and body_sha256 stays the original's (a reader can tell the two apart).
    if (d.bodyIsRedactedCopy) {
        o.insert(QStringLiteral("body_redacted"), true);
        o.insert(QStringLiteral("redacted_paths"), QJsonArray::fromStringList(d.redactedPaths));
    }
    // Stored redacted by the receiver: [[name, value], ...]. Kept as stored when it is not JSON.
    QJsonParseError parse;
    const QJsonDocument headers = QJsonDocument::fromJson(d.headersJson, &parse);
    if (parse.error == QJsonParseError::NoError && headers.isArray())
        o.insert(QStringLiteral("headers"), headers.array());
    else
        o.insert(QStringLiteral("headers_raw"), QString::fromUtf8(d.headersJson));
    return o;
}

QJsonObject delivery(const DeliveryRecord &rec)
{
    const DeliverySummary &s = rec.summary;
    QJsonArray attempts;
    for (const AttemptRecord &a : rec.attempts)
        attempts.append(attemptJson(a));
    return QJsonObject {
        { QStringLiteral("id"), s.id },
        { QStringLiteral("destination"), s.destination },
        { QStringLiteral("status"), s.status.name() },
        { QStringLiteral("downstream"), toString(s.downstream) },
        { QStringLiteral("attempt_count"), s.attemptCount },
        { QStringLiteral("next_attempt_at"), isoOrNull(s.nextAttemptAt) },
        { QStringLiteral("downstream_ref"), text(s.downstreamRef) },
        { QStringLiteral("outcome_unknown"), s.outcomeUnknown },
        { QStringLiteral("idempotency_key"), rec.idempotencyKey },
        { QStringLiteral("last_category"), text(s.lastCategory.name()) },
        { QStringLiteral("last_status_code"),
            rec.lastStatusCode ? QJsonValue(*rec.lastStatusCode) : QJsonValue(QJsonValue::Null) },
        { QStringLiteral("last_error"), text(rec.lastError) },
        { QStringLiteral("created_at"), isoUtc(rec.createdAt) },
        { QStringLiteral("succeeded_at"), isoOrNull(rec.succeededAt) },
        { QStringLiteral("dead_at"), isoOrNull(rec.deadAt) },
        { QStringLiteral("attempts"), attempts },
    };
}

QJsonObject replay(const EvidenceReplay &r)
{
    return QJsonObject {
        { QStringLiteral("id"), r.id },
        { QStringLiteral("status"), r.status },
        { QStringLiteral("requested_by"), r.requestedBy },
        { QStringLiteral("requester_role"), r.requesterRole },
        { QStringLiteral("reason"), r.reason },
        { QStringLiteral("ticket"), text(r.ticket) },
        { QStringLiteral("requires_approval"), r.requiresApproval },
        { QStringLiteral("count"), r.count },
        { QStringLiteral("approved_by"), text(r.approvedBy) },
        { QStringLiteral("decision_reason"), text(r.decisionReason) },
        { QStringLiteral("created_at"), isoUtc(r.createdAt) },
        { QStringLiteral("decided_at"), isoOrNull(r.decidedAt) },
        { QStringLiteral("started_at"), isoOrNull(r.startedAt) },
        { QStringLiteral("finished_at"), isoOrNull(r.finishedAt) },
    };
}

QJsonObject auditEntry(const AuditEntry &e, bool aboutEvent)
{
    QJsonObject o = auditEntryJson(e);
    o.insert(QStringLiteral("about_event"), aboutEvent);
    return o;
}

} // namespace

Result<QJsonObject> buildSignedEvidenceBundle(
    const EvidenceData &data, const Checkpoint &checkpoint, const EvidenceMeta &meta, const SigningKey &key)
{
    if (checkpoint.publicKey != key.publicKey())
        return Failure(QStringLiteral("the checkpoint was signed with another key than the bundle"));
    QJsonArray deliveries;
    for (const DeliveryRecord &rec : data.detail.deliveries)
        deliveries.append(delivery(rec));
    QJsonArray notes;
    for (const NoteRecord &n : data.detail.notes)
        notes.append(QJsonObject { { QStringLiteral("id"), n.id }, { QStringLiteral("author"), n.author },
            { QStringLiteral("body"), n.body }, { QStringLiteral("created_at"), isoUtc(n.createdAt) } });
    QJsonArray replays;
    for (const EvidenceReplay &r : data.replays)
        replays.append(replay(r));
    QJsonArray entries;
    for (const AuditEntry &e : data.audit)
        entries.append(auditEntry(e, data.aboutEvent.contains(e.seq)));

    QJsonObject bundle {
        { QStringLiteral("format"), QLatin1String(kEvidenceFormat) },
        { QStringLiteral("exported"),
            QJsonObject { { QStringLiteral("at"), isoUtc(meta.exportedAtMs) },
                { QStringLiteral("at_ms"), meta.exportedAtMs }, { QStringLiteral("by"), meta.exportedBy },
                { QStringLiteral("role"), meta.role }, { QStringLiteral("generator"), meta.generator } } },
        { QStringLiteral("event"), envelope(data.detail) },
        { QStringLiteral("body_base64"), QString::fromLatin1(data.detail.body.toBase64()) },
        { QStringLiteral("deliveries"), deliveries },
        { QStringLiteral("notes"), notes },
        { QStringLiteral("replays"), replays },
        { QStringLiteral("audit"),
            QJsonObject { { QStringLiteral("entries"), entries },
                { QStringLiteral("linked_to_checkpoint"), data.linkedToCheckpoint } } },
        { QStringLiteral("checkpoint"), checkpoint.toJson() },
    };
    bundle.insert(QStringLiteral("sections"), computeEvidenceSections(bundle));
    const QByteArray canonical = canonicalBundleBytes(bundle);
    const QByteArray signature = key.sign(canonical);
    if (signature.isEmpty())
        return Failure(QStringLiteral("signing the evidence bundle failed"));
    bundle.insert(QStringLiteral("bundle_sha256"), QString::fromLatin1(crypto::sha256Hex(canonical)));
    bundle.insert(QStringLiteral("signature"),
        QJsonObject { { QStringLiteral("algorithm"), QStringLiteral("Ed25519") },
            { QStringLiteral("public_key"), QString::fromLatin1(key.publicKey().toBase64()) },
            { QStringLiteral("key_id"), key.keyId() },
            { QStringLiteral("signature"), QString::fromLatin1(signature.toBase64()) },
            { QStringLiteral("signs"),
                QStringLiteral("canonical bytes of every member except "
                               "bundle_sha256 and signature") } });
    return bundle;
}

QStringList evidenceSectionNames()
{
    return { QStringLiteral("event"), QStringLiteral("body_base64"), QStringLiteral("deliveries"),
        QStringLiteral("notes"), QStringLiteral("replays"), QStringLiteral("audit"),
        QStringLiteral("checkpoint"), QStringLiteral("exported") };
}

QJsonObject computeEvidenceSections(const QJsonObject &bundle)
{
    QJsonObject sections;
    for (const QString &name : evidenceSectionNames()) {
        if (!bundle.contains(name))
            continue;
        const QByteArray bytes
            = QJsonDocument(QJsonObject { { name, bundle.value(name) } }).toJson(QJsonDocument::Compact);
        sections.insert(name, QString::fromLatin1(crypto::sha256Hex(bytes)));
    }
    return sections;
}

QByteArray canonicalBundleBytes(QJsonObject bundle)
{
    bundle.remove(QStringLiteral("bundle_sha256"));
    bundle.remove(QStringLiteral("signature"));
    // QJsonObject keeps its keys sorted and the compact writer adds no whitespace; every number
    // in a bundle is an integer, which the writer prints without exponent.
    return QJsonDocument(bundle).toJson(QJsonDocument::Compact);
}

QString computeBundleSha256(const QJsonObject &bundle)
{
    return QString::fromLatin1(crypto::sha256Hex(canonicalBundleBytes(bundle)));
}

} // namespace redrive::audit
