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

Result<> HttpServerComponent::start()
{
    return m_server.start();
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
    // A handler held by a hung database is answered anyway. Reads can simply be repeated; an
    // action may still complete after this answer, so the client is told its outcome is unknown
    // and should look before repeating it (replays, approvals and notes are audited either way).
    o.replyTimeoutMs = static_cast<int>(config.admin.replyTimeoutMs);
    o.onReplyTimeout = [timeoutMs = o.replyTimeoutMs] {
        http::Response r = http::Response::error(503, QStringLiteral("reply_timeout"),
            QStringLiteral("the receiver did not finish within %1 ms (its database may be hung); an action "
                           "may still complete: read its state before repeating it")
                .arg(timeoutMs));
        r.body.chop(1); // the closing brace
        r.body += ",\"outcome\":\"unknown\"}";
        r.headers.append({ QByteArrayLiteral("Retry-After"), QByteArrayLiteral("2") });
        return r;
    };
    return o;
}

} // namespace redrive::daemon
