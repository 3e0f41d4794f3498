// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#pragma once

#include "config/config.h"
#include "groupcommitwriter.h"
#include "http/server.h"
#include "util/clock.h"
#include "util/metrics.h"

#include <functional>
#include <map>
#include <memory>
#include <vector>

namespace redrive::ingest {

// The ingest listener's routes:
//   POST /hooks/{source}  verify → group-commit writer → 200 {"id", "duplicate"} after the commit
//   GET  /healthz         the process is up
//   GET  /readyz          the writer runs and the database answers (plus any added checks)
//   GET  /metrics         Prometheus text
// Verification runs on the I/O thread (an OpenSSL HMAC costs microseconds); nothing here
// blocks. Thread-safe: the edge calls in from all of its I/O threads.
class IngestService final {
public:
    IngestService(std::shared_ptr<const Config> config, GroupCommitWriter &writer,
        metrics::Registry &registry, const Clock &clock = Clock::system());
    IngestService(const IngestService &) = delete;
    IngestService &operator=(const IngestService &) = delete;

    // Edge options from [server], with onHead and onRejected bound to this service.
    [[nodiscard]] http::ServerOptions serverOptions();
    // The edge handler (bind with [&](auto &&r, auto respond) { service.handle(...); }).
    void handle(http::Request &&request, http::Responder respond);
    // Answers unknown paths, unknown sources and wrong methods before the body is read.
    std::optional<http::Response> onHead(const http::RequestHead &head);
    void onEdgeRejected(const http::EdgeRejection &rejection);

    // Another component's readiness (e.g. the delivery engine). Add before the server starts.
    void addReadinessCheck(const QString &name, std::function<bool()> check);

    // Longest accepted provider event id and event type, in characters.
    static constexpr int kMaxIdLength = 1024;
    static constexpr int kMaxTypeLength = 512;

private:
    struct SourceEntry {
        QByteArray name; // UTF-8, as it appears in the path
        const SourceConfig *config = nullptr;
        metrics::Counter *requests = nullptr;
        metrics::Counter *received = nullptr;
        metrics::Counter *duplicates = nullptr;
        metrics::Counter *keysTooLong = nullptr;
        metrics::Counter *invalid = nullptr;
    };
    enum class Route { Hook, Health, Ready, NotFound, InvalidPath };
    struct Routed {
        Route route = Route::NotFound;
        QByteArray sourceName; // for Route::Hook
        QByteArray invalidPath; // for Route::InvalidPath
        const SourceEntry *source = nullptr;
    };

    [[nodiscard]] Routed route(const QByteArray &path) const;
    // The request's client address: the peer, or behind [server] trusted_proxies the right-most
    // untrusted X-Forwarded-For entry. What rejections and events record as remote_addr.
    [[nodiscard]] ClientAddress client(const QString &peer, const Headers &headers) const;
    // 403 ip_not_allowed when the source has allowed_ips and the client is not in them.
    std::optional<http::Response> refuseAddress(
        const SourceEntry &source, const Headers &headers, const QString &peer);
    std::optional<http::Response> checkRoute(
        const Routed &routed, const QByteArray &method, const Headers &headers, const QString &peer);
    void ingest(const SourceEntry &source, http::Request &&request, http::Responder &&respond);
    http::Response readiness() const;
    void recordRejection(const QString &source, int status, const QString &reason, const QString &detail,
        const Headers *headers, const QString &remoteAddress, QByteArrayView signatureHeader = {});
    metrics::Counter &rejectedCounter(const QString &reason);

    std::shared_ptr<const Config> m_config;
    GroupCommitWriter &m_writer;
    metrics::Registry &m_registry;
    const Clock &m_clock;
    std::vector<SourceEntry> m_sources;
    std::map<QString, metrics::Counter *> m_rejected; // filled in the constructor, read-only afterwards
    metrics::Counter &m_notFound;
    struct Unavailable {
        metrics::Counter *queueFull = nullptr;
        metrics::Counter *shuttingDown = nullptr;
        metrics::Counter *storeFailed = nullptr;
        metrics::Counter *databaseUnavailable = nullptr;
        metrics::Counter *replyTimeout = nullptr;
    } m_unavailable;
    std::vector<std::pair<QString, std::function<bool()>>> m_readinessChecks;
};

} // namespace redrive::ingest
