// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#include "evidencehandlers.h"

#include "admin/audithandlers.h"
#include "admin/jsonbody.h"
#include "audit/auditappendlock.h"
#include "audit/checkpoint.h"
#include "audit/evidence.h"
#include "audit/evidencereader.h"
#include "audit/signingkey.h"

namespace redrive::admin {
namespace {
constexpr int kMaxReasonChars = 1000;
} // namespace

http::Response exportEvidence(RequestContext &ctx, qint64 eventId)
{
    const QString target = QStringLiteral("event:%1").arg(eventId);
    if (auto r = requirePermission(ctx, access::Action::ExportEvidence, target))
        return *r;
    ApiError e;
    if (!checkQueryKeys(ctx.query, { QStringLiteral("reason") }, &e))
        return errorResponse(e);
    QString reason;
    const QJsonObject query { { QStringLiteral("reason"),
        ctx.query.queryItemValue(QStringLiteral("reason"), QUrl::FullyDecoded) } };
    if (!readText(query, QStringLiteral("reason"), TextRule { false, kMaxReasonChars, false }, &reason, &e))
        return errorResponse(e);
    if (!ctx.signingKey)
        return errorResponse(503, QStringLiteral("not_configured"),
            QStringLiteral("evidence bundles are signed with the audit key: set admin.audit_key_file in "
                           "the receiver's configuration"));

    // The head is signed, read up to and appended to from one snapshot. On PostgreSQL the
    // append lock is taken before the transaction's snapshot, so no entry can slip in between;
    // on SQLite BEGIN IMMEDIATE excludes every other writer.
    audit::AuditAppendLock appendLock(ctx.db);
    if (auto locked = appendLock.acquire(); !locked)
        return databaseError("locking the audit log for an evidence export", locked.error());
    QString error;
    Transaction tx(ctx.db);
    if (!succeeded(tx.begin(), &error))
        return databaseError("exporting evidence", error);
    if (!ctx.db.isSqlite()
        && !succeeded(ctx.db.exec(QStringLiteral("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ")), &error))
        return databaseError("exporting evidence", error);

    const qint64 now = ctx.clock.nowMs();
    // A bundle carries a signed checkpoint: the same guard as GET audit/checkpoint applies, so a
    // cut or rewritten log is never signed into evidence either.
    const auto guarded = audit::makeGuardedCheckpoint(
        ctx.db, *ctx.signingKey, audit::signedHeadPath(ctx.config.admin.auditKeyFile), now);
    if (guarded.outcome == audit::GuardedCheckpoint::Outcome::Refused) {
        tx.rollback();
        appendLock.release();
        return checkpointRefused(ctx, guarded);
    }
    if (!guarded.checkpoint)
        return databaseError("making the evidence checkpoint", guarded.problem);
    const auto &checkpoint = guarded.checkpoint;
    audit::EvidenceReadOptions options;
    options.checkpointSeq = checkpoint->seq;
    const auto read = audit::readEvidenceData(ctx.db, eventId, options);
    if (!read)
        return databaseError("reading evidence", read.error());
    const std::optional<audit::EvidenceData> &data = *read;
    if (!data)
        return errorResponse(404, QStringLiteral("not_found"),
            QStringLiteral("event %1 does not exist").arg(eventId), QStringLiteral("id"));
    audit::EvidenceMeta meta;
    meta.exportedAtMs = now;
    meta.exportedBy = ctx.who.name;
    meta.role = toString(ctx.who.role);
    meta.generator = QStringLiteral("redrived " REDRIVE_VERSION);
    const auto bundle = audit::buildSignedEvidenceBundle(*data, *checkpoint, meta, *ctx.signingKey);
    if (!bundle)
        return databaseError("signing evidence", bundle.error());

    // The entry names the exact file handed out, so a bundle shown later can be matched to it.
    const QJsonObject details {
        { QStringLiteral("format"), QLatin1String(audit::kEvidenceFormat) },
        { QStringLiteral("bundle_sha256"), bundle->value(QLatin1String("bundle_sha256")) },
        { QStringLiteral("checkpoint_seq"), checkpoint->seq },
        { QStringLiteral("key_id"), ctx.signingKey->keyId() },
        { QStringLiteral("audit_entries"), static_cast<qint64>(data->audit.size()) },
        { QStringLiteral("linked_to_checkpoint"), data->linkedToCheckpoint },
    };
    if (!auditAndCommit(
            ctx, tx, ctx.record(QStringLiteral("evidence_exported"), target, reason, details), &error))
        return databaseError("recording the evidence export", error);
    return jsonResponse(200, *bundle);
}

} // namespace redrive::admin
