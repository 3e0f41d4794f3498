// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
//
// redrive-reconcilebench: one reconciliation run over N listed Stripe events of which M were never
// stored (issue 30's target: 10,000 listed, 100 missing, ≤ 10 s on SQLite against the loopback
// stand-in, the 100 stored and delivered, 0 duplicates). In-process: the ingest group-commit
// writer and the delivery engine on a fresh SQLite (or PostgreSQL) database, the Stripe stand-in
// of tests/reconcile, a scripted 200 downstream. The baseline, measured in the same run, is a run
// with nothing missing (paging plus the stored-id check): the ratio says what recording and
// delivering the missing events cost on top of listing them.
//
//   redrive-reconcilebench [--events 10000] [--missing 100] [--storage URL] [--max-seconds 10]
// Prints one JSON object; exits 1 when a target is missed.
#include "crypto/crypto.h"
#include "delivery/engine.h"
#include "ingest/groupcommitwriter.h"
#include "providerstandins.h"
#include "reconcile/reconciler.h"
#include "scriptabledestination.h"
#include "storage/reconcilestore.h"
#include "storage/schema.h"
#include "util/clock.h"
#include "util/metrics.h"

#include <QCommandLineParser>
#include <QCoreApplication>
#include <QElapsedTimer>
#include <QJsonDocument>
#include <QJsonObject>
#include <QSqlQuery>
#include <QTemporaryDir>
#include <QThread>

#include <condition_variable>
#include <cstdio>
#include <mutex>

using namespace redrive;

namespace {

const QByteArray kKey = QByteArrayLiteral("sk_test_bench_key");

int fail(const QString &why)
{
    std::fprintf(stderr, "redrive-reconcilebench: %s\n", qPrintable(why));
    return 2;
}

qint64 scalar(Db &db, const QString &sql)
{
    QSqlQuery q(db.handle());
    return q.exec(sql) && q.next() ? q.value(0).toLongLong() : -1;
}

struct Finished {
    std::mutex mutex;
    std::condition_variable cv;
    QList<reconcile::Run> runs;
};

} // namespace

