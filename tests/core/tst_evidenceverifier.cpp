// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
// The evidence verifier on bundles made in memory: the receiver's signature and what it names
// when something changed, key pinning (and the arguments that give the pin), and version 1
// bundles that carry no signature.
#include "audit/evidenceverifier.h"
#include "audit/keypin.h"
#include "evidencesample.h"
#include "evidencetamper.h"

#include <QJsonDocument>
#include <QTemporaryDir>
#include <QTest>

using namespace redrive;
using namespace redrive::audit;
using namespace redrive::test;

namespace {
QByteArray fileOf(const QJsonObject &bundle)
{
    return QJsonDocument(bundle).toJson(QJsonDocument::Indented);
}

// SubjectPublicKeyInfo for Ed25519 is a fixed 12-byte prefix and the raw key.
QByteArray publicKeyPem(const QByteArray &raw)
{
    const QByteArray der = QByteArray::fromHex("302a300506032b6570032100") + raw;
    return "-----BEGIN PUBLIC KEY-----\n" + der.toBase64() + "\n-----END PUBLIC KEY-----\n";
}
} // namespace

class TstEvidenceVerifier : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase();
    void signedBundleVerifies();
    void pinnedKeyVerifies_data();
    void pinnedKeyVerifies();
    void wrongPinFails_data();
    void wrongPinFails();
    void tamperingIsNamed_data();
    void tamperingIsNamed();
    void resignedByAnotherKey();
    void unsignedVersion1StillVerifies();
    void publicKeyArguments_data();
    void publicKeyArguments();
    void keyIdArguments_data();
    void keyIdArguments();

private:
    std::unique_ptr<SigningKey> m_key;
    std::unique_ptr<SigningKey> m_other;
    QJsonObject m_bundle;
    QTemporaryDir m_dir;
};

void TstEvidenceVerifier::initTestCase()
{
    QString error;
    auto keyMade = SigningKey::generate();
    QVERIFY2(keyMade, qPrintable(keyMade.error()));
    m_key = std::move(*keyMade);
    auto otherMade = SigningKey::generate();
    QVERIFY2(otherMade, qPrintable(otherMade.error()));
    m_other = std::move(*otherMade);
    m_bundle = sampleSignedBundle(*m_key);
    QVERIFY(!m_bundle.isEmpty());
    QVERIFY(m_dir.isValid());
}

void TstEvidenceVerifier::signedBundleVerifies()
{
    QCOMPARE(m_bundle.value(QLatin1String("format")).toString(), QStringLiteral("redrive-evidence-v2"));
    const QJsonObject signature = m_bundle.value(QLatin1String("signature")).toObject();
    QCOMPARE(signature.value(QLatin1String("key_id")).toString(), m_key->keyId());
    QCOMPARE(QByteArray::fromBase64(signature.value(QLatin1String("public_key")).toString().toLatin1()),
        m_key->publicKey());
    // The signature covers exactly the bytes bundle_sha256 covers.
    const QByteArray canonical = canonicalBundleBytes(m_bundle);
    QVERIFY(!canonical.contains("\"signature\":{"));
    QVERIFY(canonical.contains("\"sections\":{"));
    QVERIFY(SigningKey::verify(m_key->publicKey(), canonical,
        QByteArray::fromBase64(signature.value(QLatin1String("signature")).toString().toLatin1())));
    QCOMPARE(m_bundle.value(QLatin1String("bundle_sha256")).toString(),
        QString::fromLatin1(crypto::sha256Hex(canonical)));

    const EvidenceVerdict v = verifyEvidence(fileOf(m_bundle));
    QVERIFY2(v.ok, qPrintable(v.problem));
    QVERIFY(v.signedByReceiver);
    QVERIFY(!v.keyPinned);
    QCOMPARE(v.keyId, m_key->keyId());
    QCOMPARE(v.checked.size(), 5); // body, audit, checkpoint, signature, bundle
    QVERIFY(
        v.checked.at(3).startsWith(QStringLiteral("signature: Ed25519 by receiver key ") + m_key->keyId()));
    QVERIFY(v.trustSummary().contains(QStringLiteral("which you did not pin")));
    // Compact, as the admin API sends it, verifies the same.
    QVERIFY(verifyEvidence(QJsonDocument(m_bundle).toJson(QJsonDocument::Compact)).ok);
}

