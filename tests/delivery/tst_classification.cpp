// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#include "deliveryrules/classification.h"

#include <QTest>

using namespace redrive;
using namespace redrive::delivery;
using Transport = AttemptOutcome::Transport;

Q_DECLARE_METATYPE(AttemptOutcome::Transport)

class TstClassification final : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void status_data()
    {
        QTest::addColumn<int>("code");
        QTest::addColumn<QString>("category");
        QTest::addColumn<bool>("success");
        QTest::addColumn<bool>("retryable");
        QTest::addColumn<QString>("rule");
        QTest::newRow("200") << 200 << "success" << true << false << "2xx is success";
        QTest::newRow("204") << 204 << "success" << true << false << "2xx is success";
        for (int code : { 408, 429, 500, 502, 503, 504 })
            QTest::addRow("%d", code)
                << code << "http_retryable" << false << true << "408/429/500/502/503/504 are retried";
        QTest::newRow("301") << 301 << "redirect" << false << false << "never followed";
        QTest::newRow("307") << 307 << "redirect" << false << false << "never followed";
        QTest::newRow("410") << 410 << "http_permanent" << false << false << "410 means the endpoint is gone";
        QTest::newRow("400") << 400 << "http_permanent" << false << false
                             << "4xx other than 408/429 is permanent";
        QTest::newRow("422") << 422 << "http_permanent" << false << false
                             << "4xx other than 408/429 is permanent";
        QTest::newRow("501") << 501 << "http_permanent" << false << false << "5xx other than";
        QTest::newRow("101") << 101 << "http_permanent" << false << false << "outside 2xx-5xx";
    }
    void status()
    {
        QFETCH(int, code);
        QFETCH(QString, category);
        QFETCH(bool, success);
        QFETCH(bool, retryable);
        QFETCH(QString, rule);
        AttemptOutcome o;
        o.transport = Transport::Completed;
        o.requestWritten = true;
        o.responseComplete = true;
        o.statusCode = code;
        const Classification c = classify(o);
        QCOMPARE(toString(c.category), category);
        QCOMPARE(c.success, success);
        QCOMPARE(c.retryable, retryable);
        QVERIFY(!c.outcomeUnknown);
        QVERIFY2(c.explanation.startsWith(QStringLiteral("HTTP %1").arg(code)), qPrintable(c.explanation));
        QVERIFY2(c.explanation.contains(QStringLiteral("(rule: ")), qPrintable(c.explanation));
        QVERIFY2(c.explanation.contains(rule), qPrintable(c.explanation));
    }

    void exactExplanation()
    {
        AttemptOutcome o;
        o.transport = Transport::Completed;
        o.statusCode = 503;
        o.responseComplete = true;
        QCOMPARE(classify(o).explanation,
            QStringLiteral("HTTP 503 \u2192 retryable (rule: 408/429/500/502/503/504 are retried)"));
        o.statusCode = 301;
        o.responseHeaders.add("Location", "http://127.0.0.1:1/elsewhere");
        QCOMPARE(classify(o).explanation,
            QStringLiteral("HTTP 301 redirect to http://127.0.0.1:1/elsewhere not followed \u2192 permanent "
                           "(rule: 3xx is a failure and redirects are never followed)"));
    }

    void transport_data()
    {
        QTest::addColumn<Transport>("transport");
        QTest::addColumn<bool>("written");
        QTest::addColumn<QString>("category");
        QTest::addColumn<bool>("retryable");
        QTest::addColumn<bool>("unknown");
        QTest::addColumn<QString>("fragment");
        QTest::newRow("dns") << Transport::Dns << false << "dns" << true << false
                             << "DNS failures are retried";
        QTest::newRow("refused") << Transport::Refused << false << "connection_refused" << true << false
                                 << "refused";
        QTest::newRow("reset before send") << Transport::Reset << false << "connection_reset" << true << false
                                           << "before the request was sent";
        QTest::newRow("reset after send")
            << Transport::Reset << true << "connection_reset" << true << true << "may have acted";
        QTest::newRow("connect timeout")
            << Transport::ConnectTimeout << false << "timeout" << true << false << "no connection within";
        QTest::newRow("timeout before full write")
            << Transport::Timeout << false << "timeout" << true << false << "could not be sent";
        QTest::newRow("timeout after full write")
            << Transport::Timeout << true << "timeout" << true << true << "outcome unknown";
        QTest::newRow("tls") << Transport::Tls << false << "tls" << false << false
                             << "permanent configuration error";
        QTest::newRow("blocked") << Transport::Blocked << false << "blocked_address" << false << false
                                 << "allow_private";
        QTest::newRow("invalid url") << Transport::InvalidUrl << false << "invalid_url" << false << false
                                     << "permanent configuration error";
        QTest::newRow("network") << Transport::Network << false << "network" << true << false << "retried";
        QTest::newRow("cancelled after send")
            << Transport::Cancelled << true << "network" << true << true << "interrupted";
    }
    void transport()
    {
        QFETCH(Transport, transport);
        QFETCH(bool, written);
        QFETCH(QString, category);
        QFETCH(bool, retryable);
        QFETCH(bool, unknown);
        QFETCH(QString, fragment);
        AttemptOutcome o;
        o.transport = transport;
        o.requestWritten = written;
        o.timeoutMs = 1500;
        o.detail = QStringLiteral("detail text");
        const Classification c = classify(o);
        QCOMPARE(toString(c.category), category);
        QVERIFY(!c.success);
        QCOMPARE(c.retryable, retryable);
        QCOMPARE(c.outcomeUnknown, unknown);
        QVERIFY2(c.explanation.contains(fragment), qPrintable(c.explanation));
        QVERIFY2(c.explanation.contains(QStringLiteral("(rule: ")), qPrintable(c.explanation));
    }

    void truncatedSuccessIsStillSuccess()
    {
        AttemptOutcome o;
        o.transport = Transport::Completed;
        o.statusCode = 200;
        o.responseComplete = false;
        const Classification c = classify(o);
        QVERIFY(c.success);
        QVERIFY(c.explanation.contains(QStringLiteral("cut short")));
    }

    void integrityAndLease()
    {
        const Classification i
            = integrityFailure(QStringLiteral("aaaaaaaaaaaaaaaa"), QStringLiteral("bbbbbbbbbbbbbbbb"));
        QVERIFY(i.category == FailureCategory::Integrity);
        QVERIFY(!i.retryable);
        QVERIFY(i.explanation.contains(QStringLiteral("never sent")));
        const Classification l = leaseExpired(QStringLiteral("host:1:0"));
        QVERIFY(l.category == FailureCategory::LeaseExpired);
        QVERIFY(l.retryable);
        QVERIFY(l.outcomeUnknown);
        QVERIFY(l.explanation.contains(QStringLiteral("host:1:0")));
    }
};

QTEST_GUILESS_MAIN(TstClassification)
#include "tst_classification.moc"
