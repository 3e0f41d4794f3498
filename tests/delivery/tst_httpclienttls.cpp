// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#include "delivery/httpclient.h"
#include "scriptabledestination.h"

#include <QProcess>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

#include <future>

using namespace redrive;
using namespace redrive::delivery;
using namespace redrive::test;
using Transport = AttemptOutcome::Transport;

namespace {

// A self-signed certificate made by the openssl command line for this test only.
bool makeCertificate(const QString &dir, const QString &name, const QString &subjectAltName, QString *error)
{
    QProcess p;
    p.start(QStringLiteral("openssl"),
        { QStringLiteral("req"), QStringLiteral("-x509"), QStringLiteral("-newkey"), QStringLiteral("ec"),
            QStringLiteral("-pkeyopt"), QStringLiteral("ec_paramgen_curve:P-256"), QStringLiteral("-nodes"),
            QStringLiteral("-days"), QStringLiteral("2"), QStringLiteral("-subj"),
            QStringLiteral("/CN=redrive-test"), QStringLiteral("-addext"),
            QStringLiteral("subjectAltName=") + subjectAltName, QStringLiteral("-keyout"),
            dir + u'/' + name + QStringLiteral(".key"), QStringLiteral("-out"),
            dir + u'/' + name + QStringLiteral(".pem") });
    if (!p.waitForFinished(30'000) || p.exitCode() != 0) {
        *error = QString::fromUtf8(p.readAllStandardError());
        return false;
    }
    return true;
}

AttemptOutcome send(HttpClient &client, const QString &url, const QString &caFile)
{
    HttpRequest r;
    r.url = QUrl(url);
    r.body = "{\"tls\":true}";
    r.timeoutMs = 5'000;
    r.allowPrivate = true; // loopback
    r.caFile = caFile;
    auto promise = std::make_shared<std::promise<AttemptOutcome>>();
    auto future = promise->get_future();
    client.send(r, [promise](AttemptOutcome o) { promise->set_value(std::move(o)); });
    if (future.wait_for(std::chrono::seconds(15)) != std::future_status::ready)
        return {};
    return future.get();
}

} // namespace

class TstHttpClientTls final : public QObject {
    Q_OBJECT

private:
    QTemporaryDir m_dir;
    QString m_good; // SAN localhost + 127.0.0.1
    QString m_other; // SAN other.example only

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY(m_dir.isValid());
        QString error;
        if (QStandardPaths::findExecutable(QStringLiteral("openssl")).isEmpty())
            QFAIL("the openssl command is not installed (scripts/install-deps.sh installs it)");
        QVERIFY2(makeCertificate(m_dir.path(), QStringLiteral("good"),
                     QStringLiteral("DNS:localhost,IP:127.0.0.1"), &error),
            qPrintable(error));
        QVERIFY2(makeCertificate(
                     m_dir.path(), QStringLiteral("other"), QStringLiteral("DNS:other.example"), &error),
            qPrintable(error));
        m_good = m_dir.filePath(QStringLiteral("good"));
        m_other = m_dir.filePath(QStringLiteral("other"));
    }

    void verifiedPeerWithCaFile_data()
    {
        QTest::addColumn<QString>("host");
        QTest::newRow("ip SAN") << "127.0.0.1";
        QTest::newRow("name SAN over SNI") << "localhost";
    }
    void verifiedPeerWithCaFile()
    {
        QFETCH(QString, host);
        ScriptableDestination destination;
        QString error;
        QVERIFY2(
            destination.startTls(m_good + QStringLiteral(".pem"), m_good + QStringLiteral(".key"), &error),
            qPrintable(error));
        HttpClient client;
        const AttemptOutcome o
            = send(client, QStringLiteral("https://%1:%2/hook").arg(host).arg(destination.port()),
                m_good + QStringLiteral(".pem"));
        QVERIFY2(o.transport == Transport::Completed, qPrintable(o.detail));
        QCOMPARE(o.statusCode, 200);
        QCOMPARE(destination.requestCount(), 1);
        QCOMPARE(destination.requests().first().body, QByteArray("{\"tls\":true}"));
    }

    void untrustedCertificateIsRefused()
    {
        ScriptableDestination destination;
        QString error;
        QVERIFY2(
            destination.startTls(m_good + QStringLiteral(".pem"), m_good + QStringLiteral(".key"), &error),
            qPrintable(error));
        HttpClient client;
        const AttemptOutcome o = send(client, destination.url().toString(), QString()); // system roots only
        QVERIFY2(o.transport == Transport::Tls, qPrintable(o.detail));
        QVERIFY2(o.detail.contains(QStringLiteral("certificate")), qPrintable(o.detail));
        QVERIFY(!o.requestWritten);
        QCOMPARE(destination.requestCount(), 0);
    }

    void wrongHostNameIsRefused()
    {
        ScriptableDestination destination;
        QString error;
        QVERIFY2(
            destination.startTls(m_other + QStringLiteral(".pem"), m_other + QStringLiteral(".key"), &error),
            qPrintable(error));
        HttpClient client;
        // Trusted chain, but issued for other.example, not 127.0.0.1.
        const AttemptOutcome o = send(client, destination.url().toString(), m_other + QStringLiteral(".pem"));
        QVERIFY2(o.transport == Transport::Tls, qPrintable(o.detail));
        QCOMPARE(destination.requestCount(), 0);
    }
};

QTEST_GUILESS_MAIN(TstHttpClientTls)
#include "tst_httpclienttls.moc"
