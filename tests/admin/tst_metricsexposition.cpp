// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#include "realreceiver.h"
#include "scriptabledestination.h"
#include "util/metrics.h"

#include <QFile>
#include <QHash>
#include <QNetworkAccessManager>
#include <QNetworkReply>
#include <QProcess>
#include <QRegularExpression>
#include <QSet>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTest>

#include <cmath>
#include <stdexcept>

using namespace redrive;
using namespace redrive::test;

// /metrics as Prometheus reads it. The registry is prometheus-cpp's; these tests hold Redrive
// to what scrape configs and dashboards depend on: every metric a real `redrived` exposes is in
// docs/operations.md with the same type and label names, and `promtool check metrics` (the
// Prometheus project's own parser and linter) accepts the text.
class TstMetricsExposition : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase();
    void cleanupTestCase();
    void registryKeepsOneInstrumentPerSeries();
    void callbackGaugesAreReadWhenScraped();
    void histogramsAreCumulative();
    void labelValuesAreEscaped();
    void realReceiverMatchesTheDocumentedMetrics();
    void promtoolAcceptsTheRealExposition();

private:
    struct Documented {
        QString type;
        QSet<QString> labels;
    };
    static QHash<QString, Documented> documentedMetrics();
    QByteArray scrape();
    static bool promtool(const QByteArray &text, QString *output);

    RealReceiver m_receiver;
    QByteArray m_exposition;
};

