// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
//
// redrive-writerbench: the storage ceiling of ingest. It drives redrived's own group-commit
// writer (same configuration file, same statements, same checkpointer, same durability) from
// one in-process producer that keeps --inflight events outstanding — the HTTP edge, signature
// checking and the network left out. No receiver built on this writer can acknowledge more
// durable events per second than this, so bench_ingest.py reports the receiver against it and
// it against nginx: the first ratio is what the HTTP edge costs, the second the most the
// storage engine leaves room for on this machine.
#include "benchids.h"
#include "config/config.h"
#include "crypto/crypto.h"
#include "ingest/groupcommitwriter.h"
#include "storage/schema.h"
#include "util/metrics.h"

#include <QCoreApplication>
#include <QDateTime>

#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <semaphore>
#include <string>

namespace {

using Clock = std::chrono::steady_clock;

struct Options {
    QString config;
    double seconds = 10;
    int inflight = 64;
    int bodySize = 1024;
    std::string idPrefix;
    std::string idStyle = "uuid";
    QString source = QStringLiteral("bench");
    bool dedupeByBody = false; // from the source's configuration, as ingest sets it
    int keys = 0; // business keys per event (0 to 3), stored in the event's transaction
    int connections = 0; // writer connections; 0 = the configuration's storage.writer_connections
};

int usage()
{
    std::fprintf(stderr,
        "usage: redrive-writerbench --config FILE --seconds S [--inflight 64] [--body-size 1024]\n"
        "         [--id-prefix X] [--id-style uuid|counter] [--source bench] [--keys 0-3]\n"
        "         [--connections N]\n");
    return 2;
}

bool parse(int argc, char **argv, Options &o)
{
    for (int i = 1; i < argc; ++i) {
        const std::string a = argv[i];
        if (i + 1 >= argc)
            return false;
        const char *v = argv[++i];
        char *end = nullptr;
        if (a == "--config")
            o.config = QString::fromLocal8Bit(v);
        else if (a == "--seconds")
            o.seconds = std::strtod(v, &end);
        else if (a == "--inflight")
            o.inflight = static_cast<int>(std::strtol(v, &end, 10));
        else if (a == "--body-size")
            o.bodySize = static_cast<int>(std::strtol(v, &end, 10));
        else if (a == "--id-prefix")
            o.idPrefix = v;
        else if (a == "--id-style")
            o.idStyle = v;
        else if (a == "--source")
            o.source = QString::fromLocal8Bit(v);
        else if (a == "--keys")
            o.keys = static_cast<int>(std::strtol(v, &end, 10));
        else if (a == "--connections")
            o.connections = static_cast<int>(std::strtol(v, &end, 10));
        else
            return false;
        if (end && *end != '\0')
            return false;
    }
    return !o.config.isEmpty() && o.seconds > 0 && o.seconds <= 86'400 && o.inflight >= 1
        && o.inflight <= 100'000 && o.bodySize >= 64 && o.bodySize <= 1 << 20
        && (o.idStyle == "uuid" || o.idStyle == "counter") && o.keys >= 0 && o.keys <= 3 && o.connections >= 0
        && o.connections <= redrive::StorageConfig::kMaxWriterConnections;
}

// The event redrived would build from the load generator's request n (the same body shape and
// size, the same stored header list), hashed here as the receiver's I/O threads hash it.
redrive::IncomingEvent makeEvent(const Options &o, long long n, qint64 nowMs)
{
    const std::string id = redrive::bench::eventId(o.idPrefix, o.idStyle, n);
    const std::string body = redrive::bench::eventBody(id, o.bodySize);
    redrive::IncomingEvent e;
    e.source = o.source;
    e.providerEventId = QString::fromStdString(id);
    e.eventType = QStringLiteral("pull_request");
    e.receivedAtMs = nowMs;
    e.contentType = QStringLiteral("application/json");
    e.body = QByteArray::fromStdString(body);
    e.bodySha256Hex = redrive::crypto::sha256Hex(e.body);
    e.headersJson = QByteArrayLiteral("[[\"Host\",\"127.0.0.1\"],[\"Content-Type\",\"application/json\"],"
                                      "[\"X-GitHub-Event\",\"pull_request\"],[\"X-GitHub-Delivery\",\"")
        + QByteArray::fromStdString(id) // the signature header is not stored
        + QByteArrayLiteral("\"],[\"Content-Length\",\"") + QByteArray::number(e.body.size())
        + QByteArrayLiteral("\"]]");
    e.verifiedBy = QStringLiteral("secret-1");
    e.remoteAddress = QStringLiteral("127.0.0.1");
    e.dedupeByBody = o.dedupeByBody;
    // What a source with order, customer and email keys hands the writer: distinct orders, a
    // customer shared by a hundred events.
    const redrive::EventKey keys[] = { { QStringLiteral("order"), QString::number(100'000 + n) },
        { QStringLiteral("customer"), QStringLiteral("cus_%1").arg(n % 1000) },
        { QStringLiteral("email"), QStringLiteral("customer%1@example.com").arg(n % 1000) } };
    for (int k = 0; k < o.keys; ++k)
        e.keys.append(keys[k]);
    return e;
}

} // namespace

int main(int argc, char **argv)
{
    QCoreApplication app(argc, argv);
    Options o;
    if (!parse(argc, argv, o))
        return usage();

    redrive::ConfigError configError;
    auto config = redrive::loadConfig(o.config, &configError);
    if (!config) {
        std::fprintf(stderr, "redrive-writerbench: %s\n", qPrintable(configError.toString()));
        return 2;
    }
    if (const auto *source = config->source(o.source))
        o.dedupeByBody = source->dedupeByBody;
    QString error;
    const auto url = redrive::StorageUrl::parse(config->storage.url);
    if (!url) {
        std::fprintf(stderr, "redrive-writerbench: storage.url: %s\n", qPrintable(url.error()));
        return 2;
    }
    {
        redrive::OpenOptions open;
        open.sqliteSynchronous = config->storage.sqliteSynchronous;
        auto db = redrive::takeValue(
            redrive::Db::open(*url, QStringLiteral("writerbench-migrate"), open), &error);
        if (!db) {
            std::fprintf(stderr, "redrive-writerbench: %s\n", qPrintable(error));
            return 1;
        }
        if (auto migrated = redrive::migrate(*db); !migrated) {
            std::fprintf(stderr, "redrive-writerbench: %s\n", qPrintable(migrated.error()));
            return 1;
        }
    }

    redrive::metrics::Registry registry;
    redrive::ingest::GroupCommitWriter::Options w;
    w.url = *url;
    w.sqliteSynchronous = config->storage.sqliteSynchronous;
    w.batchMax = config->storage.batchMax;
    w.connections = o.connections > 0 ? o.connections : config->storage.writerConnections;
    w.queueCapacity = std::max(config->server.writeQueueCapacity, o.inflight);
    w.instance.instanceId = QStringLiteral("writerbench");
    w.instance.version = QStringLiteral("bench");
    const auto shared = std::make_shared<const redrive::Config>(*std::move(config));
    redrive::ingest::GroupCommitWriter writer(shared, w, registry);
    std::atomic<long long> commits { 0 };
    writer.setOnCommitted([&commits](const redrive::ingest::CommitSummary &) { ++commits; });
    if (const auto started = writer.start(); !started) {
        std::fprintf(stderr, "redrive-writerbench: %s\n", qPrintable(started.error()));
        return 1;
    }

    std::counting_semaphore<> slots(o.inflight);
    std::atomic<long long> ok { 0 };
    std::atomic<long long> failed { 0 };
    long long sent = 0;
    const auto start = Clock::now();
    const auto deadline = start + std::chrono::duration<double>(o.seconds);
    const qint64 nowMs = QDateTime::currentMSecsSinceEpoch();
    while (Clock::now() < deadline) {
        slots.acquire();
        auto done = [&slots, &ok, &failed](const redrive::ingest::IngestOutcome &outcome) {
            ++(outcome.ok && !outcome.duplicate ? ok : failed);
            slots.release();
        };
        if (writer.submit(makeEvent(o, sent, nowMs), std::move(done))
            != redrive::ingest::GroupCommitWriter::Submit::Queued) {
            std::fprintf(stderr, "redrive-writerbench: the writer refused event %lld\n", sent);
            return 1;
        }
        ++sent;
    }
    for (int i = 0; i < o.inflight; ++i) // every outstanding event answered
        slots.acquire();
    const double elapsed = std::chrono::duration<double>(Clock::now() - start).count();
    writer.stop();
    std::printf("{\"sent\":%lld,\"ok\":%lld,\"failed\":%lld,\"seconds\":%.3f,\"ok_per_second\":%.1f,"
                "\"commits\":%lld,\"mean_batch\":%.1f,\"connections\":%d}\n",
        sent, ok.load(), failed.load(), elapsed, static_cast<double>(ok.load()) / elapsed, commits.load(),
        commits.load() ? static_cast<double>(sent) / static_cast<double>(commits.load()) : 0.0,
        writer.connections());
    return failed.load() == 0 ? 0 : 1;
}
