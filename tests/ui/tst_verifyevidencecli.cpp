// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
// `redrive --verify-evidence FILE [--public-key FILE|HEX] [--key-id ID]`, the real binary: exit
// codes, the key it says it trusted, pinning, tampering and version 1 bundles.
#include "evidencesample.h"
#include "evidencetamper.h"

#include <QJsonDocument>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>

using namespace redrive;
using namespace redrive::test;

class TstVerifyEvidenceCli : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase();
    void verify_data();
    void verify();
    void pinOutsideVerificationIsRefused();
    void unknownStartPageIsRefused();

private:
    QString write(const QString &name, const QByteArray &contents);
    int run(const QStringList &args, QString *out, QString *err);

    QTemporaryDir m_dir;
    std::unique_ptr<audit::SigningKey> m_key;
    std::unique_ptr<audit::SigningKey> m_other;
    QString m_signed, m_unsigned, m_noteEdited, m_checkpointFile;
};

QString TstVerifyEvidenceCli::write(const QString &name, const QByteArray &contents)
{
    const QString path = m_dir.filePath(name);
    QFile f(path);
    if (!f.open(QIODevice::WriteOnly) || f.write(contents) != contents.size())
        return {};
    return path;
}

int TstVerifyEvidenceCli::run(const QStringList &args, QString *out, QString *err)
{
    QProcess p;
    p.start(qEnvironmentVariable("REDRIVE_BINARY_DIR") + QStringLiteral("/app/redrive/redrive"), args);
    if (!p.waitForFinished(60'000)) {
        p.kill();
        p.waitForFinished(5'000);
        return -1;
    }
    *out = QString::fromUtf8(p.readAllStandardOutput());
    *err = QString::fromUtf8(p.readAllStandardError());
    return p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1;
}

void TstVerifyEvidenceCli::initTestCase()
{
    QVERIFY(m_dir.isValid());
    QString error;
    auto keyMade = audit::SigningKey::generate();
    QVERIFY2(keyMade, qPrintable(keyMade.error()));
    m_key = std::move(*keyMade);
    auto otherMade = audit::SigningKey::generate();
    QVERIFY2(otherMade, qPrintable(otherMade.error()));
    m_other = std::move(*otherMade);
    const QJsonObject bundle = sampleSignedBundle(*m_key);
    QVERIFY(!bundle.isEmpty());
    m_signed = write(QStringLiteral("signed.json"), QJsonDocument(bundle).toJson());
    m_unsigned = write(QStringLiteral("unsigned.json"), QJsonDocument(asUnsignedVersion1(bundle)).toJson());
    m_noteEdited = write(QStringLiteral("note-edited.json"),
        QJsonDocument(rehashed(withArrayItem(bundle, QStringLiteral("notes"), 0, QStringLiteral("body"),
                          QStringLiteral("customer denied ORD-1001"))))
            .toJson());
    m_checkpointFile = write(QStringLiteral("receiver-key.json"),
        QJsonDocument(bundle.value(QLatin1String("checkpoint")).toObject()).toJson());
    QVERIFY(!m_signed.isEmpty() && !m_unsigned.isEmpty() && !m_noteEdited.isEmpty()
        && !m_checkpointFile.isEmpty());
}

void TstVerifyEvidenceCli::verify_data()
{
    QTest::addColumn<QString>("file");
    QTest::addColumn<QString>(
        "pin"); // "", "key-hex", "key-file", "id", "other-key", "other-id", "bad-key", "bad-id"
    QTest::addColumn<int>("exitCode");
    QTest::addColumn<QString>("stdoutHas");
    QTest::addColumn<QString>("stderrHas");
    QTest::newRow("signed, not pinned") << "signed"
                                        << "" << 0 << "(signed, key not pinned)"
                                        << "";
    QTest::newRow("signed, pinned by hex key") << "signed"
                                               << "key-hex" << 0 << "(signed by the pinned receiver key)"
                                               << "";
    QTest::newRow("signed, pinned by checkpoint file") << "signed"
                                                       << "key-file" << 0 << "the key you pinned"
                                                       << "";
    QTest::newRow("signed, pinned by key id") << "signed"
                                              << "id" << 0 << "the key you pinned"
                                              << "";
    QTest::newRow("signed, another key pinned") << "signed"
                                                << "other-key" << 1 << ""
                                                << "not by the pinned key";
    QTest::newRow("signed, another key id pinned") << "signed"
                                                   << "other-id" << 1 << ""
                                                   << "not by the pinned key";
    QTest::newRow("note edited, not pinned") << "note"
                                             << "" << 1 << ""
                                             << "the notes (\"notes\") changed";
    QTest::newRow("note edited, pinned") << "note"
                                         << "id" << 1 << ""
                                         << "the notes (\"notes\") changed";
    QTest::newRow("unsigned, not pinned")
        << "unsigned"
        << "" << 0 << "WARNING: not signed by a receiver: only the audit entries are protected"
        << "";
    QTest::newRow("unsigned, pinned") << "unsigned"
                                      << "id" << 1 << ""
                                      << "not signed by a receiver";
    QTest::newRow("bad --public-key") << "signed"
                                      << "bad-key" << 2 << ""
                                      << "--public-key:";
    QTest::newRow("bad --key-id") << "signed"
                                  << "bad-id" << 2 << ""
                                  << "--key-id:";
}

void TstVerifyEvidenceCli::verify()
{
    QFETCH(QString, file);
    QFETCH(QString, pin);
    QFETCH(int, exitCode);
    QFETCH(QString, stdoutHas);
    QFETCH(QString, stderrHas);
    const QString path = file == u"signed" ? m_signed : file == u"unsigned" ? m_unsigned : m_noteEdited;
    QStringList args { QStringLiteral("--verify-evidence"), path };
    if (pin == u"key-hex")
        args << QStringLiteral("--public-key") << QString::fromLatin1(m_key->publicKey().toHex());
    else if (pin == u"key-file")
        args << QStringLiteral("--public-key") << m_checkpointFile;
    else if (pin == u"id")
        args << QStringLiteral("--key-id") << m_key->keyId();
    else if (pin == u"other-key")
        args << QStringLiteral("--public-key") << QString::fromLatin1(m_other->publicKey().toBase64());
    else if (pin == u"other-id")
        args << QStringLiteral("--key-id") << m_other->keyId();
    else if (pin == u"bad-key")
        args << QStringLiteral("--public-key") << QStringLiteral("not-a-key");
    else if (pin == u"bad-id")
        args << QStringLiteral("--key-id") << QStringLiteral("xyz");
    QString out, err;
    QCOMPARE(run(args, &out, &err), exitCode);
    const QString all = out + err;
    if (!stdoutHas.isEmpty())
        QVERIFY2(out.contains(stdoutHas), qPrintable(all));
    if (!stderrHas.isEmpty())
        QVERIFY2(err.contains(stderrHas), qPrintable(all));
    if (exitCode == 0) {
        // It always says which key it trusted, or that nothing signed it.
        QVERIFY2(out.contains(m_key->keyId()) || out.contains(QStringLiteral("WARNING: not signed")),
            qPrintable(all));
        QVERIFY2(out.contains(QStringLiteral("evidence intact")), qPrintable(all));
    } else {
        QVERIFY2(!out.contains(QStringLiteral("evidence intact")), qPrintable(all));
    }
    if (pin.isEmpty() && file == u"signed")
        QVERIFY2(out.contains(QStringLiteral("trusted: signed by receiver key %1, which you did not pin")
                                  .arg(m_key->keyId())),
            qPrintable(all));
}

void TstVerifyEvidenceCli::pinOutsideVerificationIsRefused()
{
    QString out, err;
    QCOMPARE(run({ QStringLiteral("--key-id"), m_key->keyId() }, &out, &err), 2);
    QVERIFY2(err.contains(QStringLiteral("go with --verify-evidence")), qPrintable(err));
}

// `redrive --page NAME` opens a page once connected; a name it does not know is refused before
// any window opens, with the names it does know. --help lists them too.
void TstVerifyEvidenceCli::unknownStartPageIsRefused()
{
    QString out, err;
    QCOMPARE(run({ QStringLiteral("--page"), QStringLiteral("approval") }, &out, &err), 2);
    QVERIFY2(err.contains(QStringLiteral("--page must be one of: overview, events, dead-letters, rejections, "
                                         "replays, approvals, audit, destinations")),
        qPrintable(err));
    QCOMPARE(run({ QStringLiteral("--help") }, &out, &err), 0);
    QVERIFY2(out.contains(QStringLiteral("--page <PAGE>")), qPrintable(out));
}

QTEST_GUILESS_MAIN(TstVerifyEvidenceCli)
#include "tst_verifyevidencecli.moc"
