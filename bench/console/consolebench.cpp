// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
//
// The console's events view over 1,000,000 events in the database, against the same QTableView
// over an in-memory model of the same rows, in one run. Each side runs in its own process (so
// resident memory is comparable) and reports first paint, jumps to arbitrary rows, filter
// application and RSS; the parent prints the figures and the ratios.
#include "common/dbexecutor.h"
#include "events/eventsview.h"
#include "events/eventtablemodel.h"
#include "memoryeventmodel.h"
#include "syntheticevents.h"

#include <QApplication>
#include <QCommandLineParser>
#include <QElapsedTimer>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QRandomGenerator>
#include <QTableView>
#include <QTest>
#include <QTimer>

#include <algorithm>
#include <cstdio>

using namespace redrive;
using namespace redrive::bench;

namespace {

double medianOf(QList<double> v)
{
    if (v.isEmpty())
        return 0;
    std::sort(v.begin(), v.end());
    return v.size() % 2 ? v[v.size() / 2] : (v[v.size() / 2 - 1] + v[v.size() / 2]) / 2.0;
}

double memoryMb(const char *field)
{
    QFile f(QStringLiteral("/proc/self/status"));
    if (!f.open(QIODevice::ReadOnly))
        return 0;
    for (const QByteArray &line : f.readAll().split('\n')) {
        if (line.startsWith(field))
            return line.mid(qstrlen(field)).trimmed().split(' ').value(0).toDouble() / 1024.0;
    }
    return 0;
}

double ms(const QElapsedTimer &t)
{
    return double(t.nsecsElapsed()) / 1e6;
}

// Runs the event loop until `done` holds or the deadline passes; false on timeout. It sleeps
// until the next event (a result from the database thread, or the 5 ms tick) instead of
// spinning, so the waiting side does not take a core away from the thread it waits for.
template<typename Pred> bool waitFor(Pred done, int timeoutMs = 60'000)
{
    QDeadlineTimer deadline(timeoutMs);
    QTimer tick;
    tick.start(5);
    while (!done()) {
        if (deadline.hasExpired())
            return false;
        QCoreApplication::processEvents(QEventLoop::AllEvents | QEventLoop::WaitForMoreEvents);
    }
    return true;
}

QList<int> jumpRows(int rows, int count)
{
    QRandomGenerator rng(20261130);
    QList<int> out;
    for (int i = 0; i < count; ++i)
        out.append(int(rng.bounded(quint32(std::max(1, rows - 40)))));
    return out;
}

QList<EventFilter> benchFilters()
{
    QList<EventFilter> filters;
    EventFilter f;
    f.statuses = { QStringLiteral("dead") };
    filters.append(f);
    f = {};
    f.source = QStringLiteral("stripe");
    filters.append(f);
    f = {};
    f.type = QStringLiteral("invoice.paid");
    filters.append(f);
    f = {};
    f.destination = QStringLiteral("billing");
    filters.append(f);
    f = {};
    f.statuses = { QStringLiteral("retrying"), QStringLiteral("dead") };
    f.source = QStringLiteral("github");
    filters.append(f);
    f = {};
    f.search = QStringLiteral("evt_123457");
    filters.append(f);
    f = {};
    f.search = QStringLiteral("REF-500000");
    filters.append(f);
    f = {}; // business keys (schema 7): one key, then any key's value
    f.keyName = QStringLiteral("order");
    f.keyValue = QStringLiteral("ord-123456");
    filters.append(f);
    f = {};
    f.search = QStringLiteral("ord-200000");
    filters.append(f);
    return filters;
}

bool visibleRowsLoaded(QTableView *table, const ui::EventTableModel &model)
{
    const int first = table->rowAt(0);
    int last = table->rowAt(table->viewport()->height() - 1);
    if (first < 0)
        return true;
    if (last < 0)
        last = model.rowCount() - 1;
    for (int r = first; r <= last; ++r) {
        if (!model.eventAtRow(r))
            return false;
    }
    return true;
}

QJsonObject runMemory(qint64 rows, int jumps)
{
    QJsonObject out;
    out[QLatin1String("kind")] = QStringLiteral("memory");
    QElapsedTimer build;
    build.start();
    auto *model = new bench::MemoryEventModel(rows);
    out[QLatin1String("build_ms")] = ms(build);

    ui::EventsView view;
    view.resize(1200, 800);
    QTableView *table = view.table();
    QElapsedTimer t;
    t.start();
    table->setModel(model);
    view.show();
    if (!QTest::qWaitForWindowExposed(&view))
        out[QLatin1String("error")] = QStringLiteral("window not exposed");
    table->viewport()->repaint();
    out[QLatin1String("first_paint_ms")] = ms(t);

    QList<double> jumpTimes;
    for (int row : jumpRows(model->rowCount(), jumps)) {
        t.restart();
        table->scrollTo(model->index(row, 0), QAbstractItemView::PositionAtTop);
        table->viewport()->repaint();
        jumpTimes.append(ms(t));
    }
    out[QLatin1String("jump_ms")] = medianOf(jumpTimes);
    out[QLatin1String("jump_data_ms")] = medianOf(jumpTimes);
    out[QLatin1String("rss_mb")] = memoryMb("VmRSS:");
    out[QLatin1String("hwm_mb")] = memoryMb("VmHWM:");
    return out;
}

QJsonObject runDatabase(const QString &kind, const StorageUrl &url, int jumps)
{
    QJsonObject out;
    out[QLatin1String("kind")] = kind;
    ui::DbExecutor pages(QStringLiteral("pages"));
    ui::DbExecutor indexer(QStringLiteral("index"));
    QString openError = QStringLiteral("pending");
    QObject context;
    pages.open(url, &context, [&](const QString &e) { openError = e; });
    waitFor([&] { return openError != u"pending"; });
    if (openError.isEmpty()) {
        openError = QStringLiteral("pending");
        indexer.open(url, &context, [&](const QString &e) { openError = e; });
        waitFor([&] { return openError != u"pending"; });
    }
    if (!openError.isEmpty()) {
        out[QLatin1String("error")] = openError;
        return out;
    }
    ui::EventsView view;
    view.resize(1200, 800);
    QTableView *table = view.table();
    ui::EventTableModel model(&pages, &indexer);

    // First paint: from asking for the list to its first screen painted with real rows.
    QElapsedTimer t;
    t.start();
    table->setModel(&model);
    model.setFilter({});
    view.show();
    if (!QTest::qWaitForWindowExposed(&view))
        out[QLatin1String("error")] = QStringLiteral("window not exposed");
    waitFor([&] { return model.rowCount() > 0 && visibleRowsLoaded(table, model); });
    table->viewport()->repaint();
    out[QLatin1String("first_paint_ms")] = ms(t);
    out[QLatin1String("first_rows")] = model.rowCount();
    waitFor([&] { return model.countKind() == ui::EventTableModel::CountKind::Exact; }, 300'000);
    out[QLatin1String("exact_count_ms")] = ms(t);
    out[QLatin1String("rows")] = model.rowCount();

    // Jumps: the paint right after scrolling (placeholders where rows are still loading) and
    // the paint once the rows on screen have arrived.
    QList<double> paintTimes, dataTimes, arrivedTimes;
    for (int row : jumpRows(model.rowCount(), jumps)) {
        t.restart();
        table->scrollTo(model.index(row, 0), QAbstractItemView::PositionAtTop);
        table->viewport()->repaint();
        paintTimes.append(ms(t));
        waitFor([&] { return visibleRowsLoaded(table, model); });
        arrivedTimes.append(ms(t));
        table->viewport()->repaint();
        dataTimes.append(ms(t));
    }
    out[QLatin1String("jump_ms")] = medianOf(paintTimes);
    out[QLatin1String("jump_arrived_ms")] = medianOf(arrivedTimes);
    out[QLatin1String("jump_data_ms")] = medianOf(dataTimes);

    // Filters: from applying one to its first screen painted.
    table->scrollToTop();
    QList<double> filterTimes;
    QJsonArray perFilter;
    for (const EventFilter &f : benchFilters()) {
        bool answered = false;
        auto c = QObject::connect(
            &model, &ui::EventTableModel::countChanged, &context, [&] { answered = true; });
        t.restart();
        model.setFilter(f);
        waitFor([&] { return answered && visibleRowsLoaded(table, model); });
        table->viewport()->repaint();
        const double elapsed = ms(t);
        QObject::disconnect(c);
        filterTimes.append(elapsed);
        perFilter.append(QJsonObject { { QStringLiteral("filter"), f.toQuery().toString() },
            { QStringLiteral("ms"), elapsed }, { QStringLiteral("first_rows"), model.rowCount() } });
    }
    out[QLatin1String("filter_ms")] = medianOf(filterTimes);
    out[QLatin1String("filters")] = perFilter;
    // Let the last background index finish so its memory is counted too.
    waitFor([&] { return model.countKind() == ui::EventTableModel::CountKind::Exact; }, 300'000);
    out[QLatin1String("rss_mb")] = memoryMb("VmRSS:");
    out[QLatin1String("hwm_mb")] = memoryMb("VmHWM:");
    return out;
}

std::optional<StorageUrl> prepare(
    const QString &kind, const QString &where, qint64 rows, QString *error, double *genSeconds)
{
    std::optional<StorageUrl> url;
    if (kind == u"sqlite") {
        auto parsed = StorageUrl::parse(QLatin1String("sqlite://") + where);
        if (!succeeded(parsed, error))
            return std::nullopt;
        url = *parsed;
    } else {
        // Use (and create on first use) a dedicated database next to the one named.
        auto server = StorageUrl::parse(where);
        if (!succeeded(server, error))
            return std::nullopt;
        auto admin = takeValue(Db::open(*server, QStringLiteral("bench-admin"), {}), error);
        if (!admin)
            return std::nullopt;
        QSqlQuery q(admin->handle());
        if (q.exec(QStringLiteral("SELECT 1 FROM pg_database WHERE datname = 'redrive_bench_console'"))
            && !q.next())
            succeeded(admin->exec(QStringLiteral("CREATE DATABASE redrive_bench_console")), error);
        url = *server;
        url->database = QStringLiteral("redrive_bench_console");
    }
    if (!url)
        return std::nullopt;
    auto db = takeValue(Db::open(*url, QStringLiteral("bench-fixture"), {}), error);
    if (!db || !ensureFixture(*db, rows, error, genSeconds))
        return std::nullopt;
    return url;
}

} // namespace

int main(int argc, char *argv[])
{
    if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM"))
        qputenv("QT_QPA_PLATFORM", "offscreen");
    QApplication app(argc, argv);
    QCommandLineParser parser;
    parser.setApplicationDescription(
        QStringLiteral("Redrive console benchmark: events view vs an in-memory model"));
    parser.addHelpOption();
    const QCommandLineOption rowsOpt(QStringLiteral("rows"), QStringLiteral("Events in the fixture."),
        QStringLiteral("N"), QStringLiteral("1000000"));
    const QCommandLineOption sqliteOpt(QStringLiteral("sqlite"),
        QStringLiteral("SQLite fixture file (reused when it matches)."), QStringLiteral("PATH"));
    const QCommandLineOption pgOpt(QStringLiteral("pg"),
        QStringLiteral("PostgreSQL server url; adds a PostgreSQL run."), QStringLiteral("URL"));
    const QCommandLineOption jumpsOpt(
        QStringLiteral("jumps"), QStringLiteral("Jumps per run."), QStringLiteral("N"), QStringLiteral("25"));
    const QCommandLineOption roundsOpt(QStringLiteral("rounds"),
        QStringLiteral("Interleaved rounds (median of ratios)."), QStringLiteral("N"), QStringLiteral("3"));
    const QCommandLineOption jsonOpt(QStringLiteral("json"),
        QStringLiteral("Also write the results to this file."), QStringLiteral("FILE"));
    const QCommandLineOption childOpt(
        QStringLiteral("child"), QStringLiteral("(internal) run one side."), QStringLiteral("KIND"));
    const QCommandLineOption urlOpt(
        QStringLiteral("url"), QStringLiteral("(internal) database for a child."), QStringLiteral("URL"));
    parser.addOptions({ rowsOpt, sqliteOpt, pgOpt, jumpsOpt, roundsOpt, jsonOpt, childOpt, urlOpt });
    parser.process(app);
    const qint64 rows = parser.value(rowsOpt).toLongLong();
    const int jumps = parser.value(jumpsOpt).toInt();

    if (parser.isSet(childOpt)) {
        const QString kind = parser.value(childOpt);
        QJsonObject result;
        if (kind == u"memory") {
            result = runMemory(rows, jumps);
        } else {
            QString error;
            auto url = StorageUrl::parse(parser.value(urlOpt));
            result = url ? runDatabase(kind, *url, jumps)
                         : QJsonObject { { QStringLiteral("error"), url.error() } };
        }
        std::fputs(QJsonDocument(result).toJson(QJsonDocument::Compact).constData(), stdout);
        std::fputs("\n", stdout);
        return result.contains(QLatin1String("error")) ? 1 : 0;
    }

    struct Side {
        QString kind;
        QString url;
    };
    QList<Side> sides { { QStringLiteral("memory"), QString() } };
    QJsonObject report;
    report[QLatin1String("rows")] = rows;
    const QString sqlitePath = parser.isSet(sqliteOpt)
        ? parser.value(sqliteOpt)
        : QStringLiteral("/tmp/redrive-bench-console-%1.db").arg(rows);
    for (const QString &kind : { QStringLiteral("sqlite"), QStringLiteral("postgres") }) {
        if (kind == u"postgres" && !parser.isSet(pgOpt))
            continue;
        QString error;
        double seconds = 0;
        std::fprintf(stderr, "preparing %s fixture with %lld events…\n", qPrintable(kind), rows);
        auto url = prepare(kind == u"sqlite" ? QStringLiteral("sqlite") : QStringLiteral("pg"),
            kind == u"sqlite" ? sqlitePath : parser.value(pgOpt), rows, &error, &seconds);
        if (!url) {
            std::fprintf(stderr, "%s fixture failed: %s\n", qPrintable(kind), qPrintable(error));
            return 1;
        }
        if (seconds > 0)
            std::fprintf(stderr, "  generated in %.1f s\n", seconds);
        report[kind + QLatin1String("_fixture_s")] = seconds;
        QString text = kind == u"sqlite"
            ? QLatin1String("sqlite://") + url->sqlitePath
            : QStringLiteral("postgresql://%1%2@%3:%4/%5%6")
                  .arg(url->user,
                      url->password.isEmpty()
                          ? QString()
                          : QLatin1String(":") + QString::fromLatin1(QUrl::toPercentEncoding(url->password)),
                      url->host)
                  .arg(url->port)
                  .arg(url->database,
                      url->connectOptions.isEmpty()
                          ? QString()
                          : QLatin1String("?") + QString(url->connectOptions).replace(u';', u'&'));
        sides.append({ kind, text });
    }

    // Interleaved rounds: memory, sqlite, [postgres], memory, ... Each round's ratios are taken
    // against that round's baseline; the table shows medians over rounds.
    const int rounds = std::max(1, parser.value(roundsOpt).toInt());
    QHash<QString, QList<QJsonObject>> results;
    for (int round = 0; round < rounds; ++round) {
        for (const Side &side : sides) {
            QProcess child;
            QStringList args { QStringLiteral("--child"), side.kind, QStringLiteral("--rows"),
                QString::number(rows), QStringLiteral("--jumps"), QString::number(jumps) };
            if (!side.url.isEmpty())
                args << QStringLiteral("--url") << side.url;
            child.setProcessChannelMode(QProcess::ForwardedErrorChannel);
            child.start(QCoreApplication::applicationFilePath(), args);
            if (!child.waitForFinished(900'000)) {
                std::fprintf(stderr, "%s run did not finish\n", qPrintable(side.kind));
                child.kill();
                return 1;
            }
            const QByteArray line = child.readAllStandardOutput().trimmed().split('\n').last();
            QJsonObject r = QJsonDocument::fromJson(line).object();
            if (r.isEmpty() || r.contains(QLatin1String("error"))) {
                std::fprintf(stderr, "%s run failed: %s\n", qPrintable(side.kind), line.constData());
                return 1;
            }
            results[side.kind].append(r);
        }
    }
    QJsonObject perRound;
    for (auto it = results.cbegin(); it != results.cend(); ++it) {
        QJsonArray a;
        for (const QJsonObject &o : it.value())
            a.append(o);
        perRound[it.key()] = a;
    }
    report[QLatin1String("runs")] = perRound;

    auto num = [](const QJsonObject &o, const char *k) { return o.value(QLatin1String(k)).toDouble(); };
    auto med = [&](const QString &kind, const char *k) {
        QList<double> v;
        for (const QJsonObject &o : results.value(kind))
            v.append(num(o, k));
        return medianOf(v);
    };
    auto ratio = [&](const QString &kind, const char *k) {
        QList<double> v;
        const QList<QJsonObject> &mine = results.value(kind);
        const QList<QJsonObject> &base = results.value(QStringLiteral("memory"));
        for (qsizetype i = 0; i < mine.size() && i < base.size(); ++i)
            v.append(num(mine[i], k) / std::max(0.001, num(base[i], k)));
        return medianOf(v);
    };
    std::printf(
        "\nConsole events view, %lld events, %d interleaved rounds (medians); baseline = the same QTableView over\n"
        "an in-memory model of the same rows, each side in its own process\n",
        rows, rounds);
    std::printf("%-10s %13s %11s %13s %11s %9s %9s %12s\n", "side", "first paint", "jump paint",
        "jump w/ rows", "filter med", "RSS MB", "peak MB", "exact count");
    for (const Side &side : sides) {
        std::printf("%-10s %10.1f ms %8.1f ms %10.1f ms %8.1f ms %9.1f %9.1f %9.0f ms\n",
            qPrintable(side.kind), med(side.kind, "first_paint_ms"), med(side.kind, "jump_ms"),
            med(side.kind, "jump_data_ms"), med(side.kind, "filter_ms"), med(side.kind, "rss_mb"),
            med(side.kind, "hwm_mb"), med(side.kind, "exact_count_ms"));
    }
    std::printf(
        "\n%-10s %16s %16s %16s %12s\n", "ratio", "first paint", "jump (w/ rows)", "filter ≤100ms", "RSS");
    bool pass = true;
    QJsonObject ratios;
    for (const Side &side : sides) {
        if (side.kind == u"memory")
            continue;
        const double fp = ratio(side.kind, "first_paint_ms");
        const double jp = ratio(side.kind, "jump_data_ms");
        const double rss = ratio(side.kind, "rss_mb");
        const double filter = med(side.kind, "filter_ms");
        const bool ok = fp <= 3.0 && jp <= 3.0 && filter <= 100.0 && rss <= 1.5;
        pass = pass && ok;
        ratios[side.kind]
            = QJsonObject { { QStringLiteral("first_paint"), fp }, { QStringLiteral("jump"), jp },
                  { QStringLiteral("filter_ms"), filter }, { QStringLiteral("rss"), rss } };
        std::printf("%-10s %13.2fx %s %13.2fx %s %13.1f %s %9.2fx %s\n", qPrintable(side.kind), fp,
            fp <= 3 ? "ok" : "!!", jp, jp <= 3 ? "ok" : "!!", filter, filter <= 100 ? "ok" : "!!", rss,
            rss <= 1.5 ? "ok" : "!!");
        std::printf("           filters (last round):");
        for (const auto &v : results.value(side.kind).last().value(QLatin1String("filters")).toArray())
            std::printf(" %.1f", v.toObject().value(QLatin1String("ms")).toDouble());
        std::printf(" ms\n");
    }
    report[QLatin1String("ratios")] = ratios;
    report[QLatin1String("goals_met")] = pass;
    std::printf("goals (first paint ≤3x, jump ≤3x, filter ≤100 ms median, RSS ≤1.5x): %s\n",
        pass ? "met" : "NOT met");
    if (parser.isSet(jsonOpt)) {
        QFile f(parser.value(jsonOpt));
        if (f.open(QIODevice::WriteOnly))
            f.write(QJsonDocument(report).toJson());
    }
    return 0;
}
