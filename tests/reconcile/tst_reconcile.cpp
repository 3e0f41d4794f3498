// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#include "reconcileharness.h"
#include "storage/reconcilestore.h"
#include "testdb.h"

#include <QCoreApplication>
#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QSqlQuery>
#include <QTemporaryDir>
#include <QTest>

#include <mutex>

using namespace redrive;
using namespace redrive::test;

namespace {

// Every message any thread logs, to prove the credential never reaches a log.
std::mutex g_logMutex;
QStringList g_log;
QtMessageHandler g_previous = nullptr;

void captureLog(QtMsgType type, const QMessageLogContext &context, const QString &message)
{
    {
        std::lock_guard lock(g_logMutex);
        g_log.append(message);
    }
    if (g_previous)
        g_previous(type, context, message);
}

QString loggedText()
{
    std::lock_guard lock(g_logMutex);
    return g_log.join(u'\n');
}

} // namespace

class TstReconcile : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase() { g_previous = qInstallMessageHandler(captureLog); }
    void init();
    void cleanup();

    void stripeRecordsMissingEventsOnceAndDeliversThem();
    void stripeFailsMidPagingAndRecordsNothing();
    void stripeMalformedPageFailsTheRun_data();
    void stripeMalformedPageFailsTheRun();
    void badKeyFailsWithTheReasonAndTheKeyNowhere();
    void rateLimitIsWaitedOut();
    void rateLimitTooLongFailsTheRun();
    void pageCapFailsTheRun();
    void githubRedeliversOnlyMissingGuidsAtMostThreeTimes();
    void githubRefusesANextLinkToAnotherOrigin();
    void githubRateLimitByResetHeader();
    void scheduleRunsWithoutBeingAsked();
    void twoReconcilersNeverRunASourceTogether();
    void reconciledEventsAreValidatedLikeWebhooks();

private:
    bool setUp(const QByteArray &stripeKey = kStripeKey, reconcile::ReconcilerOptions options = {},
        const QByteArray &every = "0");
    std::optional<reconcile::Run> runOnce(
        const QString &source, const QString &requestedBy = QStringLiteral("ops"));
    QString m_stripeSchema; // a schema file for the Stripe source, set before setUp()
    void postStripeWebhook(const QString &id, qint64 created);
    void postGitHubWebhook(const QString &guid);
    qint64 count(const QString &sql, const QVariantList &binds = {});

    std::unique_ptr<StripeStandIn> m_stripe;
    std::unique_ptr<GitHubStandIn> m_github;
    std::unique_ptr<ScriptableDestination> m_down;
    std::unique_ptr<ScriptableDestination> m_notify; // a [[notifications]] target (slack)
    std::unique_ptr<IngestHarness> m_h;
    std::unique_ptr<delivery::DeliveryEngine> m_engine;
    std::unique_ptr<reconcile::Reconciler> m_reconciler;
    std::unique_ptr<RunWatcher> m_watcher;
    int m_finished = 0;
};

void TstReconcile::init()
{
    m_finished = 0;
    m_watcher = std::make_unique<RunWatcher>();
}

void TstReconcile::cleanup()
{
    if (m_reconciler)
        m_reconciler->stop();
    m_reconciler.reset();
    if (m_engine)
        m_engine->stop(2000);
    m_engine.reset();
    m_h.reset();
    m_down.reset();
    m_notify.reset();
    m_stripe.reset();
    m_github.reset();
    m_stripeSchema.clear();
}

