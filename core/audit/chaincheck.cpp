// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#include "chaincheck.h"

#include "util/clock.h"

#include <QSqlQuery>

namespace redrive::audit {
namespace {

// The stored hash of one entry; empty when the row is absent.
Result<QString> hashAt(Db &db, qint64 seq)
{
    QSqlQuery q(db.handle());
    q.prepare(QStringLiteral("SELECT hash FROM audit_log WHERE seq = ?"));
    q.addBindValue(seq);
    if (!q.exec())
        return Failure(sqlErrorText(q));
    return q.next() ? q.value(0).toString() : QString();
}

AnchorResult changed(qint64 seq, const QString &problem)
{
    return { AnchorResult::State::Changed, seq, problem };
}

} // namespace

Result<ChainReport> checkChain(Db &db, const QList<ChainAnchor> &anchors)
{
    VerifyOptions options;
    options.checkSignature = false;
    auto walked = verifyAuditChain(db, options);
    if (!walked)
        return Failure(walked.error());
    ChainReport report;
    report.chain = *walked;
    const VerifyResult &chain = report.chain;
    for (const ChainAnchor &a : anchors) {
        const QString when = isoUtc(a.atMs);
        if (!chain.ok && chain.firstBadSeq && a.seq >= *chain.firstBadSeq) {
            report.anchors.append(changed(*chain.firstBadSeq, chain.problem));
            continue;
        }
        if (chain.ok && a.seq > chain.head.seq) {
            report.anchors.append({ AnchorResult::State::CutOff, chain.head.seq + 1,
                QStringLiteral("the log ends at #%1 but the checkpoint taken at %2 covers #%3: entries "
                               "#%4..#%3 were cut off")
                    .arg(chain.head.seq)
                    .arg(when)
                    .arg(a.seq)
                    .arg(chain.head.seq + 1) });
            continue;
        }
        if (a.seq == 0) {
            report.anchors.append(a.hash == QLatin1String(kGenesisHash)
                    ? AnchorResult {}
                    : changed(1, QStringLiteral("the checkpoint of the empty log has a wrong hash")));
            continue;
        }
        const auto stored = hashAt(db, a.seq);
        if (!stored)
            return Failure(stored.error());
        if (*stored != a.hash) {
            report.anchors.append(changed(a.seq,
                QStringLiteral("#%1 no longer has the hash it had at %2: the log up to it was rewritten and "
                               "re-hashed (the first rewritten entry is at or before #%1)")
                    .arg(a.seq)
                    .arg(when)));
            continue;
        }
        report.anchors.append(AnchorResult {});
    }
    return report;
}

} // namespace redrive::audit
