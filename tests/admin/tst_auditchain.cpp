// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
// The tamper-evident audit chain (core/audit): encoding, append inside a transaction, streaming
// verification naming the first bad entry, Ed25519 checkpoints. Runs on SQLite and PostgreSQL.
#include "audit/auditentry.h"
#include "audit/auditlog.h"
#include "audit/auditverifier.h"
#include "audit/checkpoint.h"
#include "audit/signingkey.h"
#include "auditseed.h"
#include "testdb.h"

#include <QFile>
#include <QJsonObject>
#include <QSqlQuery>
#include <QTest>

#include <sys/stat.h>
#include <thread>

using namespace redrive;
using namespace redrive::audit;
using namespace redrive::test;

namespace {
AuditEntry sampleEntry()
{
    AuditEntry e;
    e.seq = 7;
    e.atMs = 1'700'000'000'123;
    e.actor = QStringLiteral("alice");
    e.role = QStringLiteral("operator");
    e.action = QStringLiteral("replay_approved");
    e.target = QStringLiteral("replay:3");
    e.reason = QStringLiteral("customer asked");
    e.details = QStringLiteral("{\"count\":2}");
    e.prevHash = QLatin1String(kGenesisHash);
    return e;
}

std::optional<VerifyResult> verify(Db &db, const VerifyOptions &options = {})
{
    auto r = verifyAuditChain(db, options);
    if (!r)
        qWarning("verify failed: %s", qPrintable(r.error()));
    return std::move(r).toOptional();
}

constexpr int kTamperEntries = 10'000;
} // namespace

class TstAuditChain : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void everyFieldIsCovered_data();
    void everyFieldIsCovered();
    void encodingIsUnambiguous();
    void canonicalJsonIsStable();
    void appendChainsEntries();
    void appendRollsBackWithItsTransaction();
    void concurrentAppendersNeverFork();
    void emptyLogVerifies();
    void tamperIsDetected_data();
    void tamperIsDetected();
    void pagingBoundariesAreSeamless();
    void checkpointSignatureBindsEveryField();
    void checkpointRoundTripsThroughAFile();
    void checkpointFromAnotherKeyIsRefused();
    void keyFileIsPrivateAndReused();
    void keyFileReadableByOthersIsRefused();
};

void TstAuditChain::everyFieldIsCovered_data()
{
    QTest::addColumn<int>("field");
    for (int i = 0; i < 9; ++i)
        QTest::addRow("field %d", i) << i;
}

void TstAuditChain::everyFieldIsCovered()
{
    QFETCH(int, field);
    const AuditEntry original = sampleEntry();
    AuditEntry changed = original;
    switch (field) {
    case 0:
        changed.seq += 1;
        break;
    case 1:
        changed.atMs += 1;
        break;
    case 2:
        changed.actor += u'x';
        break;
    case 3:
        changed.role = QStringLiteral("admin");
        break;
    case 4:
        changed.action = QStringLiteral("replay_rejected");
        break;
    case 5:
        changed.target = QStringLiteral("replay:4");
        break;
    case 6:
        changed.reason += u'.';
        break;
    case 7:
        changed.details = QStringLiteral("{\"count\":3}");
        break;
    case 8:
        changed.prevHash[0] = u'1';
        break;
    }
    QVERIFY(computeEntryHash(original) != computeEntryHash(changed));
    QCOMPARE(computeEntryHash(original).size(), 64);
}

void TstAuditChain::encodingIsUnambiguous()
{
    // Moving characters across a field boundary must change the hash (length prefixes).
    AuditEntry a = sampleEntry();
    AuditEntry b = a;
    a.actor = QStringLiteral("ab");
    a.role = QStringLiteral("c");
    b.actor = QStringLiteral("a");
    b.role = QStringLiteral("bc");
    QVERIFY(canonicalEncoding(a) != canonicalEncoding(b));
    QVERIFY(computeEntryHash(a) != computeEntryHash(b));
    AuditEntry c = sampleEntry();
    AuditEntry d = c;
    c.reason = QString();
    c.details = QStringLiteral("x");
    d.reason = QStringLiteral("x");
    d.details = QString();
    QVERIFY(computeEntryHash(c) != computeEntryHash(d));
}

