// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#include "audit/chaincheck.h"
#include "auditchainfixture.h"
#include "testdb.h"

#include <QSqlQuery>
#include <QTest>

using namespace redrive;
using namespace redrive::test;

namespace {
constexpr qint64 kBase = 1'750'000'000'000;
}

// What the console's audit page proves, on both engines: a chain walked from the rows, and the
// checkpoints an auditor saved, against someone who drops the append-only triggers and edits an
// entry, cuts off the tail, or rewrites and re-hashes a stretch of the log.
class TstAuditChainCheck : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void chainCheckNamesTheEditedEntry();
    void chainCheckCatchesACutOffTail();
    void chainCheckCatchesARehashedRewrite();

private:
    // A fresh database holding a real chain of `count` entries (at = kBase + seq * 1000).
    std::unique_ptr<TestDatabase> chainOf(int count, std::unique_ptr<Db> *writer);
};

std::unique_ptr<TestDatabase> TstAuditChainCheck::chainOf(int count, std::unique_ptr<Db> *writer)
{
    QString error;
    auto t = TestDatabase::create(&error);
    if (!t) {
        qWarning("%s", qPrintable(error));
        return nullptr;
    }
    *writer = t->open(QStringLiteral("auditwriter"));
    for (int i = 1; i <= count; ++i) {
        const AuditSeed seed { QStringLiteral("user%1").arg(i % 3), QStringLiteral("replay_requested"),
            QStringLiteral("replay:%1").arg(i), QStringLiteral("reason %1").arg(i), kBase + i * 1000 };
        if (!appendAudit(**writer, seed, &error)) {
            qWarning("%s", qPrintable(error));
            return nullptr;
        }
    }
    return t;
}

void TstAuditChainCheck::chainCheckNamesTheEditedEntry()
{
    std::unique_ptr<Db> writer;
    auto t = chainOf(8, &writer);
    QVERIFY(t);
    QString error;
    auto intact = audit::checkChain(*writer, {});
    QVERIFY2(intact, qPrintable(intact.error()));
    QVERIFY(intact->chain.ok);
    QCOMPARE(intact->chain.head.seq, qint64(8));
    QList<audit::ChainAnchor> anchors;
    for (const qint64 seq : { 2, 6 }) {
        QSqlQuery q(writer->handle());
        QVERIFY(q.exec(QStringLiteral("SELECT hash FROM audit_log WHERE seq = %1").arg(seq)) && q.next());
        anchors.append({ seq, q.value(0).toString(), kBase, QString() });
    }
    // The triggers refuse the edit; without them, the edit goes through and the chain names it.
    QVERIFY(!succeeded(
        writer->exec(QStringLiteral("UPDATE audit_log SET reason = 'nothing to see' WHERE seq = 4")),
        &error));
    QVERIFY2(dropAuditTriggers(*writer, &error), qPrintable(error));
    QVERIFY2(succeeded(
                 writer->exec(QStringLiteral("UPDATE audit_log SET reason = 'nothing to see' WHERE seq = 4")),
                 &error),
        qPrintable(error));
    auto report = audit::checkChain(*writer, anchors);
    QVERIFY2(report, qPrintable(report.error()));
    QVERIFY(!report->chain.ok);
    QCOMPARE(report->chain.firstBadSeq.value_or(0), qint64(4));
    QVERIFY2(report->chain.problem.contains(QStringLiteral("edited")), qPrintable(report->chain.problem));
    QCOMPARE(report->anchors.size(), 2);
    QCOMPARE(report->anchors[0].state, audit::AnchorResult::State::Unchanged); // #2 is below the edit
    QCOMPARE(report->anchors[1].state, audit::AnchorResult::State::Changed);
    QCOMPARE(report->anchors[1].firstChangedSeq, qint64(4));
}

