// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#pragma once

#include "component.h"
#include "http/server.h"

namespace redrive::daemon {

// A second listener (the admin API) as a component: an http::Server with its own options and
// handler, started and stopped with the daemon.
class HttpServerComponent final : public Component {
public:
    HttpServerComponent(
        QString name, http::ServerOptions options, http::Handler handler, int graceMs = 10'000);
    [[nodiscard]] QString name() const override { return m_name; }
    Result<> start() override;
    void stop() override;
    [[nodiscard]] quint16 port() const { return m_server.port(); }

private:
    QString m_name;
    http::Server m_server;
    int m_graceMs;
};

// Edge options for [server].admin_listen: HTTPS when tls_cert and tls_key are set, the same
// header limit and timeouts as ingest, a 1 MiB body limit (admin requests are small JSON).
// nullopt when admin_listen is not configured.
std::optional<http::ServerOptions> adminServerOptions(const Config &config);

} // namespace redrive::daemon
