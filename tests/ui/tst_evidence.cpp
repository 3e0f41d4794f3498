// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#include "audit/auditlog.h"
#include "audit/evidence.h"
#include "audit/evidencereader.h"
#include "audit/evidenceverifier.h"
#include "audit/signingkey.h"
#include "consolefixture.h"
#include "crypto/crypto.h"
#include "testdb.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTest>

using namespace redrive;
using namespace redrive::audit;
using namespace redrive::test;

namespace {
constexpr qint64 kBase = 1'750'000'000'000;
constexpr qint64 kReplay = 41;
} // namespace

// Evidence bundles on both engines: what is read for an event (its replays, the audit entries
// about it and the chain segment to the signed head), the bundle built from it, and the
// verifier catching each kind of change made to the file afterwards.
class TstEvidence : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase();
    void readsTheEventItsReplaysAndTheChainSegment();
    void longSegmentsKeepOnlyTheEntriesAboutTheEvent();
    void intactBundleVerifies_data();
    void intactBundleVerifies();
    void canonicalBytesSurviveARoundTrip();
    void tamperingIsNamed_data();
    void tamperingIsNamed();
    void forgedStoredEntryIsCaught();
    void replicaBehindTheCheckpointIsRefused();
    void missingEventIsAbsentNotBroken();

private:
    // The receiver reads inside its export transaction; a read-only snapshot does the same here.
    std::optional<EvidenceData> read(qint64 eventId, const EvidenceReadOptions &options, QString *error);
    bool append(const QString &action, const QString &target, const QString &reason, qint64 at);
    QJsonObject bundleFor(qint64 eventId, int maxLinked = 10'000);

    std::unique_ptr<TestDatabase> m_t;
    std::unique_ptr<Db> m_db;
    ConsoleFixture::Scenario m_s;
    std::unique_ptr<SigningKey> m_key;
    std::optional<Checkpoint> m_checkpoint;
};

bool TstEvidence::append(const QString &action, const QString &target, const QString &reason, qint64 at)
{
    const auto appended = withTransaction(*m_db, [&] {
        return appendAuditEntry(*m_db,
            AuditRecord { QStringLiteral("olga"), QStringLiteral("operator"), action, target, reason,
                QJsonObject { { QStringLiteral("note"), QStringLiteral("ünïcode \"quoted\"") } } },
            at);
    });
    if (!appended) {
        qWarning("append: %s", qPrintable(appended.error()));
        return false;
    }
    return true;
}