void TstAuditChain::canonicalJsonIsStable()
{
    QJsonObject one;
    one.insert(QStringLiteral("zeta"), 1);
    one.insert(QStringLiteral("alpha"), QStringLiteral("ä"));
    QJsonObject two;
    two.insert(QStringLiteral("alpha"), QStringLiteral("ä"));
    two.insert(QStringLiteral("zeta"), 1);
    QCOMPARE(canonicalJson(one), canonicalJson(two));
    QCOMPARE(canonicalJson(one), QStringLiteral("{\"alpha\":\"ä\",\"zeta\":1}"));
}

void TstAuditChain::appendChainsEntries()
{
    QString error;
    auto t = TestDatabase::create(&error);
    QVERIFY2(t, qPrintable(error));
    auto db = t->open();
    QList<AuditEntry> appended;
    for (int i = 0; i < 3; ++i) {
        Transaction tx(*db);
        QVERIFY(succeeded(tx.begin(), &error));
        auto e = appendAuditEntry(*db,
            AuditRecord { QStringLiteral("bob"), QStringLiteral("support"), QStringLiteral("note_added"),
                QStringLiteral("event:%1").arg(i), QString(), { { QStringLiteral("i"), i } } },
            1000 + i);
        QVERIFY2(e, qPrintable(e.error()));
        QVERIFY(succeeded(tx.commit(), &error));
        appended.append(*e);
    }
    QCOMPARE(appended[0].seq, 1);
    QCOMPARE(appended[0].prevHash, QLatin1String(kGenesisHash));
    QCOMPARE(appended[1].prevHash, appended[0].hash);
    QCOMPARE(appended[2].prevHash, appended[1].hash);
    QCOMPARE(appended[2].details, QStringLiteral("{\"i\":2}"));
    const auto r = verify(*db);
    QVERIFY(r);
    QVERIFY2(r->ok, qPrintable(r->problem));
    QCOMPARE(r->count, 3);
    QCOMPARE(r->head.seq, 3);
    QCOMPARE(r->head.hash, appended[2].hash);
    // Stored rows read back identically.
    const auto entries = readAuditEntries(*db, AuditQuery {});
    QVERIFY(entries);
    const QList<AuditEntry> &read = *entries;
    QCOMPARE(read.size(), 3);
    QCOMPARE(read[1].hash, appended[1].hash);
    QCOMPARE(computeEntryHash(read[1]), read[1].hash);
}

void TstAuditChain::appendRollsBackWithItsTransaction()
{
    QString error;
    auto t = TestDatabase::create(&error);
    QVERIFY2(t, qPrintable(error));
    auto db = t->open();
    {
        Transaction tx(*db);
        QVERIFY(succeeded(tx.begin(), &error));
        QVERIFY(appendAuditEntry(*db,
            AuditRecord { QStringLiteral("a"), QStringLiteral("admin"), QStringLiteral("x"), {}, {}, {} },
            1));
        // No commit: the destructor rolls back.
    }
    QSqlQuery q(db->handle());
    QVERIFY(q.exec(QStringLiteral("SELECT COUNT(*) FROM audit_log")) && q.next());
    QCOMPARE(q.value(0).toInt(), 0);
}

void TstAuditChain::concurrentAppendersNeverFork()
{
    QString error;
    auto t = TestDatabase::create(&error);
    QVERIFY2(t, qPrintable(error));
    constexpr int kThreads = 6;
    constexpr int kEach = 40;
    std::atomic<int> failures { 0 };
    std::vector<std::thread> threads;
    for (int i = 0; i < kThreads; ++i) {
        threads.emplace_back([&, i] {
            auto db = t->open(QStringLiteral("appender-%1").arg(i));
            if (!db) {
                ++failures;
                return;
            }
            for (int n = 0; n < kEach; ++n) {
                const auto appended = withTransaction(*db, [&] {
                    return appendAuditEntry(*db,
                        AuditRecord { QStringLiteral("w%1").arg(i), QStringLiteral("system"),
                            QStringLiteral("tick"), {}, {}, { { QStringLiteral("n"), n } } },
                        n);
                });
                if (!appended) {
                    qWarning("append failed: %s", qPrintable(appended.error()));
                    ++failures;
                }
            }
        });
    }
    for (auto &th : threads)
        th.join();
    QCOMPARE(failures.load(), 0);
    auto db = t->open();
    const auto r = verify(*db);
    QVERIFY(r);
    QVERIFY2(r->ok, qPrintable(r->problem));
    QCOMPARE(r->count, kThreads * kEach);
}