void TstMetricsExposition::initTestCase()
{
    QString error;
    QVERIFY2(m_receiver.start(&error), qPrintable(error));
    // Traffic that creates labelled series: a delivered event, a dead letter, a duplicate and a
    // request with a bad signature.
    m_receiver.crm().enqueue(410);
    QVERIFY2(m_receiver.ingestAndSettle("metrics-1", &error), qPrintable(error));
    QCOMPARE(m_receiver.ingest("metrics-1", "push", R"({"zen":"again"})"), 200);
    // A forged request: the signature does not match.
    QNetworkAccessManager network;
    QNetworkRequest forged(
        QUrl(QStringLiteral("http://127.0.0.1:%1/hooks/github").arg(m_receiver.ingestPort())));
    forged.setHeader(QNetworkRequest::ContentTypeHeader, QStringLiteral("application/json"));
    forged.setRawHeader("X-GitHub-Event", "push");
    forged.setRawHeader("X-GitHub-Delivery", "metrics-forged");
    forged.setRawHeader("X-Hub-Signature-256", "sha256=" + QByteArray(64, '0'));
    QNetworkReply *reply = network.post(forged, QByteArrayLiteral("{}"));
    QSignalSpy answered(reply, &QNetworkReply::finished);
    QVERIFY(answered.wait(15'000));
    QCOMPARE(reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt(), 401);
    reply->deleteLater();
    m_exposition = scrape();
    QVERIFY(!m_exposition.isEmpty());
}

void TstMetricsExposition::cleanupTestCase()
{
    m_receiver.stop();
}

QByteArray TstMetricsExposition::scrape()
{
    QNetworkAccessManager network;
    QNetworkReply *reply
        = network.get(QNetworkRequest(m_receiver.adminUrl().resolved(QUrl(QStringLiteral("/metrics")))));
    QSignalSpy done(reply, &QNetworkReply::finished);
    if (!done.wait(15'000) || reply->error() != QNetworkReply::NoError) {
        qWarning("GET /metrics: %s", qPrintable(reply->errorString()));
        return {};
    }
    const QByteArray body = reply->readAll();
    reply->deleteLater();
    return body;
}

// The table in docs/operations.md: | `name`[, `name`] | type | `label` (values), `label` | …
QHash<QString, TstMetricsExposition::Documented> TstMetricsExposition::documentedMetrics()
{
    QFile docs(QStringLiteral(QT_TESTCASE_SOURCEDIR "/../../docs/operations.md"));
    if (!docs.open(QIODevice::ReadOnly))
        return {};
    static const QRegularExpression tick(QStringLiteral("`([^`]+)`"));
    static const QRegularExpression parenthesised(QStringLiteral("\\([^)]*\\)"));
    QHash<QString, Documented> out;
    for (const QString &line : QString::fromUtf8(docs.readAll()).split(u'\n')) {
        if (!line.startsWith(QLatin1String("| `redrive_")))
            continue;
        const QStringList cells = line.split(u'|');
        if (cells.size() < 5)
            continue;
        Documented d;
        d.type = cells[2].trimmed();
        QString labels = cells[3];
        labels.remove(parenthesised);
        for (auto m = tick.globalMatch(labels); m.hasNext();)
            d.labels.insert(m.next().captured(1));
        QString previous;
        for (auto m = tick.globalMatch(cells[1]); m.hasNext();) {
            QString name = m.next().captured(1);
            // `redrive_ingest_rejections_stored_total`, `…_dropped_total`: the prefix repeats.
            if (name.startsWith(u'…') && !previous.isEmpty())
                name
                    = previous.left(previous.lastIndexOf(u'_', previous.lastIndexOf(u'_') - 1)) + name.mid(1);
            out.insert(name, d);
            previous = name;
        }
    }
    return out;
}

bool TstMetricsExposition::promtool(const QByteArray &text, QString *output)
{
    const QString exe = QStandardPaths::findExecutable(QStringLiteral("promtool"));
    if (exe.isEmpty()) {
        *output = QStringLiteral("promtool not found");
        return false;
    }
    QProcess p;
    p.setProcessChannelMode(QProcess::MergedChannels);
    p.start(exe, { QStringLiteral("check"), QStringLiteral("metrics") });
    if (!p.waitForStarted(10'000))
        return false;
    p.write(text);
    p.closeWriteChannel();
    if (!p.waitForFinished(30'000))
        return false;
    *output = QString::fromUtf8(p.readAll());
    return p.exitStatus() == QProcess::NormalExit && p.exitCode() == 0;
}

void TstMetricsExposition::registryKeepsOneInstrumentPerSeries()
{
    metrics::Registry r;
    auto &a = r.counter(QStringLiteral("redrive_test_total"), QStringLiteral("help"),
        { { QStringLiteral("k"), QStringLiteral("a") } });
    auto &b = r.counter(QStringLiteral("redrive_test_total"), QStringLiteral("help"),
        { { QStringLiteral("k"), QStringLiteral("b") } });
    auto &again = r.counter(QStringLiteral("redrive_test_total"), QStringLiteral("help"),
        { { QStringLiteral("k"), QStringLiteral("a") } });
    QCOMPARE(&again, &a);
    QVERIFY(&a != &b);
    a.inc();
    a.inc(2);
    QCOMPARE(again.value(), 3.0);
    QCOMPARE(b.value(), 0.0);
    QVERIFY_THROWS_EXCEPTION(
        std::logic_error, r.gauge(QStringLiteral("redrive_test_total"), QStringLiteral("help")));
    QVERIFY_THROWS_EXCEPTION(
        std::logic_error, r.counter(QStringLiteral("not a name"), QStringLiteral("help")));
    const QByteArray text = r.renderPrometheus();
    QVERIFY2(text.contains("# TYPE redrive_test_total counter\n"), text.constData());
    QVERIFY2(text.contains("redrive_test_total{k=\"a\"} 3\n"), text.constData());
    QVERIFY2(text.contains("redrive_test_total{k=\"b\"} 0\n"), text.constData());
}

void TstMetricsExposition::callbackGaugesAreReadWhenScraped()
{
    metrics::Registry r;
    double depth = 4;
    r.callbackGauge(QStringLiteral("redrive_test_depth"), QStringLiteral("help"), {}, [&] { return depth; });
    QVERIFY(r.renderPrometheus().contains("redrive_test_depth 4\n"));
    depth = 7;
    QVERIFY(r.renderPrometheus().contains("redrive_test_depth 7\n"));
    auto &g = r.gauge(QStringLiteral("redrive_test_level"), QStringLiteral("help"));
    g.set(2.5);
    g.dec();
    QCOMPARE(g.value(), 1.5);
}

void TstMetricsExposition::histogramsAreCumulative()
{
    metrics::Registry r;
    auto &h = r.histogram(QStringLiteral("redrive_test_seconds"), QStringLiteral("help"), {}, { 0.1, 1 });
    h.observe(0.05);
    h.observe(0.5);
    h.observe(5);
    QCOMPARE(h.count(), quint64(3));
    QVERIFY(std::abs(h.sum() - 5.55) < 1e-9);
    const QByteArray text = r.renderPrometheus();
    QVERIFY2(text.contains("redrive_test_seconds_bucket{le=\"0.1\"} 1\n"), text.constData());
    QVERIFY2(text.contains("redrive_test_seconds_bucket{le=\"1\"} 2\n"), text.constData());
    QVERIFY2(text.contains("redrive_test_seconds_bucket{le=\"+Inf\"} 3\n"), text.constData());
    QVERIFY2(text.contains("redrive_test_seconds_count 3\n"), text.constData());
}

void TstMetricsExposition::labelValuesAreEscaped()
{
    metrics::Registry r;
    r.counter(QStringLiteral("redrive_test_total"), QStringLiteral("help"),
         { { QStringLiteral("destination"), QStringLiteral("a\"b\\c\nd") } })
        .inc();
    const QByteArray text = r.renderPrometheus();
    QVERIFY2(text.contains(R"(redrive_test_total{destination="a\"b\\c\nd"} 1)"), text.constData());
    QString output;
    QVERIFY2(promtool(text, &output), qPrintable(output));
}

void TstMetricsExposition::realReceiverMatchesTheDocumentedMetrics()
{
    const QHash<QString, Documented> docs = documentedMetrics();
    QVERIFY2(docs.size() >= 30, "the metrics table in docs/operations.md was not found");
    QHash<QString, QString> types; // family -> type, from # TYPE
    QHash<QString, QSet<QString>> labels; // family -> label names seen on its samples
    static const QRegularExpression sample(QStringLiteral(R"(^([a-zA-Z_:][a-zA-Z0-9_:]*)(\{(.*)\})? \S+$)"));
    static const QRegularExpression labelName(QStringLiteral(R"re((?:^|,)([a-zA-Z_][a-zA-Z0-9_]*)=")re"));
    for (const QString &line : QString::fromUtf8(m_exposition).split(u'\n', Qt::SkipEmptyParts)) {
        if (line.startsWith(QLatin1String("# TYPE "))) {
            const QStringList parts = line.split(u' ');
            QCOMPARE(parts.size(), 4);
            types.insert(parts[2], parts[3]);
            continue;
        }
        if (line.startsWith(u'#'))
            continue;
        const auto m = sample.match(line);
        QVERIFY2(m.hasMatch(), qPrintable(line));
        QString family = m.captured(1);
        for (const char *suffix : { "_bucket", "_sum", "_count" }) {
            const QString s = QLatin1String(suffix);
            if (family.endsWith(s) && types.value(family.chopped(s.size())) == u"histogram")
                family.chop(s.size());
        }
        QSet<QString> names;
        for (auto l = labelName.globalMatch(m.captured(3)); l.hasNext();)
            names.insert(l.next().captured(1));
        names.remove(QStringLiteral("le"));
        labels[family] += names;
    }
    QVERIFY2(types.size() >= 20, m_exposition.constData());
    for (auto it = types.cbegin(); it != types.cend(); ++it) {
        QVERIFY2(
            docs.contains(it.key()), qPrintable(it.key() + QStringLiteral(" is not in docs/operations.md")));
        const Documented d = docs.value(it.key());
        QVERIFY2(d.type == it.value(),
            qPrintable(QStringLiteral("%1: documented %2, exposed %3").arg(it.key(), d.type, it.value())));
        QVERIFY2(labels.value(it.key()).isEmpty() || labels.value(it.key()) == d.labels,
            qPrintable(QStringLiteral("%1: documented labels {%2}, exposed {%3}")
                           .arg(it.key(), QStringList(d.labels.values()).join(u','),
                               QStringList(labels.value(it.key()).values()).join(u','))));
    }
    // The series this traffic must have made, by name and labels.
    QVERIFY(m_exposition.contains("redrive_deliveries_dead_total{"));
    QVERIFY(m_exposition.contains("redrive_ingest_duplicates_total{source=\"github\"} 1"));
    QVERIFY(m_exposition.contains("redrive_ingest_rejected_total{"));
}

void TstMetricsExposition::promtoolAcceptsTheRealExposition()
{
    QString output;
    QVERIFY2(promtool(m_exposition, &output), qPrintable(output));
}

QTEST_GUILESS_MAIN(TstMetricsExposition)
#include "tst_metricsexposition.moc"
