// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#include "config.h"

#include "sections.h"
#include "tablereader.h"
#include "util/privatefile.h"

#include <QFile>
#include <QHostAddress>

namespace redrive {

QString toString(SchemeKind kind)
{
    switch (kind) {
    case SchemeKind::StandardWebhooks:
        return QStringLiteral("standard-webhooks");
    case SchemeKind::Stripe:
        return QStringLiteral("stripe");
    case SchemeKind::GitHub:
        return QStringLiteral("github");
    case SchemeKind::Shopify:
        return QStringLiteral("shopify");
    case SchemeKind::HmacSha256:
        return QStringLiteral("hmac-sha256");
    }
    return {};
}

std::optional<SchemeKind> schemeKindFromString(QStringView name)
{
    for (auto kind : { SchemeKind::StandardWebhooks, SchemeKind::Stripe, SchemeKind::GitHub,
             SchemeKind::Shopify, SchemeKind::HmacSha256 }) {
        if (toString(kind) == name)
            return kind;
    }
    return std::nullopt;
}

bool schemeLeavesIdUnsigned(const SourceConfig &source)
{
    switch (source.scheme) {
    case SchemeKind::StandardWebhooks: // signs id.timestamp.body
    case SchemeKind::Stripe: // the id is in the signed body
        return false;
    case SchemeKind::GitHub: // X-GitHub-Delivery is not signed
    case SchemeKind::Shopify: // X-Shopify-Webhook-Id is not signed
        return true;
    case SchemeKind::HmacSha256:
        // An id from a header is unsigned; one from the body (or the body's digest) is not.
        return !source.hmac.idHeader.isEmpty();
    }
    return true;
}

const SchemaRule *SourceConfig::schemaFor(QStringView type) const
{
    for (const SchemaRule &rule : schemas) {
        for (const QString &pattern : rule.eventTypes) {
            if (globMatches(pattern, type))
                return &rule;
        }
    }
    return nullptr;
}

bool Endpoint::isLoopback() const
{
    if (host.compare(QLatin1String("localhost"), Qt::CaseInsensitive) == 0)
        return true;
    QHostAddress address;
    return address.setAddress(host) && address.isLoopback();
}

QString Endpoint::toString() const
{
    if (host.contains(QLatin1Char(':')))
        return QLatin1Char('[') + host + QLatin1String("]:") + QString::number(port);
    return host + QLatin1Char(':') + QString::number(port);
}

const SourceConfig *Config::source(QStringView name) const
{
    for (const auto &s : sources) {
        if (s.name == name)
            return &s;
    }
    return nullptr;
}

QString NotificationConfig::destinationName() const
{
    return QLatin1String(kNotifyDestinationPrefix) + name;
}

QString toString(NotificationConfig::Format format)
{
    return format == NotificationConfig::Format::Slack ? QStringLiteral("slack") : QStringLiteral("json");
}

const QStringList &notificationKinds()
{
    static const QStringList kinds { QStringLiteral("incident.opened"), QStringLiteral("incident.grew"),
        QStringLiteral("replay.pending_approval"), QStringLiteral("replay.halted"),
        QStringLiteral("circuit.opened"), QStringLiteral("circuit.closed"),
        QStringLiteral("reconcile.missing"), QStringLiteral("audit.chain_broken") };
    return kinds;
}

DestinationConfig notificationDestination(const NotificationConfig &target)
{
    DestinationConfig d;
    d.name = target.destinationName();
    d.url = target.url;
    d.risk = Risk::Low;
    d.timeoutMs = target.timeoutMs;
    // Its own small share of the engine: a target that hangs holds two requests, never the
    // event destinations' concurrency.
    d.concurrency = 2;
    d.signingSecret = target.signingSecret;
    d.allowPrivate = target.allowPrivate;
    return d;
}

const DestinationConfig *Config::destination(QStringView name) const
{
    for (const auto &d : destinations) {
        if (d.name == name)
            return &d;
    }
    return nullptr;
}

QStringList Config::routeDestinations(QStringView sourceName, QStringView type) const
{
    QStringList out;
    for (const auto &route : routes) {
        if (route.source != sourceName)
            continue;
        bool matched = route.eventTypes.isEmpty();
        for (const auto &pattern : route.eventTypes) {
            if (globMatches(pattern, type)) {
                matched = true;
                break;
            }
        }
        if (!matched)
            continue;
        for (const auto &d : route.destinations) {
            if (!out.contains(d))
                out.append(d);
        }
    }
    return out;
}

QString ConfigError::toString() const
{
    return key.isEmpty() ? reason : key + QLatin1String(": ") + reason;
}

std::optional<qint64> parseDuration(QStringView text)
{
    text = text.trimmed();
    if (text.isEmpty())
        return std::nullopt;
    qsizetype digits = 0;
    while (digits < text.size() && text[digits].isDigit())
        ++digits;
    if (digits == 0 || digits > 12)
        return std::nullopt;
    bool ok = false;
    const qint64 value = text.left(digits).toLongLong(&ok);
    if (!ok)
        return std::nullopt;
    const QStringView unit = text.mid(digits);
    qint64 factor = 0;
    if (unit == u"ms")
        factor = 1;
    else if (unit == u"s")
        factor = 1000;
    else if (unit == u"m")
        factor = 60'000;
    else if (unit == u"h")
        factor = 3'600'000;
    else if (unit == u"d")
        factor = 86'400'000;
    else
        return std::nullopt;
    return value * factor;
}

bool globMatches(QStringView pattern, QStringView text)
{
    // Iterative matcher with single-star backtracking: linear in practice, no recursion.
    qsizetype p = 0, t = 0, starP = -1, starT = 0;
    while (t < text.size()) {
        if (p < pattern.size() && (pattern[p] == u'?' || pattern[p] == text[t])) {
            ++p;
            ++t;
        } else if (p < pattern.size() && pattern[p] == u'*') {
            starP = p++;
            starT = t;
        } else if (starP >= 0) {
            p = starP + 1;
            t = ++starT;
        } else {
            return false;
        }
    }
    while (p < pattern.size() && pattern[p] == u'*')
        ++p;
    return p == pattern.size();
}

using namespace config_detail;

std::optional<Config> parseConfig(const QByteArray &toml, const QString &origin, ConfigError *error)
{
    ConfigError local;
    if (!error)
        error = &local;
    toml::table root;
    try {
        root = toml::parse(
            std::string_view(toml.constData(), static_cast<size_t>(toml.size())), origin.toStdString());
    } catch (const toml::parse_error &e) {
        *error = { QString(),
            QStringLiteral("%1:%2:%3: %4")
                .arg(origin)
                .arg(e.source().begin.line)
                .arg(e.source().begin.column)
                .arg(qs(e.description())) };
        return std::nullopt;
    }

    Config cfg;
    cfg.path = origin;
    const QStringList known
        = { QStringLiteral("server"), QStringLiteral("storage"), QStringLiteral("delivery"),
              QStringLiteral("admin"), QStringLiteral("sources"), QStringLiteral("destinations"),
              QStringLiteral("routes"), QStringLiteral("incidents"), QStringLiteral("notifications") };
    for (const auto &[k, v] : root) {
        if (!known.contains(qs(k.str()))) {
            *error = { qs(k.str()), QStringLiteral("unknown key") };
            return std::nullopt;
        }
    }

    auto section = [&](const char *key, auto parse) -> bool {
        const toml::node *n = root.get(key);
        if (!n)
            return true;
        const auto *t = n->as_table();
        if (!t) {
            *error = { QLatin1String(key), QStringLiteral("must be a table ([%1])").arg(QLatin1String(key)) };
            return false;
        }
        return parse(*t, cfg, error);
    };
    if (!section("server", parseServer) || !section("delivery", parseDelivery)
        || !section("admin", parseAdmin) || !section("incidents", parseIncidents))
        return std::nullopt;
    if (!root.get("storage")) {
        *error = { QStringLiteral("storage.url"), QStringLiteral("is required") };
        return std::nullopt;
    }
    if (!section("storage", parseStorage))
        return std::nullopt;
    const bool ok = forEachTableInArray(root, "sources", error, [&](const toml::table &t, const QString &p) {
        return parseSource(t, p, cfg, error);
    }) && forEachTableInArray(root, "destinations", error, [&](const toml::table &t, const QString &p) {
        return parseDestination(t, p, cfg, error);
    }) && forEachTableInArray(root, "routes", error, [&](const toml::table &t, const QString &p) {
        return parseRoute(t, p, cfg, error);
    }) && forEachTableInArray(root, "notifications", error, [&](const toml::table &t, const QString &p) {
        // After the routes: a route cannot name a notification target's internal destination.
        return parseNotification(t, p, cfg, error);
    });
    if (!ok)
        return std::nullopt;
    return cfg;
}

std::optional<Config> loadConfig(const QString &path, ConfigError *error)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly)) {
        if (error)
            *error = { QString(),
                QStringLiteral("cannot read config file %1: %2").arg(path, file.errorString()) };
        return std::nullopt;
    }
    // The file may hold literal secrets and always names where the others are.
    if (QString problem = privateFileProblem(file.handle(), path, QStringLiteral("config file"));
        !problem.isEmpty()) {
        if (error)
            *error = { QString(), problem };
        return std::nullopt;
    }
    return parseConfig(file.readAll(), path, error);
}

} // namespace redrive
