// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#include "sections.h"

#include "secretspec.h"
#include "tablereader.h"
#include "util/headers.h"
#include "validation/schemavalidator.h"

#include <QDir>
#include <QFileInfo>
#include <QHostAddress>

namespace redrive::config_detail {
namespace {

bool isValidName(const QString &name)
{
    if (name.isEmpty() || name.size() > 64)
        return false;
    for (QChar c : name) {
        if (!(c.isLetterOrNumber() && c.unicode() < 128) && c != u'-' && c != u'_' && c != u'.')
            return false;
    }
    return true;
}

std::optional<Endpoint> parseEndpoint(const QString &text)
{
    QString host;
    QString port;
    if (text.startsWith(u'[')) {
        const auto close = text.indexOf(u']');
        if (close < 0 || close + 1 >= text.size() || text[close + 1] != u':')
            return std::nullopt;
        host = text.mid(1, close - 1);
        port = text.mid(close + 2);
    } else {
        const auto colon = text.lastIndexOf(u':');
        if (colon <= 0 || text.indexOf(u':') != colon)
            return std::nullopt;
        host = text.left(colon);
        port = text.mid(colon + 1);
    }
    bool ok = false;
    const uint p = port.toUInt(&ok);
    if (!ok || p > 65535 || host.isEmpty())
        return std::nullopt;
    QHostAddress address;
    if (!address.setAddress(host) && host.compare(QLatin1String("localhost"), Qt::CaseInsensitive) != 0)
        return std::nullopt;
    return Endpoint { host, static_cast<quint16>(p) };
}

bool parseIpRanges(TableReader &r, const char *key, IpRanges &out)
{
    QStringList texts;
    if (!r.stringList(key, texts))
        return false;
    for (qsizetype i = 0; i < texts.size(); ++i) {
        QString reason;
        const auto range = IpRanges::parse(texts[i], &reason);
        if (!range)
            return r.fail(QStringLiteral("%1[%2]").arg(QLatin1String(key)).arg(i), reason);
        out.append(*range);
    }
    return true;
}

} // namespace

bool parseServer(const toml::table &t, Config &cfg, ConfigError *error)
{
    TableReader r(t, QStringLiteral("server"), error);
    auto &s = cfg.server;
    QString listen = s.listen.toString();
    QString admin;
    r.string("listen", listen);
    r.string("admin_listen", admin);
    r.integer("max_body_bytes", s.maxBodyBytes, 1, 256LL * 1024 * 1024);
    r.integer("max_header_bytes", s.maxHeaderBytes, 1024, 1024 * 1024);
    r.integer("max_connections", s.maxConnections, 1, 1'000'000);
    qint64 readTimeout = s.readTimeoutMs, idleTimeout = s.idleTimeoutMs, replyTimeout = s.replyTimeoutMs;
    r.duration("read_timeout", readTimeout, 100, 3'600'000);
    r.duration("idle_timeout", idleTimeout, 100, 86'400'000);
    r.duration("reply_timeout", replyTimeout, 100, 600'000);
    s.readTimeoutMs = static_cast<int>(readTimeout);
    s.idleTimeoutMs = static_cast<int>(idleTimeout);
    s.replyTimeoutMs = static_cast<int>(replyTimeout);
    r.integer("io_threads", s.ioThreads, 1, 64);
    r.integer("write_queue_capacity", s.writeQueueCapacity, 1, 10'000'000);
    r.string("tls_cert", s.tlsCert);
    r.string("tls_key", s.tlsKey);
    QString logFormat = QStringLiteral("text");
    r.string("log_format", logFormat);
    if (r.failed() || !parseIpRanges(r, "trusted_proxies", s.trustedProxies))
        return false;
    if (logFormat != u"text" && logFormat != u"json")
        return r.fail(QStringLiteral("log_format"), QStringLiteral("must be \"text\" or \"json\""));
    s.jsonLogs = logFormat == u"json";
    const auto ep = parseEndpoint(listen);
    if (!ep)
        return r.fail(QStringLiteral("listen"),
            QStringLiteral("must be HOST:PORT, e.g. \"127.0.0.1:8080\" or \"[::1]:8080\""));
    s.listen = *ep;
    if (!admin.isEmpty()) {
        const auto aep = parseEndpoint(admin);
        if (!aep)
            return r.fail(
                QStringLiteral("admin_listen"), QStringLiteral("must be HOST:PORT, e.g. \"127.0.0.1:8081\""));
        s.adminListen = *aep;
    }
    if (s.tlsCert.isEmpty() != s.tlsKey.isEmpty())
        return r.fail(s.tlsCert.isEmpty() ? QStringLiteral("tls_cert") : QStringLiteral("tls_key"),
            QStringLiteral("tls_cert and tls_key must be set together"));
    if (s.adminListen && s.tlsCert.isEmpty() && !s.adminListen->isLoopback())
        return r.fail(QStringLiteral("admin_listen"),
            QStringLiteral("plain HTTP is only allowed on a loopback address; set tls_cert and tls_key"));
    return r.finish();
}

bool parseStorage(const toml::table &t, Config &cfg, ConfigError *error)
{
    TableReader r(t, QStringLiteral("storage"), error);
    auto &s = cfg.storage;
    QString sync = QStringLiteral("full");
    r.string("url", s.url, true);
    r.string("sqlite_synchronous", sync);
    r.integer("batch_max", s.batchMax, 1, 10'000);
    int writers = 0; // unset
    r.integer("writer_connections", writers, 1, StorageConfig::kMaxWriterConnections);
    r.integer("retention_days", s.retentionDays, 1, 3650);
    r.integer("rejections_keep", s.rejectionsKeep, 10, 10'000'000);
    if (r.failed())
        return false;
    if (sync == u"full")
        s.sqliteSynchronous = SqliteSync::Full;
    else if (sync == u"normal")
        s.sqliteSynchronous = SqliteSync::Normal;
    else
        return r.fail(QStringLiteral("sqlite_synchronous"), QStringLiteral("must be \"full\" or \"normal\""));
    if (!s.url.startsWith(QLatin1String("sqlite:")) && !s.url.startsWith(QLatin1String("postgresql:"))
        && !s.url.startsWith(QLatin1String("postgres:")))
        return r.fail(QStringLiteral("url"), QStringLiteral("must start with sqlite:// or postgresql://"));
    const bool sqlite = s.url.startsWith(QLatin1String("sqlite:"));
    if (sqlite && writers > 1)
        return r.fail(QStringLiteral("writer_connections"),
            QStringLiteral("must be 1 with SQLite, which commits one writer at a time (got %1)")
                .arg(writers));
    s.writerConnections = writers > 0 ? writers
        : sqlite                      ? 1
                                      : StorageConfig::kDefaultPostgresWriterConnections;
    return r.finish();
}

bool parseIncidents(const toml::table &t, Config &cfg, ConfigError *error)
{
    TableReader r(t, QStringLiteral("incidents"), error);
    auto &i = cfg.incidents;
    r.integer("grow_threshold", i.growThreshold, 1, 1'000'000);
    r.duration("check_interval", i.checkIntervalMs, 1000, 3'600'000);
    return r.finish();
}

bool parseDelivery(const toml::table &t, Config &cfg, ConfigError *error)
{
    TableReader r(t, QStringLiteral("delivery"), error);
    auto &d = cfg.delivery;
    r.boolean("enabled", d.enabled);
    r.integer("max_in_flight", d.maxInFlight, 1, 100'000);
    qint64 lease = d.leaseMs, poll = d.pollIntervalMs, sweep = d.sweepIntervalMs;
    r.duration("lease", lease, 500, 3'600'000);
    r.duration("poll_interval", poll, 10, 60'000);
    r.duration("sweep_interval", sweep, 100, 600'000);
    d.leaseMs = static_cast<int>(lease);
    d.pollIntervalMs = static_cast<int>(poll);
    d.sweepIntervalMs = static_cast<int>(sweep);
    r.string("worker_id", d.workerId);
    r.number("jitter", d.jitter, 0.0, 0.5);
    r.duration("retry_after_max", d.retryAfterMaxMs, 1000, 7LL * 86'400'000);
    r.integer("response_excerpt_bytes", d.responseExcerptBytes, 0, 1024 * 1024);
    return r.finish();
}

bool parseAdmin(const toml::table &t, Config &cfg, ConfigError *error)
{
    TableReader r(t, QStringLiteral("admin"), error);
    auto &a = cfg.admin;
    r.string("audit_key_file", a.auditKeyFile);
    r.duration("approval_ttl", a.approvalTtlMs, 60'000, 30LL * 86'400'000);
    r.duration("selection_ttl", a.selectionTtlMs, 10'000, 7LL * 86'400'000);
    r.integer("max_selection", a.maxSelection, 1, 1'000'000);
    r.duration("reply_timeout", a.replyTimeoutMs, 100, 600'000);
    r.number("replay_rate_per_second", a.replayRatePerSecond, 0.01, 100'000);
    r.integer("halt_after", a.haltAfter, 1, 100'000);
    r.number("halt_failure_ratio", a.haltFailureRatio, 0.0, 1.0);
    return r.finish();
}

namespace {

bool parseSecrets(TableReader &r, const char *key, QList<Secret> &out, bool required, SchemeKind scheme)
{
    QStringList specs;
    if (!r.stringList(key, specs, required))
        return false;
    if (required && specs.isEmpty())
        return r.fail(QLatin1String(key), QStringLiteral("needs at least one secret"));
    for (qsizetype i = 0; i < specs.size(); ++i) {
        const QString elementKey = QStringLiteral("%1[%2]").arg(QLatin1String(key)).arg(i);
        QString reason;
        auto value = resolveSecretValue(specs[i], &reason);
        if (!value)
            return r.fail(elementKey, reason);
        Secret secret { secretLabel(specs[i], r.keyPath(elementKey)), *value };
        if (scheme == SchemeKind::StandardWebhooks) {
            auto decoded = decodeWhsec(*value);
            if (!decoded)
                return r.fail(elementKey,
                    QStringLiteral("a standard-webhooks secret must be \"whsec_\" followed by base64"));
            secret.key = *decoded;
        }
        out.append(secret);
    }
    return true;
}

// RFC 6901: empty (the whole document) or '/'-separated tokens where '~' is only "~0" or "~1".
// The whole body is never a useful key, so the empty pointer is refused too.
bool isValidJsonPointer(const QString &pointer)
{
    if (!pointer.startsWith(u'/'))
        return false;
    for (qsizetype i = 0; i < pointer.size(); ++i) {
        if (pointer[i] == u'~'
            && (i + 1 >= pointer.size() || (pointer[i + 1] != u'0' && pointer[i + 1] != u'1')))
            return false;
    }
    return true;
}

// RFC 9110 token characters, the only ones a header name may hold.
bool isHeaderName(const QString &name)
{
    if (name.isEmpty() || name.size() > 128)
        return false;
    for (QChar c : name) {
        const char16_t u = c.unicode();
        const bool alnum = (u >= u'a' && u <= u'z') || (u >= u'A' && u <= u'Z') || (u >= u'0' && u <= u'9');
        if (!alnum && QStringView(u"!#$%&'*+-.^_`|~").indexOf(c) < 0)
            return false;
    }
    return true;
}

// `keys = { order = "json:/data/object/metadata/order_id", shop = "header:X-Shop-Domain" }`.
bool parseBusinessKeys(TableReader &r, QList<BusinessKey> &out)
{
    const toml::node *n = r.node("keys");
    if (!n)
        return true;
    const auto *table = n->as_table();
    if (!table)
        return r.fail(QStringLiteral("keys"),
            QStringLiteral("must be a table of name = \"json:/pointer\" or \"header:NAME\""));
    if (table->size() > static_cast<std::size_t>(kMaxBusinessKeysPerSource))
        return r.fail(
            QStringLiteral("keys"), QStringLiteral("names more than %1 keys").arg(kMaxBusinessKeysPerSource));
    for (const auto &[k, v] : *table) {
        BusinessKey key;
        key.name = qs(k.str());
        const QString path = QStringLiteral("keys.") + key.name;
        if (!isValidName(key.name))
            return r.fail(path,
                QStringLiteral("a key name must be 1-64 characters of letters, digits, '-', '_' or '.'"));
        const auto *text = v.as_string();
        if (!text)
            return r.fail(path, QStringLiteral("must be a string, \"json:/pointer\" or \"header:NAME\""));
        const QString spec = qs(text->get());
        if (spec.startsWith(QLatin1String("json:"))) {
            const QString pointer = spec.mid(5);
            if (!isValidJsonPointer(pointer))
                return r.fail(path,
                    QStringLiteral("\"%1\" is not a JSON pointer: it must start with '/' and use '~' only as "
                                   "~0 or ~1 (RFC 6901)")
                        .arg(pointer));
            key.kind = BusinessKey::Kind::JsonPointer;
            key.pointer = pointer.toUtf8();
        } else if (spec.startsWith(QLatin1String("header:"))) {
            const QString header = spec.mid(7);
            if (!isHeaderName(header))
                return r.fail(path, QStringLiteral("\"%1\" is not a header name").arg(header));
            const QByteArray latin = header.toLatin1();
            // A stored key is shown to every console user: never a credential or a signature.
            if (Headers::isSensitive(latin) || Headers::isSignature(latin))
                return r.fail(path,
                    QStringLiteral("header %1 carries a credential or a signature and is never stored")
                        .arg(header));
            key.kind = BusinessKey::Kind::Header;
            key.header = latin;
        } else {
            return r.fail(path, QStringLiteral("must be \"json:/pointer\" or \"header:NAME\""));
        }
        out.append(key);
    }
    return true;
}

// `redact = ["/data/object/customer_email", …]`: body values support must not see (privacy by
// role). A business key read from a redacted value (its pointer at or under one of these) is
// still searchable, and marked so that nobody is shown its value.
bool parseRedact(TableReader &r, QList<QByteArray> &out, QList<BusinessKey> &keys)
{
    const toml::node *n = r.node("redact");
    if (!n)
        return true;
    const auto *array = n->as_array();
    if (!array)
        return r.fail(QStringLiteral("redact"), QStringLiteral("must be an array of JSON pointers"));
    if (array->size() > static_cast<std::size_t>(kMaxRedactPointersPerSource))
        return r.fail(QStringLiteral("redact"),
            QStringLiteral("names more than %1 pointers").arg(kMaxRedactPointersPerSource));
    for (std::size_t i = 0; i < array->size(); ++i) {
        const QString path = QStringLiteral("redact[%1]").arg(i);
        const toml::node *element = array->get(i);
        const auto *text = element ? element->as_string() : nullptr;
        if (!text)
            return r.fail(
                path, QStringLiteral("must be a string, a JSON pointer such as \"/data/object/email\""));
        const QString pointer = qs(text->get());
        if (!isValidJsonPointer(pointer))
            return r.fail(path,
                QStringLiteral(
                    "\"%1\" is not a JSON pointer: it must start with '/' and use '~' only as ~0 or "
                    "~1 (RFC 6901)")
                    .arg(pointer));
        const QByteArray utf8 = pointer.toUtf8();
        if (out.contains(utf8))
            return r.fail(path, QStringLiteral("\"%1\" is listed twice").arg(pointer));
        out.append(utf8);
    }
    for (BusinessKey &key : keys) {
        if (key.kind != BusinessKey::Kind::JsonPointer)
            continue;
        for (const QByteArray &pointer : std::as_const(out)) {
            if (key.pointer == pointer || key.pointer.startsWith(QByteArray(pointer + '/')))
                key.redacted = true;
        }
    }
    return true;
}

// `[[sources.schemas]]`: event-type globs, a JSON Schema file (compiled here, once) and what an
// event that fails it gets. A schema that does not load is a configuration error naming the file,
// so `redrived check` and start refuse it instead of letting every event through unchecked.
bool parseSchemas(TableReader &r, const QString &configPath, QList<SchemaRule> &out, ConfigError *error)
{
    const toml::node *n = r.node("schemas");
    if (!n)
        return true;
    const auto *array = n->as_array();
    if (!array)
        return r.fail(
            QStringLiteral("schemas"), QStringLiteral("must be an array of tables ([[sources.schemas]])"));
    const QDir base = QFileInfo(configPath).absoluteDir();
    for (std::size_t i = 0; i < array->size(); ++i) {
        const QString key = QStringLiteral("schemas[%1]").arg(i);
        const toml::node *element = array->get(i);
        const auto *table = element ? element->as_table() : nullptr;
        if (!table)
            return r.fail(key, QStringLiteral("must be a table"));
        TableReader s(*table, r.keyPath(key), error);
        SchemaRule rule;
        QString onInvalid = QStringLiteral("quarantine");
        s.stringList("event_types", rule.eventTypes, true);
        s.string("schema", rule.path, true);
        s.string("on_invalid", onInvalid);
        if (s.failed())
            return false;
        if (rule.eventTypes.isEmpty())
            return s.fail(QStringLiteral("event_types"),
                QStringLiteral("needs at least one event type glob, e.g. [\"invoice.*\"] or [\"*\"]"));
        for (qsizetype t = 0; t < rule.eventTypes.size(); ++t) {
            if (rule.eventTypes[t].isEmpty())
                return s.fail(QStringLiteral("event_types[%1]").arg(t), QStringLiteral("must not be empty"));
        }
        if (onInvalid == u"quarantine")
            rule.onInvalid = SchemaRule::OnInvalid::Quarantine;
        else if (onInvalid == u"reject")
            rule.onInvalid = SchemaRule::OnInvalid::Reject;
        else
            return s.fail(
                QStringLiteral("on_invalid"), QStringLiteral("must be \"quarantine\" or \"reject\""));
        if (rule.path.isEmpty())
            return s.fail(QStringLiteral("schema"), QStringLiteral("must be the path of a JSON Schema file"));
        rule.path = QDir::cleanPath(base.absoluteFilePath(rule.path)); // relative to the config file
        QString loadError;
        rule.schema = validation::CompiledSchema::load(rule.path, &loadError);
        if (!rule.schema)
            return s.fail(QStringLiteral("schema"), loadError);
        if (!s.finish())
            return false;
        out.append(rule);
    }
    return true;
}

} // namespace

bool parseSource(const toml::table &t, const QString &path, Config &cfg, ConfigError *error)
{
    TableReader r(t, path, error);
    SourceConfig s;
    QString scheme;
    r.string("name", s.name, true);
    r.string("scheme", scheme, true);
    if (r.failed())
        return false;
    if (!isValidName(s.name))
        return r.fail(QStringLiteral("name"),
            QStringLiteral("must be 1-64 characters of letters, digits, '-', '_' or '.'"));
    if (cfg.source(s.name))
        return r.fail(QStringLiteral("name"), QStringLiteral("duplicate source name \"%1\"").arg(s.name));
    if (s.name == QLatin1String(kInternalSource))
        return r.fail(QStringLiteral("name"),
            QStringLiteral("\"%1\" is reserved: the receiver's own notifications are its events")
                .arg(s.name));
    const auto kind = schemeKindFromString(scheme);
    if (!kind)
        return r.fail(QStringLiteral("scheme"),
            QStringLiteral("must be one of standard-webhooks, stripe, github, shopify, hmac-sha256"));
    s.scheme = *kind;
    if (!parseSecrets(r, "secrets", s.secrets, true, s.scheme))
        return false;
    r.integer("tolerance_seconds", s.toleranceSeconds, 1, 86'400);

    // Options only the generic scheme reads.
    QString header, encoding, prefix, idHeader, idPointer, typeHeader, typePointer;
    r.string("signature_header", header);
    r.string("signature_encoding", encoding);
    r.string("signature_prefix", prefix);
    r.string("id_header", idHeader);
    r.string("id_json_pointer", idPointer);
    r.string("type_header", typeHeader);
    r.string("type_json_pointer", typePointer);
    if (r.failed())
        return false;
    const bool anyHmacOption = !header.isEmpty() || !encoding.isEmpty() || !prefix.isEmpty()
        || !idHeader.isEmpty() || !idPointer.isEmpty() || !typeHeader.isEmpty() || !typePointer.isEmpty();
    if (anyHmacOption && s.scheme != SchemeKind::HmacSha256)
        return r.fail(QStringLiteral("scheme"),
            QStringLiteral("signature_*, id_* and type_* options apply only to scheme \"hmac-sha256\""));
    if (!header.isEmpty())
        s.hmac.signatureHeader = header.toLatin1();
    if (encoding == u"base64")
        s.hmac.encoding = HmacOptions::Encoding::Base64;
    else if (!encoding.isEmpty() && encoding != u"hex")
        return r.fail(QStringLiteral("signature_encoding"), QStringLiteral("must be \"hex\" or \"base64\""));
    s.hmac.signaturePrefix = prefix.toLatin1();
    s.hmac.idHeader = idHeader.toLatin1();
    s.hmac.typeHeader = typeHeader.toLatin1();
    for (const auto &[key, pointer] :
        { std::pair { "id_json_pointer", &idPointer }, std::pair { "type_json_pointer", &typePointer } }) {
        if (!pointer->isEmpty() && !pointer->startsWith(u'/'))
            return r.fail(QLatin1String(key), QStringLiteral("must be a JSON pointer starting with '/'"));
    }
    s.hmac.idJsonPointer = idPointer;
    s.hmac.typeJsonPointer = typePointer;
    s.dedupeByBody = schemeLeavesIdUnsigned(s);
    r.boolean("dedupe_by_body", s.dedupeByBody);
    if (!parseBusinessKeys(r, s.keys) || !parseRedact(r, s.redact, s.keys)
        || !parseIpRanges(r, "allowed_ips", s.allowedIps))
        return false;
    if (!parseSchemas(r, cfg.path, s.schemas, error))
        return false;
    for (const BusinessKey &key : s.keys) {
        if (key.kind == BusinessKey::Kind::Header && Headers::isSignature(key.header, s.hmac.signatureHeader))
            return r.fail(QStringLiteral("keys.") + key.name,
                QStringLiteral("header %1 is this source's signature header and is never stored")
                    .arg(QString::fromLatin1(key.header)));
    }
    if (const toml::node *reconcile = r.node("reconcile")) {
        if (!parseReconcile(*reconcile, r.keyPath(QStringLiteral("reconcile")), s, error))
            return false;
    }
    if (!r.finish())
        return false;
    cfg.sources.append(s);
    return true;
}

namespace {

// `signing_secret`: outgoing Standard Webhooks signatures (destinations and notification targets).
// Resolved like the sources' secrets; a "whsec_" value is base64-decoded to the key.
bool parseSigningSecret(TableReader &r, std::optional<Secret> &out)
{
    QString spec;
    r.string("signing_secret", spec);
    if (r.failed())
        return false;
    if (spec.isEmpty())
        return true;
    QString reason;
    auto value = resolveSecretValue(spec, &reason);
    if (!value)
        return r.fail(QStringLiteral("signing_secret"), reason);
    Secret secret { secretLabel(spec, r.keyPath(QStringLiteral("signing_secret"))), *value };
    if (value->startsWith("whsec_")) {
        auto decoded = decodeWhsec(*value);
        if (!decoded)
            return r.fail(
                QStringLiteral("signing_secret"), QStringLiteral("\"whsec_\" must be followed by base64"));
        secret.key = *decoded;
    }
    out = secret;
    return true;
}

// An absolute http(s) URL without credentials (destinations and notification targets).
bool parseTargetUrl(TableReader &r, const QString &text, QUrl &out)
{
    out = QUrl(text, QUrl::StrictMode);
    const QString scheme = out.scheme().toLower();
    if (!out.isValid() || (scheme != u"http" && scheme != u"https") || out.host().isEmpty())
        return r.fail(QStringLiteral("url"), QStringLiteral("must be an absolute http:// or https:// URL"));
    if (!out.userInfo().isEmpty())
        return r.fail(
            QStringLiteral("url"), QStringLiteral("must not carry credentials; use signing_secret"));
    return true;
}

// circuit = { failures = 5, within = "1m", probe_every = "30s" }
bool parseCircuit(const toml::node &node, const QString &path, DestinationConfig &d, ConfigError *error)
{
    const auto *table = node.as_table();
    if (!table) {
        *error = ConfigError { path,
            QStringLiteral(
                "must be a table such as { failures = 5, within = \"1m\", probe_every = \"30s\" }") };
        return false;
    }
    TableReader r(*table, path, error);
    CircuitConfig c;
    r.integer("failures", c.failures, 1, 10'000);
    r.duration("within", c.withinMs, 1'000, 86'400'000);
    r.duration("probe_every", c.probeEveryMs, 1'000, 86'400'000);
    if (!r.finish())
        return false;
    d.circuit = c;
    return true;
}

} // namespace

bool parseDestination(const toml::table &t, const QString &path, Config &cfg, ConfigError *error)
{
    TableReader r(t, path, error);
    DestinationConfig d;
    QString url, risk = QStringLiteral("low"), successRef, ordering;
    QStringList schedule;
    r.string("name", d.name, true);
    r.string("url", url, true);
    r.string("risk", risk);
    r.integer("timeout_ms", d.timeoutMs, 10, 600'000);
    r.integer("max_attempts", d.maxAttempts, 1, 1000);
    r.stringList("retry_schedule", schedule);
    r.integer("concurrency", d.concurrency, 1, 10'000);
    r.number("rate_per_second", d.ratePerSecond, 0, 1'000'000);
    r.string("success_ref", successRef);
    r.boolean("allow_private", d.allowPrivate);
    r.string("ordering_key", ordering);
    r.string("ca_file", d.caFile);
    if (const toml::node *circuit = r.node("circuit")) {
        if (!parseCircuit(*circuit, r.keyPath(QStringLiteral("circuit")), d, error))
            return false;
    }
    if (r.failed())
        return false;
    if (!isValidName(d.name))
        return r.fail(QStringLiteral("name"),
            QStringLiteral("must be 1-64 characters of letters, digits, '-', '_' or '.'"));
    if (cfg.destination(d.name))
        return r.fail(
            QStringLiteral("name"), QStringLiteral("duplicate destination name \"%1\"").arg(d.name));
    if (!parseTargetUrl(r, url, d.url))
        return false;
    const auto riskValue = riskFromString(risk);
    if (!riskValue)
        return r.fail(QStringLiteral("risk"), QStringLiteral("must be \"low\" or \"high\""));
    d.risk = *riskValue;
    for (qsizetype i = 0; i < schedule.size(); ++i) {
        const auto ms = parseDuration(schedule[i]);
        if (!ms || *ms > 30LL * 86'400'000)
            return r.fail(QStringLiteral("retry_schedule[%1]").arg(i),
                QStringLiteral("must be a duration up to 30d such as \"5s\", \"5m\" or \"2h\""));
        d.retryScheduleMs.append(*ms);
    }
    if (!successRef.isEmpty()) {
        if (successRef.startsWith(QLatin1String("header:")) && successRef.size() > 7) {
            d.successRef = { SuccessRef::Kind::Header, successRef.mid(7) };
        } else if (successRef.startsWith(QLatin1String("json:/"))) {
            d.successRef = { SuccessRef::Kind::JsonPointer, successRef.mid(5) };
        } else {
            return r.fail(QStringLiteral("success_ref"),
                QStringLiteral("must be \"header:NAME\" or \"json:/pointer\""));
        }
    }
    if (!ordering.isEmpty()) {
        if (!ordering.startsWith(QLatin1String("json:/")))
            return r.fail(QStringLiteral("ordering_key"), QStringLiteral("must be \"json:/pointer\""));
        d.orderingKeyPointer = ordering.mid(5);
    }
    if (!parseSigningSecret(r, d.signingSecret) || !r.finish())
        return false;
    cfg.destinations.append(d);
    return true;
}

bool parseNotification(const toml::table &t, const QString &path, Config &cfg, ConfigError *error)
{
    TableReader r(t, path, error);
    NotificationConfig n;
    QString url, format = QStringLiteral("json");
    r.string("name", n.name, true);
    r.string("url", url, true);
    r.string("format", format);
    r.stringList("kinds", n.kinds, true);
    r.boolean("allow_private", n.allowPrivate);
    r.string("console_profile", n.consoleProfile);
    r.integer("timeout_ms", n.timeoutMs, 10, 600'000);
    if (r.failed())
        return false;
    if (!isValidName(n.name))
        return r.fail(QStringLiteral("name"),
            QStringLiteral("must be 1-64 characters of letters, digits, '-', '_' or '.'"));
    for (const NotificationConfig &other : std::as_const(cfg.notifications)) {
        if (other.name == n.name)
            return r.fail(QStringLiteral("name"),
                QStringLiteral("duplicate notification target name \"%1\"").arg(n.name));
    }
    if (!parseTargetUrl(r, url, n.url))
        return false;
    if (format == u"json")
        n.format = NotificationConfig::Format::Json;
    else if (format == u"slack")
        n.format = NotificationConfig::Format::Slack;
    else
        return r.fail(QStringLiteral("format"), QStringLiteral("must be \"json\" or \"slack\""));
    if (n.kinds.isEmpty())
        return r.fail(QStringLiteral("kinds"),
            QStringLiteral("needs at least one of %1").arg(notificationKinds().join(QStringLiteral(", "))));
    for (qsizetype i = 0; i < n.kinds.size(); ++i) {
        if (!notificationKinds().contains(n.kinds[i]))
            return r.fail(QStringLiteral("kinds[%1]").arg(i),
                QStringLiteral("unknown kind \"%1\"; one of %2")
                    .arg(n.kinds[i].left(64), notificationKinds().join(QStringLiteral(", "))));
        if (n.kinds.indexOf(n.kinds[i]) != i)
            return r.fail(
                QStringLiteral("kinds[%1]").arg(i), QStringLiteral("\"%1\" is listed twice").arg(n.kinds[i]));
    }
    if (!n.consoleProfile.isEmpty() && !isValidName(n.consoleProfile))
        return r.fail(QStringLiteral("console_profile"),
            QStringLiteral("must be 1-64 characters of letters, digits, '-', '_' or '.'"));
    if (!parseSigningSecret(r, n.signingSecret))
        return false;
    if (n.format == NotificationConfig::Format::Json && !n.signingSecret)
        return r.fail(QStringLiteral("signing_secret"),
            QStringLiteral("is required for format \"json\" (receivers verify the Standard Webhooks "
                           "signature)"));
    if (!r.finish())
        return false;
    cfg.notifications.append(n);
    cfg.destinations.append(notificationDestination(n));
    return true;
}

bool parseRoute(const toml::table &t, const QString &path, Config &cfg, ConfigError *error)
{
    TableReader r(t, path, error);
    RouteConfig route;
    r.string("source", route.source, true);
    r.stringList("event_types", route.eventTypes);
    r.stringList("destinations", route.destinations, true);
    if (r.failed())
        return false;
    if (!cfg.source(route.source))
        return r.fail(QStringLiteral("source"), QStringLiteral("no source named \"%1\"").arg(route.source));
    if (route.destinations.isEmpty())
        return r.fail(QStringLiteral("destinations"), QStringLiteral("needs at least one destination"));
    for (qsizetype i = 0; i < route.destinations.size(); ++i) {
        if (!cfg.destination(route.destinations[i]))
            return r.fail(QStringLiteral("destinations[%1]").arg(i),
                QStringLiteral("no destination named \"%1\"").arg(route.destinations[i]));
    }
    for (qsizetype i = 0; i < route.eventTypes.size(); ++i) {
        if (route.eventTypes[i].isEmpty())
            return r.fail(QStringLiteral("event_types[%1]").arg(i), QStringLiteral("must not be empty"));
    }
    if (!r.finish())
        return false;
    cfg.routes.append(route);
    return true;
}

} // namespace redrive::config_detail
