// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#include "evidencehandlers.h"

#include "admin/audithandlers.h"
#include "admin/jsonbody.h"
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
    if (auto r = admitQuery(ctx, access::Action::ExportEvidence, { QStringLiteral("reason") }, target))
        return *r;
    ApiError e;
    QString reason;
    const QJsonObject query { { QStringLiteral("reason"),
        ctx.query.queryItemValue(QStringLiteral("reason"), QUrl::FullyDecoded) } };
    if (!readText(query, QStringLiteral("reason"), TextRule { false, kMaxReasonChars, false }, &reason, &e))
        return errorResponse(e);
    if (!ctx.signingKey)
        return errorResponse(503, QStringLiteral("not_configured"),
            QStringLiteral("evidence bundles are signed with the audit key: set admin.audit_key_file in "
                           "the receiver's configuration"));

    std::unique_lock<std::mutex> turn;
    if (auto busy = takeCheckpointTurn(ctx, &turn))
        return *busy;

    // The chain is verified, its head signed and the bundle read in one read snapshot that holds
    // no write lock: a SQLite write transaction (BEGIN IMMEDIATE) would stall ingest and every
    // other writer, and PostgreSQL's audit append lock every audited action, for as long as the
    // whole chain takes to verify. Entries up to the signed head never change (append-only), so
    // the export is recorded afterwards in a short write transaction of its own; entries other
    // requests appended meanwhile come before it, which is the order things happened in.
    QString error;
    const qint64 now = ctx.clock.nowMs();
    Transaction snapshot(ctx.db, Transaction::Kind::Read);
    if (!succeeded(snapshot.begin(), &error))
        return databaseError("exporting evidence", error);
    if (!ctx.db.isSqlite()
        && !succeeded(
            ctx.db.exec(QStringLiteral("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY")),
            &error))
        return databaseError("exporting evidence", error);

    // A bundle carries a signed checkpoint: the same guard as GET audit/checkpoint applies, so a
    // cut or rewritten log is never signed into evidence either.
    const auto guarded = signCheckpoint(ctx);
    if (guarded.outcome == audit::GuardedCheckpoint::Outcome::Refused) {
        snapshot.rollback();
        return checkpointRefused(ctx, guarded);
    }
    if (!guarded.checkpoint)
        return databaseError("making the evidence checkpoint", guarded.problem);
    const auto &checkpoint = guarded.checkpoint;
    audit::EvidenceReadOptions options;
    options.checkpointSeq = checkpoint->seq;
    // Admins export evidence but may not reveal: theirs carries the redacted copy.
    options.originalBody = access::allows(ctx.who.role, access::Action::RevealPayload);
    const auto read = audit::readEvidenceData(ctx.db, eventId, options);
    if (!read)
        return databaseError("reading evidence", read.error());
    snapshot.rollback(); // it only read
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
    Transaction tx(ctx.db);
    if (auto failed = beginWrite(tx, "recording the evidence export"))
        return *failed;
    if (auto committed
        = auditAndCommit(ctx, tx, ctx.record(QStringLiteral("evidence_exported"), target, reason, details));
        !committed)
        return databaseError("recording the evidence export", committed.error());
    return jsonResponse(200, *bundle);
}

} // namespace redrive::admin