void TstAuditChain::emptyLogVerifies()
{
    QString error;
    auto t = TestDatabase::create(&error);
    QVERIFY2(t, qPrintable(error));
    auto db = t->open();
    const auto r = verify(*db);
    QVERIFY(r && r->ok);
    QCOMPARE(r->count, 0);
    QCOMPARE(r->head.hash, QLatin1String(kGenesisHash));
    auto key = SigningKey::generate().toOptional().value_or(nullptr);
    QVERIFY(key);
    const auto cp = makeCheckpoint(*db, *key, 5);
    QVERIFY(cp);
    QCOMPARE(cp->seq, 0);
    VerifyOptions options;
    options.checkpoint = *cp;
    const auto withCp = verify(*db, options);
    QVERIFY(withCp && withCp->ok);
}

void TstAuditChain::tamperIsDetected_data()
{
    QTest::addColumn<QString>("tamper");
    QTest::addColumn<bool>("useCheckpoint");
    QTest::addColumn<bool>("detectedWithoutCheckpoint");
    QTest::addColumn<qint64>("firstBad");
    QTest::addColumn<QString>("problemWord");
    QTest::newRow("edit a field") << "edit" << false << true << qint64(4242) << "edited";
    QTest::newRow("edit a field and fix its hash")
        << "edit-rehash" << false << true << qint64(4243) << "prev_hash";
    QTest::newRow("delete a row") << "delete" << false << true << qint64(5000) << "missing";
    QTest::newRow("delete the first row") << "delete-first" << false << true << qint64(1) << "missing";
    QTest::newRow("swap two rows") << "swap" << false << true << qint64(3000) << "prev_hash";
    QTest::newRow("truncate the tail") << "truncate" << true << false << qint64(9001) << "truncated";
    QTest::newRow("rewrite history after a checkpoint")
        << "rewrite" << true << false << qint64(10000) << "checkpoint";
}

void TstAuditChain::tamperIsDetected()
{
    QFETCH(QString, tamper);
    QFETCH(bool, useCheckpoint);
    QFETCH(bool, detectedWithoutCheckpoint);
    QFETCH(qint64, firstBad);
    QFETCH(QString, problemWord);

    QString error;
    auto t = TestDatabase::create(&error);
    QVERIFY2(t, qPrintable(error));
    auto db = t->open();
    QVERIFY2(seedAuditChain(*db, kTamperEntries, &error), qPrintable(error));
    const auto intact = verify(*db);
    QVERIFY(intact && intact->ok);
    QCOMPARE(intact->count, kTamperEntries);

    auto key = SigningKey::generate().toOptional().value_or(nullptr);
    QVERIFY(key);
    const auto cp = makeCheckpoint(*db, *key, 1);
    QVERIFY2(cp, qPrintable(cp.error()));
    QCOMPARE(cp->seq, kTamperEntries);

    QVERIFY2(dropAuditTriggers(*db, &error), qPrintable(error));
    if (tamper == u"edit") {
        QVERIFY(succeeded(
            db->exec(QStringLiteral("UPDATE audit_log SET actor = 'mallory' WHERE seq = 4242")), &error));
    } else if (tamper == u"edit-rehash") {
        QVERIFY(succeeded(
            db->exec(QStringLiteral("UPDATE audit_log SET reason = 'nothing to see' WHERE seq = 4242")),
            &error));
        QVERIFY2(rehashAuditEntry(*db, 4242, &error), qPrintable(error));
    } else if (tamper == u"delete") {
        QVERIFY(succeeded(db->exec(QStringLiteral("DELETE FROM audit_log WHERE seq = 5000")), &error));
    } else if (tamper == u"delete-first") {
        QVERIFY(succeeded(db->exec(QStringLiteral("DELETE FROM audit_log WHERE seq = 1")), &error));
    } else if (tamper == u"swap") {
        // Exchange the contents of entries 3000 and 7000, keeping their positions.
        QVERIFY(
            succeeded(db->exec(QStringLiteral("UPDATE audit_log SET seq = -1 WHERE seq = 3000")), &error));
        QVERIFY(
            succeeded(db->exec(QStringLiteral("UPDATE audit_log SET seq = 3000 WHERE seq = 7000")), &error));
        QVERIFY(
            succeeded(db->exec(QStringLiteral("UPDATE audit_log SET seq = 7000 WHERE seq = -1")), &error));
    } else if (tamper == u"truncate") {
        QVERIFY(succeeded(db->exec(QStringLiteral("DELETE FROM audit_log WHERE seq > 9000")), &error));
    } else if (tamper == u"rewrite") {
        // An attacker rewrites the tail consistently: every later hash recomputed.
        QVERIFY(succeeded(
            db->exec(QStringLiteral("UPDATE audit_log SET actor = 'mallory' WHERE seq = 9990")), &error));
        QVERIFY(succeeded(db->exec(QStringLiteral("DELETE FROM audit_log WHERE seq > 9990")), &error));
        QVERIFY2(rehashAuditEntry(*db, 9990, &error), qPrintable(error));
        QVERIFY2(seedAuditChain(*db, 10, &error, 1'800'000'000'000), qPrintable(error));
    }

    const auto plain = verify(*db);
    QVERIFY(plain);
    QCOMPARE(!plain->ok, detectedWithoutCheckpoint);
    if (detectedWithoutCheckpoint) {
        QVERIFY(plain->firstBadSeq);
        QCOMPARE(*plain->firstBadSeq, firstBad);
        QVERIFY2(plain->problem.contains(problemWord), qPrintable(plain->problem));
        QVERIFY2(plain->problem.contains(QString::number(firstBad)), qPrintable(plain->problem));
        QCOMPARE(plain->count, firstBad - 1);
    }
    if (useCheckpoint) {
        VerifyOptions options;
        options.checkpoint = *cp;
        options.trustedPublicKey = key->publicKey();
        const auto checked = verify(*db, options);
        QVERIFY(checked);
        QVERIFY(!checked->ok);
        QVERIFY(checked->firstBadSeq);
        QCOMPARE(*checked->firstBadSeq, firstBad);
        QVERIFY2(checked->problem.contains(problemWord), qPrintable(checked->problem));
    }
}