void TstEvidenceVerifier::pinnedKeyVerifies_data()
{
    QTest::addColumn<bool>("byKey");
    QTest::addColumn<bool>("byId");
    QTest::newRow("public key") << true << false;
    QTest::newRow("key id") << false << true;
    QTest::newRow("both") << true << true;
}

void TstEvidenceVerifier::pinnedKeyVerifies()
{
    QFETCH(bool, byKey);
    QFETCH(bool, byId);
    KeyPin pin;
    if (byKey)
        pin.publicKey = m_key->publicKey();
    if (byId)
        pin.keyId = m_key->keyId();
    const EvidenceVerdict v = verifyEvidence(fileOf(m_bundle), pin);
    QVERIFY2(v.ok, qPrintable(v.problem));
    QVERIFY(v.keyPinned);
    QCOMPARE(v.trustSummary(),
        QStringLiteral("signed by receiver key %1, the key you pinned").arg(m_key->keyId()));
}

void TstEvidenceVerifier::wrongPinFails_data()
{
    QTest::addColumn<bool>("byKey");
    QTest::newRow("another public key") << true;
    QTest::newRow("another key id") << false;
}

void TstEvidenceVerifier::wrongPinFails()
{
    QFETCH(bool, byKey);
    KeyPin pin;
    if (byKey)
        pin.publicKey = m_other->publicKey();
    else
        pin.keyId = m_other->keyId();
    const EvidenceVerdict v = verifyEvidence(fileOf(m_bundle), pin);
    QVERIFY(!v.ok);
    QCOMPARE(v.problem,
        QStringLiteral("the bundle is signed by key %1, not by the pinned key %2 (pinned with %3)")
            .arg(m_key->keyId(), m_other->keyId(),
                byKey ? QStringLiteral("--public-key") : QStringLiteral("--key-id")));
}

void TstEvidenceVerifier::tamperingIsNamed_data()
{
    QTest::addColumn<QString>("change");
    QTest::addColumn<QString>("problem");
    QTest::newRow("a body byte flipped") << "body"
                                         << "the body's SHA-256 is";
    QTest::newRow("body and its recorded hash replaced")
        << "body+hash"
        << "the event envelope (\"event\") and the body (\"body_base64\") changed";
    QTest::newRow("an attempt's status code") << "attempt"
                                              << "the deliveries or their attempts (\"deliveries\") changed";
    QTest::newRow("a delivery's reference") << "delivery"
                                            << "the deliveries or their attempts (\"deliveries\") changed";
    QTest::newRow("a note edited") << "note"
                                   << "the notes (\"notes\") changed";
    QTest::newRow("a replay's approver") << "replay"
                                         << "the replays (\"replays\") changed";
    QTest::newRow("the event type") << "event"
                                    << "the event envelope (\"event\") changed";
    QTest::newRow("who exported it") << "exported"
                                     << "the export record (\"exported\") changed";
    QTest::newRow("an audit reason edited") << "audit-reason"
                                            << "audit entry 3's hash does not match its contents";
    QTest::newRow("an audit entry rewritten, its hash redone")
        << "audit-rehash"
        << "audit entry 2's prev_hash is not the hash of entry 1";
    QTest::newRow("an entry marked as not about the event") << "audit-about"
                                                            << "the audit entries (\"audit\") changed";
    QTest::newRow("a member added") << "added"
                                    << "\"comment\" (added) changed";
    QTest::newRow("a note and its signed digest") << "note+digest"
                                                  << "the file or its signature was changed";
    QTest::newRow("signature bytes flipped") << "signature"
                                             << "the file or its signature was changed";
    QTest::newRow("key id does not match the key")
        << "key-id"
        << "the signature's \"key_id\" is not the id of its public key";
    QTest::newRow("signature removed") << "strip"
                                       << "the signature was removed";
    QTest::newRow("only bundle_sha256 edited") << "bundle-hash"
                                               << "bundle_sha256 does not match";
    QTest::newRow("a note edited, bundle_sha256 redone") << "note+rehash"
                                                         << "the notes (\"notes\") changed";
    QTest::newRow("checkpoint signature flipped") << "checkpoint"
                                                  << "the checkpoint's signature is invalid";
}

