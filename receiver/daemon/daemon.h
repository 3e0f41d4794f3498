// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#pragma once

#include "component.h"
#include "config/config.h"
#include "http/server.h"
#include "ingest/groupcommitwriter.h"
#include "ingest/ingestservice.h"
#include "util/clock.h"
#include "util/metrics.h"

#include <memory>
#include <vector>

namespace redrive::daemon {

// `redrived --config FILE`: the group-commit writer, the components (delivery engine, admin
// API) and the ingest listener, started in that order and stopped in reverse.
class Daemon final {
public:
    Daemon(std::shared_ptr<const Config> config, std::vector<ComponentFactory> components,
        const Clock &clock = Clock::system());
    ~Daemon();
    Daemon(const Daemon &) = delete;
    Daemon &operator=(const Daemon &) = delete;

    // Refuses a database whose schema is older (run migrate) or newer (upgrade) than this build.
    Result<> start();
    // Graceful: stop accepting, finish in-flight requests (their responses are written), stop
    // the components, commit everything the writer still holds.
    void stop();

    [[nodiscard]] quint16 ingestPort() const;
    [[nodiscard]] metrics::Registry &metrics() { return m_metrics; }

    static constexpr int kShutdownGraceMs = 10'000;

private:
    Result<> checkSchema(const StorageUrl &url);
    void stopComponents();

    std::shared_ptr<const Config> m_config;
    std::vector<ComponentFactory> m_factories;
    const Clock &m_clock;
    metrics::Registry m_metrics;
    std::unique_ptr<ingest::GroupCommitWriter> m_writer;
    std::unique_ptr<ingest::IngestService> m_ingest;
    std::unique_ptr<DaemonContext> m_context;
    std::vector<std::unique_ptr<Component>> m_components;
    std::vector<Component *> m_started;
    std::unique_ptr<http::Server> m_server;
    bool m_running = false;
};

} // namespace redrive::daemon