void TstAuditChain::pagingBoundariesAreSeamless()
{
    QString error;
    auto t = TestDatabase::create(&error);
    QVERIFY2(t, qPrintable(error));
    auto db = t->open();
    QVERIFY(seedAuditChain(*db, 50, &error));
    for (int page : { 1, 7, 49, 50, 51 }) {
        VerifyOptions options;
        options.pageSize = page;
        const auto r = verify(*db, options);
        QVERIFY(r && r->ok);
        QCOMPARE(r->count, 50);
    }
    QVERIFY(dropAuditTriggers(*db, &error));
    QVERIFY(succeeded(db->exec(QStringLiteral("DELETE FROM audit_log WHERE seq = 8")), &error));
    VerifyOptions options;
    options.pageSize = 7; // the gap sits exactly after a page boundary
    const auto r = verify(*db, options);
    QVERIFY(r && !r->ok);
    QCOMPARE(*r->firstBadSeq, 8);
}

void TstAuditChain::checkpointSignatureBindsEveryField()
{
    QString error;
    auto key = SigningKey::generate().toOptional().value_or(nullptr);
    QVERIFY(key);
    Checkpoint cp;
    cp.seq = 42;
    cp.hash = QString(64, u'a');
    cp.atMs = 123;
    cp.publicKey = key->publicKey();
    cp.signature = key->sign(cp.signedPayload());
    QCOMPARE(cp.publicKey.size(), 32);
    QCOMPARE(cp.signature.size(), 64);
    QVERIFY(cp.signatureValid());
    Checkpoint seq = cp;
    seq.seq = 41;
    QVERIFY(!seq.signatureValid());
    Checkpoint hash = cp;
    hash.hash[5] = u'b';
    QVERIFY(!hash.signatureValid());
    Checkpoint at = cp;
    at.atMs = 124;
    QVERIFY(!at.signatureValid());
    Checkpoint sig = cp;
    sig.signature[0] = static_cast<char>(sig.signature[0] ^ 1);
    QVERIFY(!sig.signatureValid());
}