bool TstReconcile::setUp(
    const QByteArray &stripeKey, reconcile::ReconcilerOptions options, const QByteArray &every)
{
    QString error;
    m_stripe = std::make_unique<StripeStandIn>(kStripeKey);
    m_github = std::make_unique<GitHubStandIn>(kGitHubToken, kHook);
    m_down = std::make_unique<ScriptableDestination>();
    m_notify = std::make_unique<ScriptableDestination>();
    if (!m_stripe->start(&error) || !m_github->start(&error) || !m_down->start(&error)
        || !m_notify->start(&error)) {
        qWarning("%s", qPrintable(error));
        return false;
    }
    m_h = IngestHarness::create({}, &error,
        reconcileToml(m_stripe->url(), m_github->url(), m_down->url(QStringLiteral("/down")), stripeKey,
            every, m_stripeSchema)
            + "\n[[notifications]]\nname = \"ops\"\nformat = \"slack\"\nallow_private = true\n"
              "kinds = [\"reconcile.missing\"]\nurl = \""
            + m_notify->url(QStringLiteral("/chat")).toString().toUtf8() + "\"\n");
    if (!m_h) {
        qWarning("%s", qPrintable(error));
        return false;
    }
    m_engine = std::make_unique<delivery::DeliveryEngine>(
        *m_h->config, m_h->database->url(), m_h->clock, m_h->registry);
    if (!succeeded(m_engine->start(), &error)) {
        qWarning("%s", qPrintable(error));
        return false;
    }
    options.api.timeoutMs = 5000;
    m_reconciler = std::make_unique<reconcile::Reconciler>(m_h->config, m_h->database->url(), *m_h->writer,
        m_h->registry, m_h->clock, QStringLiteral("receiver-a"), options);
    m_reconciler->setOnFinished([this](const reconcile::Run &run) { m_watcher->finished(run); });
    if (!succeeded(m_reconciler->start(), &error)) {
        qWarning("%s", qPrintable(error));
        return false;
    }
    return true;
}

std::optional<reconcile::Run> TstReconcile::runOnce(const QString &source, const QString &requestedBy)
{
    const SourceConfig *s = m_h->config->source(source);
    reconcile::ClaimRequest request { source, toString(s->reconcile->provider), m_reconciler->owner(),
        requestedBy, m_h->clock.nowMs(), m_reconciler->leaseMs(), std::nullopt };
    const auto claim
        = withTransaction(*m_h->reader, [&] { return reconcile::claimRun(*m_h->reader, request); });
    if (!claim || !claim->run) {
        qWarning("no claim: %s", claim ? "a run is running" : qPrintable(claim.error()));
        return std::nullopt;
    }
    m_reconciler->launch(*claim->run);
    return m_watcher->wait(++m_finished);
}

void TstReconcile::postStripeWebhook(const QString &id, qint64 created)
{
    const QByteArray body = StripeStandIn::eventJson(id, QStringLiteral("payment_intent.succeeded"), created);
    const auto r = m_h->post("rs", signStripe(kStripeSecret, m_h->nowSeconds(), body), body);
    QVERIFY(r);
    QCOMPARE(r->status, 200);
}

void TstReconcile::postGitHubWebhook(const QString &guid)
{
    const QByteArray body
        = QByteArrayLiteral("{\"ref\":\"refs/heads/main\",\"after\":\"") + guid.toUtf8() + "\"}";
    const auto r = m_h->post("rg", signGitHub(kGitHubSecret, body, guid.toUtf8(), "push"), body);
    QVERIFY(r);
    QCOMPARE(r->status, 200);
}

qint64 TstReconcile::count(const QString &sql, const QVariantList &binds)
{
    return m_h->scalar(sql, binds).toLongLong();
}