int main(int argc, char **argv)
{
    QCoreApplication app(argc, argv);
    QCommandLineParser parser;
    parser.addHelpOption();
    parser.addOption({ QStringLiteral("events"), QStringLiteral("Events the provider lists"),
        QStringLiteral("n"), QStringLiteral("10000") });
    parser.addOption({ QStringLiteral("missing"), QStringLiteral("Of those, never stored"),
        QStringLiteral("n"), QStringLiteral("100") });
    parser.addOption({ QStringLiteral("storage"),
        QStringLiteral("Storage URL (default: a fresh SQLite file)"), QStringLiteral("url") });
    parser.addOption({ QStringLiteral("max-seconds"), QStringLiteral("Target for the run"),
        QStringLiteral("s"), QStringLiteral("10") });
    parser.process(app);
    const int events = parser.value(QStringLiteral("events")).toInt();
    const int missing = parser.value(QStringLiteral("missing")).toInt();
    const double maxSeconds = parser.value(QStringLiteral("max-seconds")).toDouble();
    if (events <= 0 || missing < 0 || missing > events)
        return fail(QStringLiteral("--events must be positive and --missing at most --events"));

    QTemporaryDir dir;
    QString storage = parser.value(QStringLiteral("storage"));
    if (storage.isEmpty())
        storage = QStringLiteral("sqlite://") + dir.filePath(QStringLiteral("bench.db"));
    QString error;
    test::StripeStandIn stripe(kKey);
    test::ScriptableDestination down;
    if (!stripe.start(&error) || !down.start(&error))
        return fail(error);
    const QByteArray toml = QByteArray(R"(
[storage]
url = ")")
        + storage.toUtf8() + R"("

[[sources]]
name = "stripe"
scheme = "stripe"
secrets = ["whsec_bench"]
[sources.reconcile]
provider = "stripe"
api_url = ")"
        + stripe.url().toUtf8() + R"("
credential = ")"
        + kKey + R"("
every = "0"
lookback = "72h"

[[destinations]]
name = "down"
url = ")"
        + down.url(QStringLiteral("/down")).toString().toUtf8() + R"("
allow_private = true

[[routes]]
source = "stripe"
event_types = ["payment_intent.*"]
destinations = ["down"]
)";
    ConfigError configError;
    auto parsed = parseConfig(toml, QStringLiteral("bench"), &configError);
    if (!parsed)
        return fail(configError.toString());
    auto config = std::make_shared<const Config>(std::move(*parsed));
    const auto url = StorageUrl::parse(storage);
    if (!url)
        return fail(url.error());
    auto db = Db::open(*url, QStringLiteral("bench"), OpenOptions {});
    if (!db)
        return fail(db.error());
    if (auto migrated = migrate(**db); !migrated)
        return fail(migrated.error());

    const Clock &clock = Clock::system();
    metrics::Registry registry;
    ingest::GroupCommitWriter::Options w;
    w.url = *url;
    w.connections = config->storage.writerConnections;
    w.instance.instanceId = QStringLiteral("bench");
    w.instance.host = QStringLiteral("bench");
    w.instance.version = QStringLiteral("bench");
    ingest::GroupCommitWriter writer(config, w, registry, clock);
    if (!succeeded(writer.start(), &error))
        return fail(error);

    // The listed events: the missing ones are the routed type, every 100th position.
    const qint64 now = clock.nowSeconds();
    const int stride = missing > 0 ? events / missing : events + 1;
    QStringList lost;
    std::atomic<int> pending { 0 };
    for (int i = 0; i < events; ++i) {
        const QString id = QStringLiteral("evt_bench_%1").arg(i, 6, 10, QLatin1Char('0'));
        const bool isLost = lost.size() < missing && i % stride == stride / 2;
        const QString type
            = isLost ? QStringLiteral("payment_intent.succeeded") : QStringLiteral("charge.succeeded");
        stripe.addEvent(id, type, now - 3600 - i);
        if (isLost) {
            lost.append(id);
            continue;
        }
        IncomingEvent e;
        e.source = QStringLiteral("stripe");
        e.providerEventId = id;
        e.eventType = type;
        e.receivedAtMs = clock.nowMs();
        e.contentType = QStringLiteral("application/json");
        e.body = test::StripeStandIn::eventJson(id, type, now - 3600 - i);
        e.bodySha256Hex = crypto::sha256Hex(e.body);
        e.headersJson = QByteArrayLiteral("[]");
        ++pending;
        while (writer.submit(std::move(e), [&pending](const ingest::IngestOutcome &) { --pending; })
            == ingest::GroupCommitWriter::Submit::QueueFull) { }
    }
    QElapsedTimer setup;
    setup.start();
    while (pending.load() > 0 && setup.elapsed() < 120'000)
        QThread::msleep(5);

    delivery::DeliveryEngine engine(*config, *url, clock, registry);
    if (!succeeded(engine.start(), &error))
        return fail(error);
    Finished finished;
    reconcile::Reconciler reconciler(config, *url, writer, registry, clock, QStringLiteral("bench"));
    reconciler.setOnFinished([&finished](const reconcile::Run &run) {
        std::lock_guard lock(finished.mutex);
        finished.runs.append(run);
        finished.cv.notify_all();
    });
    if (!succeeded(reconciler.start(), &error))
        return fail(error);
    auto runOnce = [&](int n) -> std::optional<reconcile::Run> {
        reconcile::ClaimRequest r { QStringLiteral("stripe"), QStringLiteral("stripe"), reconciler.owner(),
            QStringLiteral("bench"), clock.nowMs(), reconciler.leaseMs(), std::nullopt };
        const auto claim = withTransaction(**db, [&] { return reconcile::claimRun(**db, r); });
        if (!claim || !claim->run)
            return std::nullopt;
        reconciler.launch(*claim->run);
        std::unique_lock lock(finished.mutex);
        finished.cv.wait_for(lock, std::chrono::seconds(120), [&] { return finished.runs.size() >= n; });
        return finished.runs.size() >= n ? std::optional(finished.runs.at(n - 1)) : std::nullopt;
    };

    QElapsedTimer timer;
    timer.start();
    const auto run = runOnce(1);
    const qint64 runMs = timer.elapsed();
    while (down.requestCount() < missing && timer.elapsed() < 120'000)
        QThread::msleep(2);
    const qint64 deliveredMs = timer.elapsed();
    if (!run)
        return fail(QStringLiteral("the run did not finish"));

    // Baseline: the same listing with nothing missing.
    QElapsedTimer baseTimer;
    baseTimer.start();
    const auto baseline = runOnce(2);
    const qint64 baselineMs = baseTimer.elapsed();

    const qint64 stored = scalar(**db, QStringLiteral("SELECT COUNT(*) FROM events WHERE source = 'stripe'"));
    const qint64 reconciled
        = scalar(**db, QStringLiteral("SELECT COUNT(*) FROM events WHERE origin = 'reconciled'"));
    const qint64 duplicates
        = scalar(**db, QStringLiteral("SELECT COUNT(*) FROM events WHERE seen_count <> 1"));
    const qint64 succeeded
        = scalar(**db, QStringLiteral("SELECT COUNT(*) FROM deliveries WHERE status = 'succeeded'"));
    const int sent = down.requestCount();
    reconciler.stop();
    engine.stop(2000);
    writer.stop();

    const bool ok = run->status == reconcile::kStatusOk && run->checked == events && run->recovered == missing
        && reconciled == missing && stored == events && duplicates == 0 && sent == missing
        && succeeded == missing && runMs <= maxSeconds * 1000 && baseline && baseline->missing == 0;
    QJsonObject out { { QStringLiteral("engine"),
                          url->dialect == Dialect::Sqlite ? QStringLiteral("sqlite")
                                                          : QStringLiteral("postgresql") },
        { QStringLiteral("listed"), events }, { QStringLiteral("pages"), stripe.listRequests() / 2 },
        { QStringLiteral("run_status"), run->status.name() }, { QStringLiteral("run_error"), run->error },
        { QStringLiteral("checked"), run->checked }, { QStringLiteral("missing"), run->missing },
        { QStringLiteral("recovered"), run->recovered }, { QStringLiteral("run_seconds"), runMs / 1000.0 },
        { QStringLiteral("delivered_seconds"), deliveredMs / 1000.0 },
        { QStringLiteral("baseline_nothing_missing_seconds"), baselineMs / 1000.0 },
        { QStringLiteral("ratio_to_baseline"), baselineMs > 0 ? double(runMs) / double(baselineMs) : 0.0 },
        { QStringLiteral("events_stored"), stored }, { QStringLiteral("reconciled_rows"), reconciled },
        { QStringLiteral("duplicates"), duplicates }, { QStringLiteral("downstream_requests"), sent },
        { QStringLiteral("deliveries_succeeded"), succeeded },
        { QStringLiteral("target_seconds"), maxSeconds }, { QStringLiteral("ok"), ok } };
    std::printf("%s\n", QJsonDocument(out).toJson(QJsonDocument::Compact).constData());
    return ok ? 0 : 1;
}