void TstEvidenceVerifier::tamperingIsNamed()
{
    QFETCH(QString, change);
    QFETCH(QString, problem);
    QJsonObject b = m_bundle;
    const QString note = QStringLiteral("customer denied ORD-1001");
    if (change == u"body") {
        b = withBodyByteFlipped(b, 3);
    } else if (change == u"body+hash") {
        b = withBodyByteFlipped(b, 3);
        QJsonObject event = b.value(QLatin1String("event")).toObject();
        event.insert(QStringLiteral("body_sha256"),
            QString::fromLatin1(crypto::sha256Hex(
                QByteArray::fromBase64(b.value(QLatin1String("body_base64")).toString().toLatin1()))));
        b.insert(QStringLiteral("event"), event);
    } else if (change == u"attempt") {
        b = withAttemptValue(b, QStringLiteral("status_code"), 200);
    } else if (change == u"delivery") {
        b = withArrayItem(
            b, QStringLiteral("deliveries"), 0, QStringLiteral("downstream_ref"), QStringLiteral("ORD-9999"));
    } else if (change == u"note" || change == u"note+rehash") {
        b = withArrayItem(b, QStringLiteral("notes"), 0, QStringLiteral("body"), note);
        if (change == u"note+rehash")
            b = rehashed(b);
    } else if (change == u"replay") {
        b = withArrayItem(
            b, QStringLiteral("replays"), 0, QStringLiteral("approved_by"), QStringLiteral("mallory"));
    } else if (change == u"event") {
        QJsonObject event = b.value(QLatin1String("event")).toObject();
        event.insert(QStringLiteral("type"), QStringLiteral("refund"));
        b.insert(QStringLiteral("event"), event);
    } else if (change == u"exported") {
        QJsonObject exported = b.value(QLatin1String("exported")).toObject();
        exported.insert(QStringLiteral("by"), QStringLiteral("mallory"));
        b.insert(QStringLiteral("exported"), exported);
    } else if (change == u"audit-reason") {
        b = withAuditEntry(b, 2, [](QJsonObject e) {
            e.insert(QStringLiteral("reason"), QStringLiteral("customer asked twice"));
            return e;
        });
    } else if (change == u"audit-rehash") {
        b = withAuditEntry(b, 0, [](QJsonObject e) {
            e.insert(QStringLiteral("actor"), QStringLiteral("mallory"));
            return rehashedAuditEntry(e);
        });
    } else if (change == u"audit-about") {
        b = withAuditEntry(b, 0, [](QJsonObject e) {
            e.insert(QStringLiteral("about_event"), false);
            return e;
        });
    } else if (change == u"added") {
        b.insert(QStringLiteral("comment"), QStringLiteral("approved by legal"));
    } else if (change == u"note+digest") {
        b = withArrayItem(b, QStringLiteral("notes"), 0, QStringLiteral("body"), note);
        QJsonObject sections = b.value(QLatin1String("sections")).toObject();
        sections.insert(QStringLiteral("notes"), computeEvidenceSections(b).value(QLatin1String("notes")));
        b.insert(QStringLiteral("sections"), sections);
        b = rehashed(b);
    } else if (change == u"signature" || change == u"key-id") {
        QJsonObject sig = b.value(QLatin1String("signature")).toObject();
        if (change == u"signature") {
            QByteArray raw
                = QByteArray::fromBase64(sig.value(QLatin1String("signature")).toString().toLatin1());
            raw[10] = char(raw[10] ^ 0x40);
            sig.insert(QStringLiteral("signature"), QString::fromLatin1(raw.toBase64()));
        } else {
            sig.insert(QStringLiteral("key_id"), m_other->keyId());
        }
        b.insert(QStringLiteral("signature"), sig);
    } else if (change == u"strip") {
        b.remove(QStringLiteral("signature"));
    } else if (change == u"bundle-hash") {
        b.insert(QStringLiteral("bundle_sha256"), QString(64, u'f'));
    } else if (change == u"checkpoint") {
        QJsonObject cp = b.value(QLatin1String("checkpoint")).toObject();
        QByteArray raw = QByteArray::fromBase64(cp.value(QLatin1String("signature")).toString().toLatin1());
        raw[5] = char(raw[5] ^ 0x01);
        cp.insert(QStringLiteral("signature"), QString::fromLatin1(raw.toBase64()));
        b.insert(QStringLiteral("checkpoint"), cp);
    } else {
        QFAIL("unknown change");
    }
    QVERIFY(b != m_bundle);
    const EvidenceVerdict v = verifyEvidence(fileOf(b));
    QVERIFY(!v.ok);
    QVERIFY2(v.problem.contains(problem), qPrintable(v.problem));
    // Pinning the right key changes nothing: the content is still wrong.
    KeyPin pin;
    pin.publicKey = m_key->publicKey();
    QVERIFY(!verifyEvidence(fileOf(b), pin).ok);
}