void TstAuditChainCheck::chainCheckCatchesACutOffTail()
{
    std::unique_ptr<Db> writer;
    auto t = chainOf(8, &writer);
    QVERIFY(t);
    QString error;
    const auto head = audit::auditHead(*writer);
    QVERIFY2(head, qPrintable(head.error()));
    const audit::ChainAnchor saved { head->seq, head->hash, kBase + 9000,
        QStringLiteral("0123456789abcdef") };
    QVERIFY2(dropAuditTriggers(*writer, &error), qPrintable(error));
    QVERIFY2(succeeded(writer->exec(QStringLiteral("DELETE FROM audit_log WHERE seq > 5")), &error),
        qPrintable(error));
    auto report = audit::checkChain(*writer, { saved });
    QVERIFY2(report, qPrintable(report.error()));
    QVERIFY(report->chain.ok); // what is left is a valid chain: only the saved checkpoint knows
    QCOMPARE(report->chain.head.seq, qint64(5));
    QCOMPARE(report->anchors.size(), 1);
    QCOMPARE(report->anchors[0].state, audit::AnchorResult::State::CutOff);
    QCOMPARE(report->anchors[0].firstChangedSeq, qint64(6));
    QVERIFY2(report->anchors[0].problem.contains(QStringLiteral("#6..#8 were cut off")),
        qPrintable(report->anchors[0].problem));

    // Cut off, then new entries appended by a receiver: the entry at the saved seq has another hash.
    for (int i = 0; i < 3; ++i) {
        const AuditSeed later { QStringLiteral("x"), QStringLiteral("y"), QString(), QString(),
            kBase + 20'000 + i };
        QVERIFY2(appendAudit(*writer, later, &error), qPrintable(error));
    }
    report = audit::checkChain(*writer, { saved });
    QVERIFY2(report, qPrintable(report.error()));
    QVERIFY(report->chain.ok);
    QCOMPARE(report->anchors[0].state, audit::AnchorResult::State::Changed);
    QCOMPARE(report->anchors[0].firstChangedSeq, qint64(8));
}

void TstAuditChainCheck::chainCheckCatchesARehashedRewrite()
{
    std::unique_ptr<Db> writer;
    auto t = chainOf(6, &writer);
    QVERIFY(t);
    QString error;
    auto entries = audit::readAuditEntries(*writer, audit::AuditQuery {});
    QVERIFY2(entries, qPrintable(entries.error()));
    QList<audit::AuditEntry> &all = *entries;
    QCOMPARE(all.size(), 6);
    const audit::ChainAnchor early { 2, all[1].hash, kBase, QString() };
    const audit::ChainAnchor late { 6, all[5].hash, kBase, QString() };
    // Rewrite #4 and re-hash it and everything after it: the chain alone is consistent again.
    QVERIFY2(dropAuditTriggers(*writer, &error), qPrintable(error));
    all[3].reason = QStringLiteral("rewritten");
    QString prev = all[2].hash;
    for (int i = 3; i < 6; ++i) {
        all[i].prevHash = prev;
        all[i].hash = audit::computeEntryHash(all[i]);
        prev = all[i].hash;
        QSqlQuery u(writer->handle());
        u.prepare(QStringLiteral("UPDATE audit_log SET reason = ?, prev_hash = ?, hash = ? WHERE seq = ?"));
        u.addBindValue(all[i].reason);
        u.addBindValue(all[i].prevHash);
        u.addBindValue(all[i].hash);
        u.addBindValue(all[i].seq);
        QVERIFY2(u.exec(), qPrintable(sqlErrorText(u)));
    }
    auto report = audit::checkChain(*writer, { early, late });
    QVERIFY2(report, qPrintable(report.error()));
    QVERIFY(report->chain.ok);
    QCOMPARE(report->anchors[0].state, audit::AnchorResult::State::Unchanged);
    QCOMPARE(report->anchors[1].state, audit::AnchorResult::State::Changed);
    QVERIFY(report->anchors[1].problem.contains(QStringLiteral("rewritten and re-hashed")));
}

QTEST_GUILESS_MAIN(TstAuditChainCheck)
#include "tst_auditchaincheck.moc"