void TstEvidence::initTestCase()
{
    QString error;
    m_t = TestDatabase::create(&error);
    QVERIFY2(m_t, qPrintable(error));
    m_db = m_t->open();
    QVERIFY(m_db);
    ConsoleFixture fx(*m_db);
    m_s = fx.addScenario(kBase); // its audit entry 1 carries a made-up hash
    fx.addNote(
        m_s.succeeded, QStringLiteral("bob"), QStringLiteral("customer confirmed ORD-1001"), kBase + 7'000);
    QVERIFY2(fx.lastError().isEmpty(), qPrintable(fx.lastError()));
    QVERIFY2(
        succeeded(
            m_db->exec(QStringLiteral(
                "INSERT INTO replays (id, status, selection_hash, requested_by, requester_role, reason, "
                "item_count, requires_approval, summary, approved_by, created_at, updated_at, decided_at) "
                "VALUES (%1, 'completed', 'h', 'alice', 'support', 'customer asked', 1, 1, '{}', 'olga', "
                "%2, %2, %3)")
                           .arg(kReplay)
                           .arg(kBase + 8'000)
                           .arg(kBase + 9'000)),
            &error),
        qPrintable(error));
    QVERIFY2(succeeded(m_db->exec(QStringLiteral(
                           "INSERT INTO replay_items (replay_id, delivery_id, frozen_status) SELECT %1, id, "
                           "'succeeded' FROM deliveries WHERE event_id = %2")
                                      .arg(kReplay)
                                      .arg(m_s.succeeded)),
                 &error),
        qPrintable(error));
    // 2 and 3 and 6 are about the succeeded event (directly or through its replay); 4 and 5 are not.
    QVERIFY(append(QStringLiteral("note_added"), QStringLiteral("event:%1").arg(m_s.succeeded), QString(),
        kBase + 7'000));
    QVERIFY(append(QStringLiteral("replay_requested"), QStringLiteral("replay:%1").arg(kReplay),
        QStringLiteral("customer asked"), kBase + 8'000));
    QVERIFY(append(QStringLiteral("destination_paused"), QStringLiteral("destination:crm"),
        QStringLiteral("maintenance"), kBase + 8'500));
    QVERIFY(append(
        QStringLiteral("note_added"), QStringLiteral("event:%1").arg(m_s.pending), QString(), kBase + 8'700));
    QVERIFY(append(QStringLiteral("replay_approved"), QStringLiteral("replay:%1").arg(kReplay),
        QStringLiteral("looks right"), kBase + 9'000));
    auto keyMade = SigningKey::generate();
    QVERIFY2(keyMade, qPrintable(keyMade.error()));
    m_key = std::move(*keyMade);
    auto checkpoint = makeCheckpoint(*m_db, *m_key, kBase + 10'000);
    QVERIFY2(checkpoint, qPrintable(checkpoint.error()));
    m_checkpoint = std::move(*checkpoint);
    QCOMPARE(m_checkpoint->seq, qint64(6));
    // After the checkpoint: not covered by it, so left out of bundles anchored to it.
    QVERIFY(append(QStringLiteral("note_added"), QStringLiteral("event:%1").arg(m_s.succeeded), QString(),
        kBase + 11'000));
}

std::optional<EvidenceData> TstEvidence::read(
    qint64 eventId, const EvidenceReadOptions &options, QString *error)
{
    Transaction snapshot(*m_db, Transaction::Kind::Read);
    if (!succeeded(snapshot.begin(), error))
        return std::nullopt;
    if (!m_db->isSqlite()
        && !succeeded(m_db->exec(QStringLiteral("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ")), error))
        return std::nullopt;
    auto data = readEvidenceData(*m_db, eventId, options);
    if (!data) {
        *error = data.error();
        return std::nullopt;
    }
    error->clear();
    return std::move(*data);
}

QJsonObject TstEvidence::bundleFor(qint64 eventId, int maxLinked)
{
    QString error;
    EvidenceReadOptions options;
    options.checkpointSeq = m_checkpoint->seq;
    options.maxLinkedEntries = maxLinked;
    const auto data = read(eventId, options, &error);
    if (!data) {
        qWarning("readEvidenceData: %s", qPrintable(error));
        return {};
    }
    EvidenceMeta meta;
    meta.exportedAtMs = kBase + 12'000;
    meta.exportedBy = QStringLiteral("audrey");
    meta.role = QStringLiteral("auditor");
    meta.generator = QStringLiteral("tst_evidence");
    const auto bundle = buildSignedEvidenceBundle(*data, *m_checkpoint, meta, *m_key);
    if (!bundle)
        qWarning("buildSignedEvidenceBundle: %s", qPrintable(bundle.error()));
    return bundle.value_or(QJsonObject());
}

void TstEvidence::readsTheEventItsReplaysAndTheChainSegment()
{
    QString error;
    EvidenceReadOptions options;
    options.checkpointSeq = m_checkpoint->seq;
    const auto data = read(m_s.succeeded, options, &error);
    QVERIFY2(data, qPrintable(error));
    QCOMPARE(data->detail.row.id, m_s.succeeded);
    QCOMPARE(data->detail.deliveries.size(), 1);
    QCOMPARE(data->detail.deliveries.first().attempts.size(), 2);
    QCOMPARE(data->detail.notes.size(), 1);
    QCOMPARE(data->replays.size(), 1);
    QCOMPARE(data->replays.first().id, kReplay);
    QCOMPARE(data->replays.first().approvedBy, QStringLiteral("olga"));
    QVERIFY(data->linkedToCheckpoint);
    QList<qint64> seqs;
    for (const AuditEntry &e : data->audit)
        seqs.append(e.seq);
    // From the first entry about the event to the checkpoint, the unrelated ones included (they
    // carry the links); entry 7 came after the checkpoint.
    QCOMPARE(seqs, (QList<qint64> { 2, 3, 4, 5, 6 }));
    QCOMPARE(data->aboutEvent, (QSet<qint64> { 2, 3, 6 }));
    QCOMPARE(data->audit.last().hash, m_checkpoint->hash);
}

void TstEvidence::longSegmentsKeepOnlyTheEntriesAboutTheEvent()
{
    QString error;
    EvidenceReadOptions options;
    options.checkpointSeq = m_checkpoint->seq;
    options.maxLinkedEntries = 3;
    const auto data = read(m_s.succeeded, options, &error);
    QVERIFY2(data, qPrintable(error));
    QVERIFY(!data->linkedToCheckpoint);
    QList<qint64> seqs;
    for (const AuditEntry &e : data->audit)
        seqs.append(e.seq);
    QCOMPARE(seqs, (QList<qint64> { 2, 3, 6 }));
}

void TstEvidence::intactBundleVerifies_data()
{
    QTest::addColumn<int>("maxLinked");
    QTest::addColumn<bool>("linked");
    QTest::newRow("linked to the checkpoint") << 10'000 << true;
    QTest::newRow("entries about the event only") << 3 << false;
}

void TstEvidence::intactBundleVerifies()
{
    QFETCH(int, maxLinked);
    QFETCH(bool, linked);
    const QJsonObject bundle = bundleFor(m_s.succeeded, maxLinked);
    QVERIFY(!bundle.isEmpty());
    QCOMPARE(bundle.value(QLatin1String("format")).toString(), QStringLiteral("redrive-evidence-v2"));
    QCOMPARE(
        bundle.value(QLatin1String("audit")).toObject().value(QLatin1String("linked_to_checkpoint")).toBool(),
        linked);
    const QJsonObject event = bundle.value(QLatin1String("event")).toObject();
    QCOMPARE(event.value(QLatin1String("provider_event_id")).toString(), QStringLiteral("gh-delivery-1"));
    QCOMPARE(
        event.value(QLatin1String("verified_by")).toString(), QStringLiteral("env:GITHUB_WEBHOOK_SECRET"));
    QCOMPARE(event.value(QLatin1String("clock_skew_ms")).toInteger(), qint64(120));
    // Headers as the receiver stored them, redacted.
    QVERIFY(QJsonDocument(event.value(QLatin1String("headers")).toArray()).toJson().contains("[redacted]"));
    const QJsonObject delivery = bundle.value(QLatin1String("deliveries")).toArray().first().toObject();
    QCOMPARE(delivery.value(QLatin1String("downstream_ref")).toString(), QStringLiteral("ORD-1001"));
    QCOMPARE(delivery.value(QLatin1String("attempts")).toArray().size(), 2);
    QCOMPARE(delivery.value(QLatin1String("attempts"))
                 .toArray()
                 .first()
                 .toObject()
                 .value(QLatin1String("category"))
                 .toString(),
        QStringLiteral("http_retryable"));
    QCOMPARE(bundle.value(QLatin1String("replays")).toArray().size(), 1);
    QCOMPARE(bundle.value(QLatin1String("checkpoint")).toObject().value(QLatin1String("seq")).toInteger(),
        qint64(6));

    const EvidenceVerdict v = verifyEvidence(QJsonDocument(bundle).toJson(QJsonDocument::Indented));
    QVERIFY2(v.ok, qPrintable(v.problem));
    QCOMPARE(v.checked.size(), 5); // body, audit, checkpoint, receiver signature, bundle
    QVERIFY(v.checked.at(1).contains(linked ? QStringLiteral("followed to the checkpoint's entry 6")
                                            : QStringLiteral("3 entries about this event")));
    QVERIFY(v.signedByReceiver);
    QCOMPARE(v.keyId, m_key->keyId());
    QCOMPARE(v.notes.size(), linked ? 0 : 1); // (unlinked) what the file cannot show
}

void TstEvidence::canonicalBytesSurviveARoundTrip()
{
    const QJsonObject bundle = bundleFor(m_s.succeeded);
    QVERIFY(!bundle.isEmpty());
    const QByteArray canonical = canonicalBundleBytes(bundle);
    // Integers stay integers (no exponent), non-ASCII stays UTF-8, no whitespace.
    QVERIFY(canonical.contains("\"at_ms\":1750000007000"));
    QVERIFY(canonical.contains("ünïcode"));
    QVERIFY(!canonical.contains("\n"));
    QVERIFY(!canonical.contains("bundle_sha256"));
    const QJsonObject reparsed
        = QJsonDocument::fromJson(QJsonDocument(bundle).toJson(QJsonDocument::Indented)).object();
    QCOMPARE(canonicalBundleBytes(reparsed), canonical);
    QCOMPARE(computeBundleSha256(reparsed), bundle.value(QLatin1String("bundle_sha256")).toString());
}

void TstEvidence::tamperingIsNamed_data()
{
    QTest::addColumn<QString>("change");
    QTest::addColumn<QString>("problem");
    QTest::newRow("a body byte flipped") << "body"
                                         << "the body's SHA-256 is";
    QTest::newRow("a body byte flipped, bundle hash redone") << "body+rehash"
                                                             << "the body's SHA-256 is";
    QTest::newRow("body size changed") << "size"
                                       << "bytes, but the event records";
    QTest::newRow("an audit reason edited") << "reason"
                                            << "audit entry 3's hash does not match its contents";
    QTest::newRow("an audit entry removed") << "drop"
                                            << "audit entry 4 is missing";
    QTest::newRow("a link rewritten with its hash") << "relink"
                                                    << "audit entry 5's prev_hash is not the hash of entry 4";
    QTest::newRow("last entry rewritten with its hash") << "rewrite-last"
                                                        << "do not lead to the signed head";
    QTest::newRow("checkpoint signature changed") << "signature"
                                                  << "the checkpoint's signature is invalid";
    QTest::newRow("a note edited") << "note"
                                   << "the notes (\"notes\") changed after the receiver signed";
    QTest::newRow("an attempt's outcome edited")
        << "attempt"
        << "the deliveries or their attempts (\"deliveries\") changed";
    QTest::newRow("bundle hash edited") << "hash"
                                        << "bundle_sha256 does not match";
    QTest::newRow("not JSON") << "garbage"
                              << "not a JSON object";
    QTest::newRow("another format") << "format"
                                    << "not a Redrive evidence bundle";
}

void TstEvidence::tamperingIsNamed()
{
    QFETCH(QString, change);
    QFETCH(QString, problem);
    QJsonObject b = bundleFor(m_s.succeeded);
    QVERIFY(!b.isEmpty());
    QJsonObject audit = b.value(QLatin1String("audit")).toObject();
    QJsonArray entries = audit.value(QLatin1String("entries")).toArray();
    auto rehash = [](QJsonObject e) {
        AuditEntry a;
        a.seq = e.value(QLatin1String("seq")).toInteger();
        a.atMs = e.value(QLatin1String("at_ms")).toInteger();
        for (auto [key, field] : { std::pair { "actor", &a.actor }, std::pair { "role", &a.role },
                 std::pair { "action", &a.action }, std::pair { "target", &a.target },
                 std::pair { "reason", &a.reason }, std::pair { "details", &a.details },
                 std::pair { "prev_hash", &a.prevHash } })
            *field = e.value(QLatin1String(key)).toString();
        e.insert(QStringLiteral("hash"), computeEntryHash(a));
        return e;
    };
    QByteArray file;
    if (change.startsWith(u"body")) {
        QByteArray body = QByteArray::fromBase64(b.value(QLatin1String("body_base64")).toString().toLatin1());
        body[3] = char(body[3] ^ 0x01);
        b.insert(QStringLiteral("body_base64"), QString::fromLatin1(body.toBase64()));
        if (change.endsWith(u"rehash"))
            b.insert(QStringLiteral("bundle_sha256"), computeBundleSha256(b));
    } else if (change == u"size") {
        QJsonObject event = b.value(QLatin1String("event")).toObject();
        event.insert(QStringLiteral("body_size"), event.value(QLatin1String("body_size")).toInteger() + 1);
        b.insert(QStringLiteral("event"), event);
    } else if (change == u"reason") {
        QJsonObject e = entries.at(1).toObject(); // seq 3
        e.insert(QStringLiteral("reason"), QStringLiteral("customer asked twice"));
        entries.replace(1, e);
    } else if (change == u"drop") {
        entries.removeAt(2); // seq 4, an entry about something else that carries a link
    } else if (change == u"relink") {
        QJsonObject e = entries.at(3).toObject(); // seq 5
        e.insert(QStringLiteral("prev_hash"), QString(64, u'0'));
        entries.replace(3, rehash(e));
    } else if (change == u"rewrite-last") {
        QJsonObject e = entries.last().toObject(); // seq 6, the checkpoint's entry
        e.insert(QStringLiteral("reason"), QStringLiteral("approved without looking"));
        entries.replace(entries.size() - 1, rehash(e));
    } else if (change == u"signature") {
        QJsonObject cp = b.value(QLatin1String("checkpoint")).toObject();
        QByteArray sig = QByteArray::fromBase64(cp.value(QLatin1String("signature")).toString().toLatin1());
        sig[10] = char(sig[10] ^ 0x40);
        cp.insert(QStringLiteral("signature"), QString::fromLatin1(sig.toBase64()));
        b.insert(QStringLiteral("checkpoint"), cp);
    } else if (change == u"note") {
        QJsonArray notes = b.value(QLatin1String("notes")).toArray();
        QJsonObject n = notes.first().toObject();
        n.insert(QStringLiteral("body"), QStringLiteral("customer denied ORD-1001"));
        notes.replace(0, n);
        b.insert(QStringLiteral("notes"), notes);
    } else if (change == u"attempt") {
        QJsonArray deliveries = b.value(QLatin1String("deliveries")).toArray();
        QJsonObject d = deliveries.first().toObject();
        QJsonArray attempts = d.value(QLatin1String("attempts")).toArray();
        QJsonObject a = attempts.first().toObject();
        a.insert(QStringLiteral("outcome_unknown"), true);
        attempts.replace(0, a);
        d.insert(QStringLiteral("attempts"), attempts);
        deliveries.replace(0, d);
        b.insert(QStringLiteral("deliveries"), deliveries);
    } else if (change == u"hash") {
        b.insert(QStringLiteral("bundle_sha256"), QString(64, u'f'));
    } else if (change == u"garbage") {
        file = "{\"format\": \"redrive-evidence-v1\", ";
    } else if (change == u"format") {
        b.insert(QStringLiteral("format"), QStringLiteral("something-else"));
    } else {
        QFAIL("unknown change");
    }
    audit.insert(QStringLiteral("entries"), entries);
    b.insert(QStringLiteral("audit"), audit);
    if (file.isEmpty())
        file = QJsonDocument(b).toJson();
    const EvidenceVerdict v = verifyEvidence(file);
    QVERIFY(!v.ok);
    QVERIFY2(v.problem.contains(problem), qPrintable(v.problem));
}

void TstEvidence::forgedStoredEntryIsCaught()
{
    // The scenario's entry 1 (about the failed event) was written with a made-up hash: a bundle
    // exported from such a database does not verify, and says which entry is wrong.
    const QJsonObject bundle = bundleFor(m_s.failed);
    QVERIFY(!bundle.isEmpty());
    const EvidenceVerdict v = verifyEvidence(QJsonDocument(bundle).toJson());
    QVERIFY(!v.ok);
    QVERIFY2(
        v.problem.contains(QStringLiteral("audit entry 1's hash does not match")), qPrintable(v.problem));
}

void TstEvidence::replicaBehindTheCheckpointIsRefused()
{
    QString error;
    EvidenceReadOptions options;
    options.checkpointSeq = 99;
    QVERIFY(!read(m_s.succeeded, options, &error));
    QVERIFY2(error.contains(QStringLiteral("up to the checkpoint's entry 99")), qPrintable(error));
}

void TstEvidence::missingEventIsAbsentNotBroken()
{
    QString error;
    EvidenceReadOptions options;
    options.checkpointSeq = m_checkpoint->seq;
    QVERIFY(!read(987654321, options, &error));
    QVERIFY(error.isEmpty());
    // An event nothing was audited about: no entries, nothing to link, and still verifiable.
    const QJsonObject bundle = bundleFor(m_s.noRoute);
    QVERIFY(!bundle.isEmpty());
    QVERIFY(
        bundle.value(QLatin1String("audit")).toObject().value(QLatin1String("entries")).toArray().isEmpty());
    const EvidenceVerdict v = verifyEvidence(QJsonDocument(bundle).toJson());
    QVERIFY2(v.ok, qPrintable(v.problem));
}

QTEST_GUILESS_MAIN(TstEvidence)
#include "tst_evidence.moc"