void TstEvidenceVerifier::resignedByAnotherKey()
{
    // A forger edits a note and signs the result with a key of their own, keeping the receiver's
    // checkpoint: the two keys differ.
    const QJsonObject edited = withArrayItem(m_bundle, QStringLiteral("notes"), 0, QStringLiteral("body"),
        QStringLiteral("customer denied ORD-1001"));
    QJsonObject forged = edited;
    forged.insert(QStringLiteral("sections"), computeEvidenceSections(forged));
    const QByteArray canonical = canonicalBundleBytes(forged);
    forged.insert(QStringLiteral("signature"),
        QJsonObject { { QStringLiteral("algorithm"), QStringLiteral("Ed25519") },
            { QStringLiteral("public_key"), QString::fromLatin1(m_other->publicKey().toBase64()) },
            { QStringLiteral("key_id"), m_other->keyId() },
            { QStringLiteral("signature"), QString::fromLatin1(m_other->sign(canonical).toBase64()) } });
    forged = rehashed(forged);
    EvidenceVerdict v = verifyEvidence(fileOf(forged));
    QVERIFY(!v.ok);
    QVERIFY2(v.problem.contains(QStringLiteral("do not come from one receiver")), qPrintable(v.problem));

    // The whole bundle rebuilt by the forger, checkpoint included: only a pinned key exposes it.
    const QJsonObject rebuilt = sampleSignedBundle(*m_other, QStringLiteral("mallory"));
    v = verifyEvidence(fileOf(rebuilt));
    QVERIFY2(v.ok, qPrintable(v.problem));
    QVERIFY(!v.keyPinned);
    QVERIFY(v.trustSummary().contains(m_other->keyId() + QStringLiteral(", which you did not pin")));
    KeyPin pin;
    pin.keyId = m_key->keyId();
    v = verifyEvidence(fileOf(rebuilt), pin);
    QVERIFY(!v.ok);
    QVERIFY2(
        v.problem.contains(QStringLiteral("not by the pinned key ") + m_key->keyId()), qPrintable(v.problem));
}

void TstEvidenceVerifier::unsignedVersion1StillVerifies()
{
    const QJsonObject v1 = asUnsignedVersion1(m_bundle);
    EvidenceVerdict v = verifyEvidence(fileOf(v1));
    QVERIFY2(v.ok, qPrintable(v.problem));
    QVERIFY(!v.signedByReceiver);
    QCOMPARE(v.checked.size(), 4); // body, audit, checkpoint, bundle
    QCOMPARE(
        v.trustSummary(), QStringLiteral("not signed by a receiver: only the audit entries are protected"));
    QVERIFY(v.notes.join(u'\n').contains(
        QStringLiteral("not signed by a receiver: only the audit entries are protected")));

    // Which is why a note can be changed in one without a trace...
    const QJsonObject edited = rehashed(
        withArrayItem(v1, QStringLiteral("notes"), 0, QStringLiteral("body"), QStringLiteral("x")));
    QVERIFY(verifyEvidence(fileOf(edited)).ok);
    // ...but its audit entries are still checked...
    const QJsonObject entryEdited = rehashed(withAuditEntry(v1, 2, [](QJsonObject e) {
        e.insert(QStringLiteral("reason"), QStringLiteral("other"));
        return e;
    }));
    v = verifyEvidence(fileOf(entryEdited));
    QVERIFY(!v.ok);
    QVERIFY2(
        v.problem.contains(QStringLiteral("audit entry 3's hash does not match")), qPrintable(v.problem));
    // ...and a pinned key refuses it outright.
    KeyPin pin;
    pin.keyId = m_key->keyId();
    v = verifyEvidence(fileOf(v1), pin);
    QVERIFY(!v.ok);
    QVERIFY2(v.problem.contains(
                 QStringLiteral("not signed by a receiver, so it cannot be checked against the pinned key")),
        qPrintable(v.problem));
}