// 120 events listed over two pages, 115 of them arrived as webhooks: the 5 others are recorded
// as reconciled (the listed JSON byte for byte as the body), routed and delivered once; the 115
// keep their seen count; a webhook arriving later for a recovered one is a duplicate and is not
// delivered again; a second run finds nothing missing.
void TstReconcile::stripeRecordsMissingEventsOnceAndDeliversThem()
{
    QVERIFY(setUp());
    const qint64 now = m_h->nowSeconds();
    QStringList lost;
    for (int i = 0; i < 120; ++i) {
        const QString id = QStringLiteral("evt_%1").arg(i, 4, 10, QLatin1Char('0'));
        m_stripe->addEvent(id, QStringLiteral("payment_intent.succeeded"), now - 3600 + i);
        if (i % 24 == 7)
            lost.append(id);
        else
            postStripeWebhook(id, now - 3600 + i);
    }
    QCOMPARE(lost.size(), 5);
    // An event older than the lookback is not listed (created[gte]) and not recovered.
    m_stripe->addEvent(QStringLiteral("evt_old"), QStringLiteral("charge.succeeded"), now - 80 * 3600);
    QTRY_COMPARE_WITH_TIMEOUT(m_down->requestCount(), 115, 20'000);

    const auto run = runOnce(QStringLiteral("rs"));
    QVERIFY(run);
    QCOMPARE(run->status.name(), reconcile::kStatusOk.name());
    QVERIFY2(run->error.isEmpty(), qPrintable(run->error));
    QCOMPARE(run->checked, 120);
    QCOMPARE(run->missing, 5);
    QCOMPARE(run->recovered, 5);
    QCOMPARE(m_stripe->listRequests(), 2); // 100 + 20, has_more then not
    QVERIFY(m_stripe->requests().at(1).target.contains("starting_after=evt_0020"));
    QCOMPARE(m_stripe->requests().at(0).authorization, QByteArray("Bearer " + kStripeKey));

    QCOMPARE(count(QStringLiteral("SELECT COUNT(*) FROM events WHERE source = 'rs'")), 120);
    QCOMPARE(
        count(QStringLiteral("SELECT COUNT(*) FROM events WHERE source = 'rs' AND origin = 'reconciled'")),
        5);
    QCOMPARE(count(QStringLiteral("SELECT COUNT(*) FROM events WHERE source = 'rs' AND seen_count <> 1")), 0);
    for (const QString &id : std::as_const(lost)) {
        const QVariantMap row = m_h->row(
            QStringLiteral("SELECT origin, body, event_type, occurred_at FROM events WHERE source = 'rs' AND "
                           "provider_event_id = ?"),
            { id });
        QCOMPARE(row.value(QStringLiteral("origin")).toString(), QStringLiteral("reconciled"));
        QCOMPARE(row.value(QStringLiteral("body")).toByteArray(), m_stripe->rawEvent(id));
        QCOMPARE(
            row.value(QStringLiteral("event_type")).toString(), QStringLiteral("payment_intent.succeeded"));
    }
    // The business key was read from the recorded body, as ingest reads it from a webhook.
    QTRY_COMPARE(
        count(QStringLiteral("SELECT COUNT(*) FROM events e WHERE e.provider_event_id = ? AND (EXISTS "
                             "(SELECT 1 FROM event_keys k WHERE k.event_id = e.id) OR EXISTS (SELECT 1 FROM "
                             "event_keys_pending p WHERE p.event_id = e.id))"),
            { lost.first() }),
        1);
    QTRY_COMPARE_WITH_TIMEOUT(m_down->requestCount(), 120, 20'000);
    QTRY_COMPARE(
        count(QStringLiteral("SELECT COUNT(*) FROM deliveries d JOIN events e ON e.id = d.event_id WHERE "
                             "e.origin = 'reconciled' AND d.status = 'succeeded'")),
        5);

    // The provider's own retry arrives now: a duplicate, counted, never delivered again.
    const QByteArray body = m_stripe->rawEvent(lost.first());
    const auto late = m_h->post("rs", signStripe(kStripeSecret, m_h->nowSeconds(), body), body);
    QVERIFY(late);
    QCOMPARE(late->status, 200);
    QVERIFY(late->body.contains("\"duplicate\":true"));
    QCOMPARE(
        count(QStringLiteral("SELECT seen_count FROM events WHERE provider_event_id = ?"), { lost.first() }),
        2);
    QCOMPARE(
        count(QStringLiteral("SELECT COUNT(*) FROM deliveries d JOIN events e ON e.id = d.event_id WHERE "
                             "e.provider_event_id = ?"),
            { lost.first() }),
        1);

    const auto again = runOnce(QStringLiteral("rs"));
    QVERIFY(again);
    QCOMPARE(again->status.name(), reconcile::kStatusOk.name());
    QCOMPARE(again->missing, 0);
    QCOMPARE(again->recovered, 0);
    QCOMPARE(count(QStringLiteral("SELECT COUNT(*) FROM events WHERE source = 'rs'")), 120);
    QCOMPARE(count(QStringLiteral("SELECT SUM(seen_count) FROM events WHERE source = 'rs'")), 121);

    // Recorded and audited with the counts; metrics per source and result.
    const QVariantMap row = m_h->row(
        QStringLiteral(
            "SELECT status, checked, missing, recovered, requested_by, finished_at FROM reconcile_runs "
            "WHERE id = ?"),
        { run->id });
    QCOMPARE(row.value(QStringLiteral("status")).toString(), QStringLiteral("ok"));
    QCOMPARE(row.value(QStringLiteral("missing")).toInt(), 5);
    QCOMPARE(row.value(QStringLiteral("recovered")).toInt(), 5);
    QCOMPARE(row.value(QStringLiteral("requested_by")).toString(), QStringLiteral("ops"));
    QVERIFY(!row.value(QStringLiteral("finished_at")).isNull());
    QCOMPARE(count(QStringLiteral(
                 "SELECT COUNT(*) FROM audit_log WHERE action = 'reconcile_run' AND target = 'source:rs'")),
        2);
    QVERIFY(
        m_h->scalar(QStringLiteral(
                        "SELECT details FROM audit_log WHERE action = 'reconcile_run' ORDER BY seq LIMIT 1"))
            .toString()
            .contains(QLatin1String("\"recovered\":5")));
    QCOMPARE(m_h->metric("redrive_reconcile_runs_total{result=\"ok\",source=\"rs\"}"), 2.0);
    QCOMPARE(m_h->metric("redrive_reconcile_missing_total{source=\"rs\"}"), 5.0);

    // The run that found gaps told the notification target, once; the run that found none did not.
    QTRY_COMPARE_WITH_TIMEOUT(m_notify->requestCount(), 1, 20'000);
    const QJsonObject told = QJsonDocument::fromJson(m_notify->requests().first().body).object();
    QCOMPARE(told.value(QLatin1String("text")).toString(),
        QStringLiteral("Reconciliation of rs found 5 events missing (5 recovered)"));
    QCOMPARE(count(QStringLiteral("SELECT COUNT(*) FROM events WHERE source = 'redrive' AND "
                                  "event_type = 'reconcile.missing' AND provider_event_id = ?"),
                 { QStringLiteral("reconcile.missing:%1@ops").arg(run->id) }),
        1);
    QCOMPARE(count(QStringLiteral("SELECT COUNT(*) FROM events WHERE source = 'redrive'")), 1);
}

// Page 2 answers 500: the run fails with the status, and nothing of page 1 was recorded.
void TstReconcile::stripeFailsMidPagingAndRecordsNothing()
{
    QVERIFY(setUp());
    const qint64 now = m_h->nowSeconds();
    for (int i = 0; i < 150; ++i)
        m_stripe->addEvent(QStringLiteral("evt_%1").arg(i), QStringLiteral("invoice.paid"), now - 100 + i);
    m_stripe->addFault(StandInFault {
        1, 500, {}, QByteArrayLiteral("{\"error\":{\"message\":\"An unknown error occurred\"}}") });
    const auto run = runOnce(QStringLiteral("rs"));
    QVERIFY(run);
    QCOMPARE(run->status.name(), reconcile::kStatusFailed.name());
    QVERIFY2(run->error.contains(QLatin1String("HTTP 500")), qPrintable(run->error));
    QVERIFY2(run->error.contains(QLatin1String("An unknown error occurred")), qPrintable(run->error));
    QVERIFY2(run->error.contains(QLatin1String("nothing was recorded")), qPrintable(run->error));
    QCOMPARE(run->recovered, 0);
    QCOMPARE(count(QStringLiteral("SELECT COUNT(*) FROM events WHERE source = 'rs'")), 0);
    QCOMPARE(
        m_h->scalar(QStringLiteral("SELECT error FROM reconcile_runs WHERE id = ?"), { run->id }).toString(),
        run->error);
    QCOMPARE(m_h->metric("redrive_reconcile_runs_total{result=\"failed\",source=\"rs\"}"), 1.0);
}

void TstReconcile::stripeMalformedPageFailsTheRun_data()
{
    QTest::addColumn<QByteArray>("page");
    QTest::newRow("truncated") << QByteArray(
        "{\"object\":\"list\",\"has_more\":false,\"data\":[{\"id\":\"evt_1\"");
    QTest::newRow("not a list") << QByteArray("{\"object\":\"event\",\"has_more\":false,\"data\":[]}");
    QTest::newRow("no has_more") << QByteArray("{\"object\":\"list\",\"data\":[]}");
    QTest::newRow("event without id")
        << QByteArray("{\"object\":\"list\",\"has_more\":false,\"data\":[{\"type\":\"x\",\"created\":1}]}");
    QTest::newRow("trailing text") << QByteArray("{\"object\":\"list\",\"has_more\":false,\"data\":[]} x");
    QTest::newRow("html") << QByteArray("<html>502 Bad Gateway</html>");
}

void TstReconcile::stripeMalformedPageFailsTheRun()
{
    QFETCH(QByteArray, page);
    QVERIFY(setUp());
    m_stripe->addEvent(QStringLiteral("evt_ok"), QStringLiteral("invoice.paid"), m_h->nowSeconds());
    m_stripe->addFault(StandInFault { 0, 200, {}, page });
    const auto run = runOnce(QStringLiteral("rs"));
    QVERIFY(run);
    QCOMPARE(run->status.name(), reconcile::kStatusFailed.name());
    QVERIFY2(run->error.contains(QLatin1String("malformed page")), qPrintable(run->error));
    QCOMPARE(count(QStringLiteral("SELECT COUNT(*) FROM events")), 0);
}

// A wrong key: 401, the reason shown, and the key — which this stand-in even echoes back in its
// error message — in no row, no error, no audit entry and no log line.
void TstReconcile::badKeyFailsWithTheReasonAndTheKeyNowhere()
{
    const QByteArray wrongKey = QByteArrayLiteral("sk_test_WRONG_KEY_never_shown_0451");
    QVERIFY(setUp(wrongKey));
    m_stripe->addEvent(QStringLiteral("evt_1"), QStringLiteral("invoice.paid"), m_h->nowSeconds());
    const auto run = runOnce(QStringLiteral("rs"));
    QVERIFY(run);
    QCOMPARE(run->status.name(), reconcile::kStatusFailed.name());
    QVERIFY2(run->error.contains(QLatin1String("HTTP 401")), qPrintable(run->error));
    QVERIFY2(run->error.contains(QLatin1String("Invalid API Key provided")), qPrintable(run->error));
    QVERIFY(!run->error.contains(QLatin1String(wrongKey)));
    for (const char *sql :
        { "SELECT COUNT(*) FROM reconcile_runs WHERE error LIKE ? OR requested_by LIKE ? OR owner LIKE ?",
            "SELECT COUNT(*) FROM audit_log WHERE details LIKE ? OR reason LIKE ? OR target LIKE ?",
            "SELECT COUNT(*) FROM events WHERE verified_by LIKE ? OR headers LIKE ? OR provider_event_id LIKE ?" }) {
        const QString like = QLatin1Char('%') + QLatin1String(wrongKey) + QLatin1Char('%');
        QCOMPARE(count(QLatin1String(sql), { like, like, like }), 0);
    }
    QVERIFY(loggedText().contains(QLatin1String("HTTP 401"))); // the failure was logged ...
    QVERIFY(!loggedText().contains(QLatin1String(wrongKey))); // ... without the key
    QVERIFY(!m_h->registry.renderPrometheus().contains(wrongKey));
}

// 429 with Retry-After: 1 → the run waits, asks again and finishes.
void TstReconcile::rateLimitIsWaitedOut()
{
    QVERIFY(setUp());
    m_stripe->addEvent(QStringLiteral("evt_1"), QStringLiteral("invoice.paid"), m_h->nowSeconds());
    m_stripe->addFault(
        StandInFault { 0, 429, { { QByteArrayLiteral("Retry-After"), QByteArrayLiteral("1") } },
            QByteArrayLiteral("{\"error\":{\"message\":\"Too many requests\"}}") });
    const auto run = runOnce(QStringLiteral("rs"));
    QVERIFY(run);
    QCOMPARE(run->status.name(), reconcile::kStatusOk.name());
    QCOMPARE(run->recovered, 1);
    const auto requests = m_stripe->requests();
    QCOMPARE(requests.size(), 2);
    QVERIFY2(requests[1].arrivedMs - requests[0].arrivedMs >= 950,
        qPrintable(QString::number(requests[1].arrivedMs - requests[0].arrivedMs)));
}

void TstReconcile::rateLimitTooLongFailsTheRun()
{
    QVERIFY(setUp());
    m_stripe->addEvent(QStringLiteral("evt_1"), QStringLiteral("invoice.paid"), m_h->nowSeconds());
    m_stripe->addFault(
        StandInFault { 0, 429, { { QByteArrayLiteral("Retry-After"), QByteArrayLiteral("3600") } }, {} });
    const auto run = runOnce(QStringLiteral("rs"));
    QVERIFY(run);
    QCOMPARE(run->status.name(), reconcile::kStatusFailed.name());
    QVERIFY2(run->error.contains(QLatin1String("rate limited by the provider for 3600 s")),
        qPrintable(run->error));
    QCOMPARE(m_stripe->listRequests(), 1);
}

// More pages than the cap: the run fails clearly instead of paging for ever.
void TstReconcile::pageCapFailsTheRun()
{
    reconcile::ReconcilerOptions options;
    options.maxPages = 2;
    QVERIFY(setUp(kStripeKey, options));
    for (int i = 0; i < 250; ++i)
        m_stripe->addEvent(
            QStringLiteral("evt_%1").arg(i), QStringLiteral("invoice.paid"), m_h->nowSeconds() - i);
    const auto run = runOnce(QStringLiteral("rs"));
    QVERIFY(run);
    QCOMPARE(run->status.name(), reconcile::kStatusFailed.name());
    QVERIFY2(run->error.contains(QLatin1String("more than 2 pages")), qPrintable(run->error));
    QCOMPARE(m_stripe->listRequests(), 2);
    QCOMPARE(count(QStringLiteral("SELECT COUNT(*) FROM events")), 0);
}

// 120 deliveries over two pages (Link rel="next"), 3 guids never stored and one more outside the
// lookback: only the 3 are asked, each at most three times over later runs; a stored guid never.
void TstReconcile::githubRedeliversOnlyMissingGuidsAtMostThreeTimes()
{
    QVERIFY(setUp());
    const qint64 nowMs = m_h->clock.nowMs();
    QHash<QString, qint64> idOf;
    QStringList missing;
    for (int i = 0; i < 120; ++i) {
        const QString guid
            = QStringLiteral("0b1c%1-0000-11ee-8000-00000000%1").arg(i, 4, 10, QLatin1Char('0'));
        idOf.insert(guid, m_github->addDelivery(guid, nowMs - 60'000 * (i + 1)));
        if (i == 3 || i == 64 || i == 110)
            missing.append(guid);
        else
            postGitHubWebhook(guid);
    }
    const QString old = QStringLiteral("old-guid-outside-the-lookback");
    m_github->addDelivery(old, nowMs - 80LL * 3600 * 1000);

    const auto run = runOnce(QStringLiteral("rg"));
    QVERIFY(run);
    QVERIFY2(run->status == reconcile::kStatusOk, qPrintable(run->error));
    QCOMPARE(run->checked, 120);
    QCOMPARE(run->missing, 3);
    QCOMPARE(run->recovered, 3);
    QCOMPARE(m_github->listRequests(), 2);
    QList<qint64> expected;
    for (const QString &guid : std::as_const(missing))
        expected.append(idOf.value(guid));
    QCOMPARE(m_github->redeliveries(), expected);

    // Still missing: asked again in each of the next two runs, then no more.
    for (int round = 2; round <= 4; ++round) {
        const auto next = runOnce(QStringLiteral("rg"));
        QVERIFY(next);
        QCOMPARE(next->status.name(), reconcile::kStatusOk.name());
        QCOMPARE(next->missing, 3);
        QCOMPARE(next->recovered, round <= 3 ? 3 : 0);
    }
    QCOMPARE(m_github->redeliveries().size(), 9);
    QCOMPARE(
        count(QStringLiteral("SELECT MAX(attempts) FROM reconcile_redeliveries WHERE source = 'rg'")), 3);

    // The redelivery arrives, signed, through the normal path: no longer missing.
    postGitHubWebhook(missing.first());
    const auto after = runOnce(QStringLiteral("rg"));
    QVERIFY(after);
    QCOMPARE(after->missing, 2);
    QCOMPARE(m_github->redeliveries().size(), 9);
    QCOMPARE(
        count(QStringLiteral("SELECT COUNT(*) FROM events WHERE source = 'rg' AND origin = 'reconciled'")),
        0);
}

// The credential goes only to api_url's origin: a next link elsewhere fails the run.
void TstReconcile::githubRefusesANextLinkToAnotherOrigin()
{
    QVERIFY(setUp());
    m_github->setPerPage(1);
    m_github->setLinkOrigin(QStringLiteral("http://127.0.0.2:1"));
    m_github->addDelivery(QStringLiteral("g-1"), m_h->clock.nowMs() - 1000);
    m_github->addDelivery(QStringLiteral("g-2"), m_h->clock.nowMs() - 2000);
    const auto run = runOnce(QStringLiteral("rg"));
    QVERIFY(run);
    QCOMPARE(run->status.name(), reconcile::kStatusFailed.name());
    QVERIFY2(run->error.contains(QLatin1String("another origin")), qPrintable(run->error));
    QCOMPARE(m_github->listRequests(), 1);
    QVERIFY(m_github->redeliveries().isEmpty());
}

// GitHub's primary rate limit: 403 with X-RateLimit-Remaining: 0 and the reset time.
void TstReconcile::githubRateLimitByResetHeader()
{
    QVERIFY(setUp());
    m_github->addDelivery(QStringLiteral("g-1"), m_h->clock.nowMs() - 1000);
    const QByteArray reset = QByteArray::number(QDateTime::currentSecsSinceEpoch() + 2);
    m_github->addFault(StandInFault { 0, 403,
        { { QByteArrayLiteral("X-RateLimit-Remaining"), QByteArrayLiteral("0") },
            { QByteArrayLiteral("X-RateLimit-Reset"), reset } },
        QByteArrayLiteral("{\"message\":\"API rate limit exceeded\"}") });
    const auto run = runOnce(QStringLiteral("rg"));
    QVERIFY(run);
    QVERIFY2(run->status == reconcile::kStatusOk, qPrintable(run->error));
    QCOMPARE(run->recovered, 1);
    const auto requests = m_github->requests();
    QVERIFY(requests.size() >= 3); // the limited list, the list again, the redelivery
    QVERIFY(requests[1].arrivedMs - requests[0].arrivedMs >= 900);
    // A 403 that is not a rate limit fails at once.
    m_github->addFault(
        StandInFault { 2, 403, {}, QByteArrayLiteral("{\"message\":\"Resource not accessible\"}") });
    const auto forbidden = runOnce(QStringLiteral("rg"));
    QVERIFY(forbidden);
    QCOMPARE(forbidden->status.name(), reconcile::kStatusFailed.name());
    QVERIFY2(forbidden->error.contains(QLatin1String("HTTP 403 \"Resource not accessible\"")),
        qPrintable(forbidden->error));
}

// every = "1m": the reconciler runs the source by itself (audited as the system), and not again
// until `every` has passed since that run started.
void TstReconcile::scheduleRunsWithoutBeingAsked()
{
    reconcile::ReconcilerOptions options;
    options.scheduleCheck = std::chrono::milliseconds(50);
    QVERIFY(setUp(kStripeKey, options, "1m"));
    m_stripe->addEvent(QStringLiteral("evt_lost"), QStringLiteral("invoice.paid"), m_h->nowSeconds() - 10);
    const auto run = m_watcher->wait(1);
    QVERIFY(run);
    QCOMPARE(run->source, QStringLiteral("rs"));
    QCOMPARE(run->status.name(), reconcile::kStatusOk.name());
    QCOMPARE(run->recovered, 1);
    QVERIFY(run->requestedBy.isEmpty());
    QCOMPARE(count(QStringLiteral(
                 "SELECT COUNT(*) FROM audit_log WHERE action = 'reconcile_run' AND actor = 'redrive' "
                 "AND role = 'system' AND reason = 'scheduled'")),
        1);
    // Within the minute nothing more runs; once it passed, the next run comes.
    QVERIFY(!m_watcher->wait(2, 300));
    QCOMPARE(m_stripe->listRequests(), 1);
    m_h->clock.advanceMs(61'000);
    const auto next = m_watcher->wait(2);
    QVERIFY(next);
    QCOMPARE(next->missing, 0);
}

// Two reconcilers (two receivers' worth) on one database with a slow provider, both asked to run
// the same source: the second claim is refused while the first runs, and the stand-in never sees
// two requests at once.
void TstReconcile::twoReconcilersNeverRunASourceTogether()
{
    QVERIFY(setUp());
    m_stripe->setDelayMs(400);
    m_stripe->addEvent(QStringLiteral("evt_1"), QStringLiteral("invoice.paid"), m_h->nowSeconds());
    reconcile::Reconciler other(m_h->config, m_h->database->url(), *m_h->writer, m_h->registry, m_h->clock,
        QStringLiteral("receiver-b"));
    RunWatcher otherRuns;
    other.setOnFinished([&otherRuns](const reconcile::Run &run) { otherRuns.finished(run); });
    const auto started = other.start();
    QVERIFY2(started, qPrintable(started.error()));

    reconcile::ClaimRequest request { QStringLiteral("rs"), QStringLiteral("stripe"), m_reconciler->owner(),
        QString(), m_h->clock.nowMs(), m_reconciler->leaseMs(), std::nullopt };
    const auto claimA
        = withTransaction(*m_h->reader, [&] { return reconcile::claimRun(*m_h->reader, request); });
    QVERIFY(claimA && claimA->run);
    m_reconciler->launch(*claimA->run);
    QTRY_COMPARE(m_stripe->listRequests(), 1); // receiver A is paging
    request.owner = other.owner();
    const auto claimB
        = withTransaction(*m_h->reader, [&] { return reconcile::claimRun(*m_h->reader, request); });
    QVERIFY(claimB && !claimB->run && claimB->running);
    const auto ranA = m_watcher->wait(1);
    QVERIFY(ranA);
    QCOMPARE(ranA->status.name(), reconcile::kStatusOk.name());
    // Now B may run it, and finds nothing missing.
    const auto claimB2
        = withTransaction(*m_h->reader, [&] { return reconcile::claimRun(*m_h->reader, request); });
    QVERIFY(claimB2 && claimB2->run);
    other.launch(*claimB2->run);
    const auto ranB = otherRuns.wait(1);
    QVERIFY(ranB);
    QCOMPARE(ranB->missing, 0);
    QCOMPARE(m_stripe->maxConcurrent(), 1);
    QCOMPARE(count(QStringLiteral("SELECT COUNT(*) FROM events WHERE source = 'rs'")), 1);
    other.stop();
}

void TstReconcile::reconciledEventsAreValidatedLikeWebhooks()
{
    // Nothing malformed delivered, whichever way it came in: an event recovered from the provider's
    // API that fails its source's schema is quarantined (stored `invalid`, its errors kept, no
    // deliveries) as the webhook would have been; the valid one beside it is delivered.
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    m_stripeSchema = dir.filePath(QStringLiteral("refund.json"));
    QFile schema(m_stripeSchema);
    QVERIFY(schema.open(QIODevice::WriteOnly));
    schema.write(R"({"type":"object","required":["refund_reason"]})");
    schema.close();
    QVERIFY(setUp());
    const qint64 now = m_h->nowSeconds();
    m_stripe->addEvent(QStringLiteral("evt_refund"), QStringLiteral("charge.refunded"), now - 60);
    m_stripe->addEvent(QStringLiteral("evt_paid"), QStringLiteral("payment_intent.succeeded"), now - 50);
    const auto run = runOnce(QStringLiteral("rs"));
    QVERIFY(run);
    QCOMPARE(run->status.name(), reconcile::kStatusOk.name());
    QCOMPARE(run->missing, 2);
    QCOMPARE(run->recovered, 2);
    const QVariantMap refund = m_h->row(
        QStringLiteral(
            "SELECT e.origin, s.status, v.errors FROM events e JOIN event_status s ON s.event_id = e.id "
            "LEFT JOIN event_validation v ON v.event_id = e.id WHERE e.provider_event_id = 'evt_refund'"),
        {});
    QCOMPARE(refund.value(QStringLiteral("origin")).toString(), QStringLiteral("reconciled"));
    QCOMPARE(refund.value(QStringLiteral("status")).toString(), QStringLiteral("invalid"));
    QVERIFY2(refund.value(QStringLiteral("errors")).toString().contains(QStringLiteral("refund_reason")),
        qPrintable(refund.value(QStringLiteral("errors")).toString()));
    QTRY_COMPARE_WITH_TIMEOUT(m_down->requestCount(), 1, 20'000); // evt_paid only
    QCOMPARE(
        count(QStringLiteral("SELECT COUNT(*) FROM deliveries d JOIN events e ON e.id = d.event_id WHERE "
                             "e.provider_event_id = 'evt_refund'")),
        0);
}

REDRIVE_STORAGE_TEST_MAIN(TstReconcile)
#include "tst_reconcile.moc"
