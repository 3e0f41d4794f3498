// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#include "ingestharness.h"

#include "ingestfixture.h"

#include <QSqlQuery>
#include <QSqlRecord>

namespace redrive::test {

std::unique_ptr<IngestHarness> IngestHarness::create(
    const Options &options, QString *error, const QByteArray &extraToml)
{
    std::unique_ptr<IngestHarness> h(new IngestHarness);
    h->clock.setMs(Clock::system().nowSeconds() * 1000);
    h->database = TestDatabase::create(error);
    if (!h->database)
        return nullptr;
    ConfigError configError;
    QByteArray toml = ingestConfigToml(
        h->database->urlString(), options.queueCapacity, options.rejectionsKeep, options.maxBodyBytes);
    const QByteArray server = "listen = \"" + options.listen + "\"\n" + options.serverToml + '\n';
    toml.replace(QByteArrayLiteral("listen = \"127.0.0.1:0\"\n"), server);
    auto config = parseConfig(toml + extraToml, QStringLiteral("ingest fixture"), &configError);
    if (!config) {
        *error = configError.toString();
        return nullptr;
    }
    config->server.ioThreads = options.ioThreads;
    config->server.maxConnections = options.maxConnections;
    h->config = std::make_shared<const Config>(std::move(*config));

    ingest::GroupCommitWriter::Options w;
    w.url = h->database->url();
    w.batchMax = h->config->storage.batchMax;
    w.connections = h->config->storage.writerConnections;
    w.queueCapacity = h->config->server.writeQueueCapacity;
    w.rejectionsKeep = h->config->storage.rejectionsKeep;
    w.rejectionQueueCapacity = options.rejectionQueueCapacity;
    w.instance.instanceId = QStringLiteral("test-instance");
    w.instance.host = QStringLiteral("test-host");
    w.instance.pid = 1;
    w.instance.version = QStringLiteral("test");
    h->writer = std::make_unique<ingest::GroupCommitWriter>(h->config, w, h->registry, h->clock);
    if (!succeeded(h->writer->start(), error))
        return nullptr;
    h->service = std::make_unique<ingest::IngestService>(h->config, *h->writer, h->registry, h->clock);
    auto *service = h->service.get();
    h->m_server = std::make_unique<http::Server>(
        service->serverOptions(), [service](http::Request &&r, http::Responder respond) {
            service->handle(std::move(r), std::move(respond));
        });
    if (!succeeded(h->m_server->start(), error))
        return nullptr;
    h->reader = h->database->open(QStringLiteral("assert"));
    if (!h->reader) {
        *error = QStringLiteral("cannot open the assertion connection");
        return nullptr;
    }
    return h;
}

IngestHarness::~IngestHarness()
{
    if (m_server)
        m_server->stop(5'000);
    if (writer)
        writer->stop();
    reader.reset();
}

std::optional<RawResponse> IngestHarness::post(
    const QByteArray &source, const HeaderList &headers, const QByteArray &body)
{
    HeaderList all = headers;
    all.append(std::pair<QByteArray, QByteArray>("Content-Type", "application/json"));
    return roundTrip(port(), buildRequest("POST", "/hooks/" + source, all, body));
}

std::optional<RawResponse> IngestHarness::postFrom(const QByteArray &from, const QByteArray &to,
    const QByteArray &source, const HeaderList &headers, const QByteArray &body)
{
    HeaderList all = headers;
    all.append(std::pair<QByteArray, QByteArray>("Content-Type", "application/json"));
    return roundTripFrom(from, to, port(), buildRequest("POST", "/hooks/" + source, all, body));
}

QVariant IngestHarness::scalar(const QString &sql, const QVariantList &binds)
{
    QSqlQuery q(reader->handle());
    q.prepare(sql);
    for (const auto &b : binds)
        q.addBindValue(b);
    if (!q.exec()) {
        qWarning("query failed: %s: %s", qPrintable(sql), qPrintable(sqlErrorText(q)));
        return {};
    }
    return q.next() ? q.value(0) : QVariant();
}

QVariantMap IngestHarness::row(const QString &sql, const QVariantList &binds)
{
    QSqlQuery q(reader->handle());
    q.prepare(sql);
    for (const auto &b : binds)
        q.addBindValue(b);
    QVariantMap out;
    if (!q.exec() || !q.next())
        return out;
    const QSqlRecord record = q.record();
    for (int i = 0; i < record.count(); ++i)
        out.insert(record.fieldName(i), q.value(i));
    return out;
}

double IngestHarness::metric(const QByteArray &series) const
{
    const QByteArray text = registry.renderPrometheus();
    const QByteArray prefix = series + ' ';
    for (const QByteArray &line : text.split('\n')) {
        if (line.startsWith(prefix))
            return line.sliced(series.size() + 1).toDouble();
    }
    return -1;
}

} // namespace redrive::test
