// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#include "checkcommand.h"

#include <QFile>
#include <QHostAddress>
#include <QUdpSocket>

#include <optional>

namespace redrive::daemon {
namespace {

struct Problem {
    QString key;
    QString reason;
};

bool isWildcard(const QHostAddress &address)
{
    return address == QHostAddress(QHostAddress::AnyIPv4) || address == QHostAddress(QHostAddress::AnyIPv6);
}

// A listen address must be one this host can bind: a wildcard, loopback or an interface address.
// Binding a UDP socket to it on port 0 answers that without touching the configured port (which
// the running receiver may hold) and without netlink, which the hardened unit does not allow.
std::optional<Problem> checkLocal(const Endpoint &endpoint, const QString &key)
{
    if (endpoint.isLoopback())
        return std::nullopt;
    QHostAddress address;
    if (!address.setAddress(endpoint.host))
        return Problem { key, QStringLiteral("%1 is not an IP address").arg(endpoint.host) };
    if (isWildcard(address))
        return std::nullopt;
    QUdpSocket probe;
    if (probe.bind(address, 0))
        return std::nullopt;
    return Problem { key,
        QStringLiteral("%1 is not an address of this host (%2); use 0.0.0.0, [::] or an interface address")
            .arg(endpoint.host, probe.errorString()) };
}

// Two sockets on one port collide when their hosts are equal or one is a wildcard covering the other.
bool collide(const Endpoint &a, const Endpoint &b)
{
    if (a.port != b.port || a.port == 0)
        return false;
    if (a.host.compare(b.host, Qt::CaseInsensitive) == 0)
        return true;
    auto address = [](const QString &host, QHostAddress *out) {
        if (host.compare(QLatin1String("localhost"), Qt::CaseInsensitive) == 0) {
            *out = QHostAddress(QHostAddress::LocalHost);
            return true;
        }
        return out->setAddress(host);
    };
    QHostAddress ha, hb;
    const bool aIp = address(a.host, &ha), bIp = address(b.host, &hb);
    if (!aIp || !bIp)
        return false;
    // [::] is dual-stack on Linux and takes the port for every address; 0.0.0.0 for IPv4 only.
    auto covers = [](const QHostAddress &wildcard, const QHostAddress &other) {
        if (wildcard == QHostAddress(QHostAddress::AnyIPv6))
            return true;
        return wildcard == QHostAddress(QHostAddress::AnyIPv4)
            && other.protocol() == QAbstractSocket::IPv4Protocol;
    };
    return covers(ha, hb) || covers(hb, ha) || ha.isEqual(hb, QHostAddress::TolerantConversion);
}

std::optional<Problem> checkReadable(const QString &path, const QString &key)
{
    if (path.isEmpty())
        return std::nullopt;
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return Problem { key, QStringLiteral("cannot read %1: %2").arg(path, file.errorString()) };
    if (file.read(1).isEmpty())
        return Problem { key, QStringLiteral("%1 is empty").arg(path) };
    return std::nullopt;
}

std::optional<Problem> firstProblem(const Config &config)
{
    const ServerConfig &s = config.server;
    if (auto p = checkLocal(s.listen, QStringLiteral("server.listen")))
        return p;
    if (s.adminListen) {
        if (auto p = checkLocal(*s.adminListen, QStringLiteral("server.admin_listen")))
            return p;
        if (collide(s.listen, *s.adminListen))
            return Problem { QStringLiteral("server.admin_listen"),
                QStringLiteral("%1 collides with server.listen %2; the admin API needs its own port")
                    .arg(s.adminListen->toString(), s.listen.toString()) };
    }
    if (auto p = checkReadable(s.tlsCert, QStringLiteral("server.tls_cert")))
        return p;
    if (auto p = checkReadable(s.tlsKey, QStringLiteral("server.tls_key")))
        return p;
    for (qsizetype i = 0; i < config.destinations.size(); ++i) {
        if (auto p
            = checkReadable(config.destinations[i].caFile, QStringLiteral("destinations[%1].ca_file").arg(i)))
            return p;
    }
    return std::nullopt;
}

} // namespace

int checkCommand(const Config &config, const QStringList &args, QTextStream &out, QTextStream &err)
{
    if (!args.isEmpty()) {
        err << "redrived: check takes no arguments\n";
        return 2;
    }
    if (const auto problem = firstProblem(config)) {
        err << "redrived: config error: " << problem->key << ": " << problem->reason << '\n';
        return 2;
    }
    qsizetype secrets = 0;
    for (const SourceConfig &source : config.sources)
        secrets += source.secrets.size();
    for (const DestinationConfig &destination : config.destinations)
        secrets += destination.signingSecret ? 1 : 0;
    // Notification targets are destinations inside (notify:<name>); counted as what they are.
    const qsizetype targets = config.notifications.size();
    out << "redrived: configuration " << config.path << " is valid: " << config.sources.size()
        << " source(s), " << config.destinations.size() - targets << " destination(s), "
        << config.routes.size() << " route(s), ";
    if (targets > 0)
        out << targets << " notification target(s), ";
    out << secrets << " secret(s) resolved; ingest on " << config.server.listen.toString();
    if (config.server.adminListen)
        out << ", admin API on " << config.server.adminListen->toString();
    out << '\n';
    return 0;
}

} // namespace redrive::daemon