void TstEvidenceVerifier::publicKeyArguments_data()
{
    QTest::addColumn<QString>("kind");
    QTest::addColumn<bool>("ok");
    QTest::addColumn<QString>("problem");
    QTest::newRow("hex inline") << "hex" << true << "";
    QTest::newRow("base64 inline") << "base64" << true << "";
    QTest::newRow("file with hex") << "hex-file" << true << "";
    QTest::newRow("PEM public key") << "pem" << true << "";
    QTest::newRow("checkpoint file") << "checkpoint" << true << "";
    QTest::newRow("private key file") << "private" << false << "a private key is not accepted";
    QTest::newRow("JSON without a key") << "json" << false << "JSON without a base64 Ed25519 \"public_key\"";
    QTest::newRow("short hex inline") << "short" << false << "is neither a file nor an Ed25519 public key";
    QTest::newRow("file with garbage") << "garbage" << false << "holds no Ed25519 public key";
}

void TstEvidenceVerifier::publicKeyArguments()
{
    QFETCH(QString, kind);
    QFETCH(bool, ok);
    QFETCH(QString, problem);
    const QByteArray raw = m_key->publicKey();
    auto write = [this, &kind](const QByteArray &contents) {
        const QString path = m_dir.filePath(kind + QStringLiteral(".key"));
        QFile f(path);
        if (!f.open(QIODevice::WriteOnly) || f.write(contents) != contents.size())
            return QString();
        return path;
    };
    QString argument;
    if (kind == u"hex") {
        argument = QString::fromLatin1(raw.toHex());
    } else if (kind == u"base64") {
        argument = QString::fromLatin1(raw.toBase64());
    } else if (kind == u"hex-file") {
        argument = write(raw.toHex() + '\n');
    } else if (kind == u"pem") {
        argument = write(publicKeyPem(raw));
    } else if (kind == u"checkpoint") {
        argument = write(QJsonDocument(m_bundle.value(QLatin1String("checkpoint")).toObject()).toJson());
    } else if (kind == u"private") {
        const QString path = m_dir.filePath(QStringLiteral("audit-key.pem"));
        const auto created = SigningKey::loadOrCreate(path);
        QVERIFY2(created, qPrintable(created.error()));
        argument = path;
    } else if (kind == u"json") {
        argument = write("{\"key_id\": \"0123456789abcdef\"}");
    } else if (kind == u"short") {
        argument = QStringLiteral("abcdef");
    } else if (kind == u"garbage") {
        argument = write("not a key at all");
    }
    QVERIFY(!argument.isEmpty());
    const auto key = parsePublicKeyArgument(argument);
    QCOMPARE(key.has_value(), ok);
    if (ok)
        QCOMPARE(*key, raw);
    else
        QVERIFY2(key.error().startsWith(QStringLiteral("--public-key: ")) && key.error().contains(problem),
            qPrintable(key.error()));
}

void TstEvidenceVerifier::keyIdArguments_data()
{
    QTest::addColumn<QString>("argument");
    QTest::addColumn<QString>("expected");
    QTest::newRow("lowercase") << "0123456789abcdef"
                               << "0123456789abcdef";
    QTest::newRow("uppercase, spaces") << " 0123456789ABCDEF "
                                       << "0123456789abcdef";
    QTest::newRow("too short") << "0123456789abcde"
                               << "";
    QTest::newRow("not hex") << "0123456789abcdeg"
                             << "";
}

void TstEvidenceVerifier::keyIdArguments()
{
    QFETCH(QString, argument);
    QFETCH(QString, expected);
    const auto id = parseKeyIdArgument(argument);
    QCOMPARE(id.value_or(QString()), expected);
    QCOMPARE(id.error().isEmpty(), !expected.isEmpty());
}

QTEST_GUILESS_MAIN(TstEvidenceVerifier)
#include "tst_evidenceverifier.moc"
