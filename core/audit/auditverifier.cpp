// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#include "auditverifier.h"

#include "audit/signingkey.h"
#include "util/clock.h"

#include <QSqlQuery>

namespace redrive::audit {
namespace {
VerifyResult broken(VerifyResult r, std::optional<qint64> seq, const QString &problem)
{
    r.ok = false;
    r.firstBadSeq = seq;
    r.problem = problem;
    return r;
}
} // namespace

Result<VerifyResult> verifyAuditChain(Db &db, const VerifyOptions &options)
{
    VerifyResult result;
    const Checkpoint *cp = options.checkpoint ? &*options.checkpoint : nullptr;
    if (cp) {
        result.checkpointChecked = true;
        if (options.checkSignature && !cp->signatureValid())
            return broken(result, std::nullopt, QStringLiteral("the checkpoint's signature is invalid"));
        if (options.checkSignature && !options.trustedPublicKey.isEmpty()
            && options.trustedPublicKey != cp->publicKey) {
            return broken(result, std::nullopt,
                QStringLiteral("the checkpoint was signed by key %1, not by this receiver's key %2")
                    .arg(SigningKey::keyIdOf(cp->publicKey), SigningKey::keyIdOf(options.trustedPublicKey)));
        }
    }

    const int pageSize = qMax(1, options.pageSize);
    QSqlQuery q(db.handle());
    q.setForwardOnly(true);
    if (!q.prepare(QStringLiteral("SELECT %1 FROM audit_log WHERE seq > ? ORDER BY seq LIMIT %2")
                       .arg(QLatin1String(kAuditColumns))
                       .arg(pageSize)))
        return Failure(sqlErrorText(q));
    qint64 expected = 1;
    for (;;) {
        q.bindValue(0, expected - 1);
        if (!q.exec())
            return Failure(sqlErrorText(q));
        int rows = 0;
        while (q.next()) {
            ++rows;
            const AuditEntry e = auditEntryFromQuery(q);
            if (e.seq != expected) {
                return broken(result, expected,
                    QStringLiteral("entry %1 is missing: the log jumps from seq %2 to seq %3")
                        .arg(expected)
                        .arg(expected - 1)
                        .arg(e.seq));
            }
            if (e.prevHash != result.head.hash) {
                return broken(result, e.seq,
                    QStringLiteral("entry %1's prev_hash does not match the hash of entry %2 "
                                   "(entries were removed, reordered or rewritten)")
                        .arg(e.seq)
                        .arg(e.seq - 1));
            }
            if (computeEntryHash(e) != e.hash) {
                return broken(result, e.seq,
                    QStringLiteral("entry %1's hash does not match its contents (the entry was edited)")
                        .arg(e.seq));
            }
            if (cp && e.seq == cp->seq && e.hash != cp->hash) {
                return broken(result, e.seq,
                    QStringLiteral("entry %1's hash differs from the checkpoint signed at %2 "
                                   "(the history up to it was rewritten)")
                        .arg(e.seq)
                        .arg(isoUtc(cp->atMs)));
            }
            result.head.seq = e.seq;
            result.head.hash = e.hash;
            ++result.count;
            ++expected;
        }
        q.finish();
        if (rows < pageSize)
            break;
    }
    if (cp && result.head.seq < cp->seq) {
        return broken(result, result.head.seq + 1,
            QStringLiteral("the log ends at seq %1 but the checkpoint signed at %2 covers seq %3: "
                           "entries %4..%3 were removed (tail truncated)")
                .arg(result.head.seq)
                .arg(isoUtc(cp->atMs))
                .arg(cp->seq)
                .arg(result.head.seq + 1));
    }
    if (cp && cp->seq == 0 && cp->hash != QLatin1String(kGenesisHash))
        return broken(
            result, std::nullopt, QStringLiteral("the checkpoint for an empty log has a wrong hash"));
    return result;
}

} // namespace redrive::audit