void TstAuditChain::checkpointRoundTripsThroughAFile()
{
    QString error;
    auto t = TestDatabase::create(&error);
    QVERIFY2(t, qPrintable(error));
    auto db = t->open();
    QVERIFY(seedAuditChain(*db, 20, &error));
    auto key = SigningKey::generate().toOptional().value_or(nullptr);
    const auto cp = makeCheckpoint(*db, *key, 99);
    QVERIFY(cp);
    const QString path = t->scratchDir() + QStringLiteral("/cp.json");
    const auto written = cp->writeFile(path);
    QVERIFY2(written, qPrintable(written.error()));
    const auto read = Checkpoint::readFile(path);
    QVERIFY2(read, qPrintable(read.error()));
    QCOMPARE(read->seq, cp->seq);
    QCOMPARE(read->hash, cp->hash);
    QCOMPARE(read->atMs, cp->atMs);
    QCOMPARE(read->publicKey, key->publicKey());
    QVERIFY(read->signatureValid());
    const QJsonObject json = cp->toJson();
    QCOMPARE(json.value(QLatin1String("algorithm")).toString(), QStringLiteral("Ed25519"));
    QCOMPARE(json.value(QLatin1String("key_id")).toString(), key->keyId());

    QFile bad(path);
    QVERIFY(bad.open(QIODevice::WriteOnly));
    bad.write("{\"seq\": \"x\"}");
    bad.close();
    const auto refused = Checkpoint::readFile(path);
    QVERIFY(!refused);
    QVERIFY2(refused.error().contains(QLatin1String("seq")), qPrintable(refused.error()));
}

void TstAuditChain::checkpointFromAnotherKeyIsRefused()
{
    QString error;
    auto t = TestDatabase::create(&error);
    QVERIFY2(t, qPrintable(error));
    auto db = t->open();
    QVERIFY(seedAuditChain(*db, 5, &error));
    auto ours = SigningKey::generate().toOptional().value_or(nullptr);
    auto theirs = SigningKey::generate().toOptional().value_or(nullptr);
    VerifyOptions options;
    options.checkpoint = makeCheckpoint(*db, *theirs, 1).toOptional();
    options.trustedPublicKey = ours->publicKey();
    const auto r = verify(*db, options);
    QVERIFY(r && !r->ok);
    QVERIFY(!r->firstBadSeq);
    QVERIFY2(r->problem.contains(QLatin1String("key")), qPrintable(r->problem));
    // A forged signature is refused before the walk.
    options.trustedPublicKey.clear();
    options.checkpoint->signature[3] = static_cast<char>(options.checkpoint->signature[3] ^ 0x40);
    const auto forged = verify(*db, options);
    QVERIFY(forged && !forged->ok);
    QVERIFY2(forged->problem.contains(QLatin1String("signature")), qPrintable(forged->problem));
}

void TstAuditChain::keyFileIsPrivateAndReused()
{
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("audit.pem"));
    QString error;
    bool created = false;
    auto firstMade = SigningKey::loadOrCreate(path, &created);
    QVERIFY2(firstMade, qPrintable(firstMade.error()));
    auto first = std::move(*firstMade);
    QVERIFY(created);
    struct stat st { };
    QCOMPARE(::stat(QFile::encodeName(path).constData(), &st), 0);
    QCOMPARE(st.st_mode & 0777, 0600u);
    auto secondMade = SigningKey::loadOrCreate(path, &created);
    QVERIFY2(secondMade, qPrintable(secondMade.error()));
    auto second = std::move(*secondMade);
    QVERIFY(!created);
    QCOMPARE(second->publicKey(), first->publicKey());
    const QByteArray msg("hello");
    QVERIFY(SigningKey::verify(first->publicKey(), msg, second->sign(msg)));
    QVERIFY(!SigningKey::verify(first->publicKey(), "hellO", second->sign(msg)));
    // No temporary files are left beside the key.
    QCOMPARE(QDir(dir.path()).entryList(QDir::Files).size(), 1);
}

void TstAuditChain::keyFileReadableByOthersIsRefused()
{
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("audit.pem"));
    QString error;
    QVERIFY(SigningKey::loadOrCreate(path));
    QVERIFY(QFile::setPermissions(
        path, QFile::ReadOwner | QFile::WriteOwner | QFile::ReadGroup | QFile::ReadOther));
    const auto exposed = SigningKey::load(path);
    QVERIFY(!exposed);
    QVERIFY2(exposed.error().contains(QLatin1String("chmod 600")), qPrintable(exposed.error()));
    const QString junk = dir.filePath(QStringLiteral("junk.pem"));
    QFile f(junk);
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write("not a key");
    f.close();
    QVERIFY(QFile::setPermissions(junk, QFile::ReadOwner | QFile::WriteOwner));
    const auto notPem = SigningKey::load(junk);
    QVERIFY(!notPem);
    QVERIFY2(notPem.error().contains(QLatin1String("PEM")), qPrintable(notPem.error()));
}

QTEST_GUILESS_MAIN(TstAuditChain)
#include "tst_auditchain.moc"
