// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#include "httpcomponent.h"

namespace redrive::daemon {

HttpServerComponent::HttpServerComponent(
    QString name, http::ServerOptions options, http::Handler handler, int graceMs)
    : m_name(std::move(name))
    , m_server(std::move(options), std::move(handler))
    , m_graceMs(graceMs)
{ }

bool HttpServerComponent::start(QString *error)
{
    return m_server.start(error);
}

void HttpServerComponent::stop()
{
    m_server.stop(m_graceMs);
}

std::optional<http::ServerOptions> adminServerOptions(const Config &config)
{
    const ServerConfig &s = config.server;
    if (!s.adminListen)
        return std::nullopt;
    http::ServerOptions o;
    o.listen = *s.adminListen;
    o.maxBodyBytes = 1'048'576;
    o.maxHeaderBytes = s.maxHeaderBytes;
    o.maxConnections = std::min(s.maxConnections, 256);
    o.readTimeoutMs = s.readTimeoutMs;
    o.idleTimeoutMs = s.idleTimeoutMs;
    o.threads = 1;
    o.tlsCertFile = s.tlsCert;
    o.tlsKeyFile = s.tlsKey;
    o.name = QStringLiteral("admin");
    return o;
}

} // namespace redrive::daemon
