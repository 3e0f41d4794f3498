// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#include "daemon.h"

#include "crypto/crypto.h"
#include "storage/schema.h"

#include <QCoreApplication>
#include <QLoggingCategory>
#include <QSysInfo>

namespace redrive::daemon {
namespace {
Q_LOGGING_CATEGORY(lcDaemon, "redrive.daemon")
}

Daemon::Daemon(
    std::shared_ptr<const Config> config, std::vector<ComponentFactory> components, const Clock &clock)
    : m_config(std::move(config))
    , m_factories(std::move(components))
    , m_clock(clock)
{ }

Daemon::~Daemon()
{
    stop();
}

quint16 Daemon::ingestPort() const
{
    return m_server ? m_server->port() : 0;
}

Result<> Daemon::checkSchema(const StorageUrl &url)
{
    OpenOptions options;
    options.sqliteSynchronous = m_config->storage.sqliteSynchronous;
    const auto db = Db::open(url, QStringLiteral("startup"), options);
    if (!db)
        return Failure(QStringLiteral("cannot open the database %1: %2").arg(url.redacted(), db.error()));
    const auto readVersion = schemaVersion(**db);
    const int version = readVersion.value_or(-1);
    const QString migrateHint = QStringLiteral("run `redrived --config %1 migrate`").arg(m_config->path);
    if (version < 0)
        return Failure(QStringLiteral("cannot read the schema version of %1: %2")
                           .arg(url.redacted(), readVersion.error()));
    if (version == 0)
        return Failure(QStringLiteral("the database %1 has no Redrive schema yet: %2 first")
                           .arg(url.redacted(), migrateHint));
    if (version < kSchemaVersion)
        return Failure(
            QStringLiteral("the database schema is at version %1 but this build needs version %2: %3")
                .arg(version)
                .arg(kSchemaVersion)
                .arg(migrateHint));
    if (version > kSchemaVersion)
        return Failure(
            QStringLiteral("the database schema is at version %1, newer than this build understands (%2): "
                           "upgrade redrived")
                .arg(version)
                .arg(kSchemaVersion));
    qCInfo(lcDaemon, "storage: %s, schema version %d", qUtf8Printable(url.redacted()), version);
    return ok();
}

Result<> Daemon::start()
{
    const auto url = StorageUrl::parse(m_config->storage.url);
    if (!url)
        return Failure(QStringLiteral("storage.url: %1").arg(url.error()));
    if (auto checked = checkSchema(*url); !checked)
        return checked;

    m_metrics
        .gauge(QStringLiteral("redrive_build_info"), QStringLiteral("Version of this redrived"),
            { { QStringLiteral("version"), QStringLiteral(REDRIVE_VERSION) } })
        .set(1);

    ingest::GroupCommitWriter::Options w;
    w.url = *url;
    w.sqliteSynchronous = m_config->storage.sqliteSynchronous;
    w.batchMax = m_config->storage.batchMax;
    w.connections = m_config->storage.writerConnections;
    w.queueCapacity = m_config->server.writeQueueCapacity;
    w.rejectionsKeep = m_config->storage.rejectionsKeep;
    w.instance.host = QSysInfo::machineHostName();
    w.instance.pid = QCoreApplication::applicationPid();
    w.instance.instanceId = QStringLiteral("%1:%2:%3")
                                .arg(w.instance.host)
                                .arg(w.instance.pid)
                                .arg(QString::fromLatin1(crypto::randomBytes(3).toHex()));
    w.instance.version = QStringLiteral(REDRIVE_VERSION);
    w.instance.startedAtMs = m_clock.nowMs();
    m_writer = std::make_unique<ingest::GroupCommitWriter>(m_config, w, m_metrics, m_clock);
    m_ingest = std::make_unique<ingest::IngestService>(m_config, *m_writer, m_metrics, m_clock);
    m_context.reset(new DaemonContext {
        m_config, *url, m_metrics, m_clock, *m_ingest, {}, {}, w.instance.instanceId, m_writer.get(), {} });

    for (const auto &factory : m_factories) {
        auto component = factory(*m_context);
        if (!component)
            return Failure(component.error());
        if (*component) // null: not configured here
            m_components.push_back(std::move(*component));
    }
    if (!m_context->commitListeners.empty()) {
        m_writer->setOnCommitted(
            [listeners = m_context->commitListeners](const ingest::CommitSummary &summary) {
                for (const auto &listener : listeners)
                    listener(summary);
            });
    }

    if (auto writing = m_writer->start(); !writing)
        return writing;
    const QString durability = m_writer->durabilityReport();
    if (m_writer->powerLossDurable()) {
        qCInfo(lcDaemon, "durability: %s (an acknowledged event survives power loss)",
            qUtf8Printable(durability));
    } else {
        qCWarning(lcDaemon,
            "durability: %s: acknowledged events are NOT power-loss durable (they survive a crash of "
            "redrived, not of the machine)",
            qUtf8Printable(durability));
    }

    for (auto &component : m_components) {
        if (const auto started = component->start(); !started) {
            stopComponents();
            m_writer->stop();
            return Failure(QStringLiteral("%1: %2").arg(component->name(), started.error()));
        }
        m_started.push_back(component.get());
        qCInfo(lcDaemon, "%s started", qUtf8Printable(component->name()));
    }

    m_server = std::make_unique<http::Server>(
        m_ingest->serverOptions(), [this](http::Request &&r, http::Responder respond) {
            m_ingest->handle(std::move(r), std::move(respond));
        });
    if (auto listening = m_server->start(); !listening) {
        stopComponents();
        m_writer->stop();
        return listening;
    }
    m_metrics.callbackGauge(QStringLiteral("redrive_http_open_connections"),
        QStringLiteral("Open client connections"),
        { { QStringLiteral("listener"), QStringLiteral("ingest") } },
        [server = m_server.get()] { return static_cast<double>(server->openConnections()); });
    m_running = true;
    qCInfo(lcDaemon, "redrived %s ready: %d source(s), %d destination(s), %d route(s)", REDRIVE_VERSION,
        static_cast<int>(m_config->sources.size()), static_cast<int>(m_config->destinations.size()),
        static_cast<int>(m_config->routes.size()));
    return ok();
}

void Daemon::stopComponents()
{
    for (auto it = m_started.rbegin(); it != m_started.rend(); ++it) {
        (*it)->stop();
        qCInfo(lcDaemon, "%s stopped", qUtf8Printable((*it)->name()));
    }
    m_started.clear();
}

void Daemon::stop()
{
    if (!m_running)
        return;
    m_running = false;
    qCInfo(lcDaemon, "shutting down: finishing requests in flight");
    m_server->stop(kShutdownGraceMs);
    stopComponents();
    const int queued = m_writer->queueDepth();
    m_writer->stop();
    qCInfo(lcDaemon, "writer drained (%d queued at shutdown); stopped", queued);
}

} // namespace redrive::daemon
