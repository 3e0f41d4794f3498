// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#pragma once

// The ingest pipeline in-process on a fresh test database (engine from REDRIVE_TEST_BACKEND):
// group-commit writer → IngestService → http::Server on a loopback port, with a ManualClock.

#include "http/server.h"
#include "ingest/groupcommitwriter.h"
#include "ingest/ingestservice.h"
#include "rawhttp.h"
#include "signers.h"
#include "testdb.h"
#include "util/clock.h"
#include "util/metrics.h"

#include <QVariantList>

#include <memory>

namespace redrive::test {

class IngestHarness final {
public:
    struct Options {
        int queueCapacity = 10'000;
        int rejectionsKeep = 10'000;
        int rejectionQueueCapacity = 1'000;
        qint64 maxBodyBytes = 65'536;
        int ioThreads = 2;
        int maxConnections = 1024;
        QByteArray listen = QByteArrayLiteral("127.0.0.1:0"); // [server] listen
        QByteArray serverToml {}; // more [server] keys, e.g. trusted_proxies
    };
    // `extraToml` is appended to the fixture's configuration (more sources, routes).
    static std::unique_ptr<IngestHarness> create(
        const Options &options, QString *error, const QByteArray &extraToml = {});
    ~IngestHarness();

    [[nodiscard]] quint16 port() const { return m_server->port(); }
    [[nodiscard]] qint64 nowSeconds() const { return clock.nowSeconds(); }

    std::optional<RawResponse> post(
        const QByteArray &source, const HeaderList &headers, const QByteArray &body);
    // The same from client address `from` to the listener's address `to` (loopback).
    std::optional<RawResponse> postFrom(const QByteArray &from, const QByteArray &to,
        const QByteArray &source, const HeaderList &headers, const QByteArray &body);
    // First column of the first row, as a variant (invalid when no row).
    QVariant scalar(const QString &sql, const QVariantList &binds = {});
    // A row as column name → value.
    QVariantMap row(const QString &sql, const QVariantList &binds = {});
    // Value of one Prometheus series, e.g. "redrive_ingest_rejected_total{reason=\"bad_signature\"}"; -1 when
    // absent.
    [[nodiscard]] double metric(const QByteArray &series) const;

    ManualClock clock;
    metrics::Registry registry;
    std::shared_ptr<const Config> config;
    std::unique_ptr<TestDatabase> database;
    std::unique_ptr<ingest::GroupCommitWriter> writer;
    std::unique_ptr<ingest::IngestService> service;
    std::unique_ptr<Db> reader; // the test thread's connection, for assertions

private:
    IngestHarness() = default;
    std::unique_ptr<http::Server> m_server;
};

} // namespace redrive::test
