// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#pragma once

#include "domain/types.h"
#include "util/ipranges.h"

#include <QByteArray>
#include <QList>
#include <QString>
#include <QStringList>
#include <QUrl>

#include <memory>
#include <optional>

namespace redrive {

namespace validation {
class CompiledSchema;
}

// A secret taken from the configuration. `label` says where it came from ("env:NAME",
// "file:PATH", "credential:NAME" or "secrets[1]" for a literal) and is the only part ever logged or stored;
// `key` is the bytes the MAC uses (already decoded where the scheme asks for it).
struct Secret {
    QString label;
    QByteArray key;
};

enum class SchemeKind { StandardWebhooks, Stripe, GitHub, Shopify, HmacSha256 };
QString toString(SchemeKind kind);
std::optional<SchemeKind> schemeKindFromString(QStringView name);

// Options for the configurable generic scheme ("hmac-sha256").
struct HmacOptions {
    enum class Encoding { Hex, Base64 };
    QByteArray signatureHeader = QByteArrayLiteral("X-Signature");
    Encoding encoding = Encoding::Hex;
    QByteArray signaturePrefix; // stripped before decoding, e.g. "sha256="
    QByteArray idHeader; // stable id from a header ...
    QString idJsonPointer; // ... or from the body; neither → weak digest-derived id
    QByteArray typeHeader;
    QString typeJsonPointer;
};

// A business key worth searching by (`keys = { order = "json:/data/object/metadata/order_id" }`):
// at ingest its value is read from the body (an RFC 6901 pointer) or a header and stored beside
// the event, so support can find the events that carry a customer's order number.
struct BusinessKey {
    enum class Kind { JsonPointer, Header };
    QString name;
    Kind kind = Kind::JsonPointer;
    QByteArray pointer; // UTF-8 RFC 6901 pointer ("/data/object/id"), for JsonPointer
    QByteArray header; // header name, for Header
    // Read from a value the source redacts: searchable, never shown (events.redacted_keys).
    bool redacted = false;
};

// Longest key value stored, in characters; a longer value is not stored (and is counted).
inline constexpr int kMaxBusinessKeyValueLength = 200;
// Most keys one source may name.
inline constexpr int kMaxBusinessKeysPerSource = 16;
// Most `redact` pointers one source may name.
inline constexpr int kMaxRedactPointersPerSource = 32;

// `[sources.reconcile]`: how Redrive asks the provider what it sent, to find what never arrived
// (receiver/reconcile/, docs/operations.md). The credential is resolved like a secret; only its
// label is ever shown.
struct ReconcileConfig {
    enum class Provider { Stripe, GitHub };
    Provider provider = Provider::Stripe;
    QUrl apiUrl; // no trailing '/'; http only for a loopback host
    Secret credential;
    qint64 everyMs = 15LL * 60 * 1000; // 0: only when asked (POST sources/{name}/reconcile)
    qint64 lookbackMs = 72LL * 3600 * 1000;
    QString hook; // GitHub: "repos/OWNER/REPO/hooks/ID" (or orgs/ORG/hooks/ID)
};
QString toString(ReconcileConfig::Provider provider); // "stripe" | "github"
// `[[sources.schemas]]`: events whose type matches one of `eventTypes` are checked against the
// JSON Schema at `path` (compiled once, when the configuration is loaded). The first rule that
// matches decides; an event no rule matches is not validated.
struct SchemaRule {
    enum class OnInvalid { Quarantine, Reject };
    QStringList eventTypes; // globs
    QString path; // absolute
    OnInvalid onInvalid = OnInvalid::Quarantine;
    std::shared_ptr<const validation::CompiledSchema> schema;
};

struct SourceConfig {
    QString name;
    SchemeKind scheme = SchemeKind::StandardWebhooks;
    QList<Secret> secrets; // several = rotation; all are tried
    int toleranceSeconds = 300;
    HmacOptions hmac;
    // Also dedupe on the SHA-256 of the body (`dedupe_by_body`). On by default where the scheme
    // signs the body but not the id or type header (github, shopify, hmac-sha256 with an id
    // header): there a captured body and signature re-sent under a fresh id would otherwise be a
    // new event.
    bool dedupeByBody = false;
    QList<BusinessKey> keys; // by name
    // `redact`: RFC 6901 pointers (UTF-8) of body values everyone but destinations sees as
    // "[redacted]" (core/privacy/redaction.h). Empty: nothing is redacted.
    QList<QByteArray> redact;
    IpRanges allowedIps; // `allowed_ips`: the client addresses that may post; empty = any
    std::optional<ReconcileConfig> reconcile;
    QList<SchemaRule> schemas; // in config order

    // The rule for events of `type`, or null when none matches.
    [[nodiscard]] const SchemaRule *schemaFor(QStringView type) const;
};

// Whether the scheme's signature leaves the delivery id unsigned, so a captured body could come
// back under a new id: the default of `dedupe_by_body`.
bool schemeLeavesIdUnsigned(const SourceConfig &source);

// Where a destination's own reference for a delivered event comes from.
struct SuccessRef {
    enum class Kind { None, Header, JsonPointer };
    Kind kind = Kind::None;
    QString name; // header name or JSON pointer
};

// A destination's circuit breaker: `failures` retryable failures in a row within `within` open it;
// while open its deliveries are held and one probe is sent every `probe_every`.
struct CircuitConfig {
    int failures = 5;
    qint64 withinMs = 60'000;
    qint64 probeEveryMs = 30'000;
};

struct DestinationConfig {
    QString name;
    QUrl url;
    Risk risk = Risk::Low;
    int timeoutMs = 10'000;
    int maxAttempts = 8;
    QList<qint64> retryScheduleMs; // delays after attempt 1, 2, ...; empty → exponential
    int concurrency = 4;
    double ratePerSecond = 0; // 0 = unlimited
    std::optional<Secret> signingSecret;
    SuccessRef successRef;
    bool allowPrivate = false;
    QString orderingKeyPointer; // JSON pointer into the body, from "json:/a/b"; empty = unordered
    QString caFile; // extra CA bundle for https destinations
    std::optional<CircuitConfig> circuit; // omitted = no breaker
};

// `[[notifications]]`: an outside channel told about incidents, replays waiting for approval,
// circuits, reconciliation gaps and a broken audit chain (docs/operations.md "Notifications").
// Each target is delivered by the delivery engine as the internal destination `notify:<name>`
// (notificationDestination()), so it has the engine's retries, SSRF guard and dead letters.
struct NotificationConfig {
    enum class Format { Json, Slack };
    QString name;
    QUrl url;
    Format format = Format::Json;
    std::optional<Secret> signingSecret; // required for json; optional for slack
    QStringList kinds; // from notificationKinds(), in config order
    bool allowPrivate = false;
    QString consoleProfile; // ?profile= in the links; empty = none
    int timeoutMs = 10'000;

    [[nodiscard]] bool wants(QStringView kind) const { return kinds.contains(kind); }
    [[nodiscard]] QString destinationName() const; // "notify:<name>"
};
QString toString(NotificationConfig::Format format); // "json" | "slack"
// Every kind a notification may have: incident.opened, incident.grew, ...
const QStringList &notificationKinds();
// The source of the receiver's own events (notifications); no [[sources]] entry may take it.
inline constexpr char kInternalSource[] = "redrive";
// The prefix of the internal destinations that carry notifications ("notify:").
inline constexpr char kNotifyDestinationPrefix[] = "notify:";
// The internal destination a target is delivered through: its url, secret, allow_private and
// timeout, concurrency 2, the default retry schedule. A name no [[destinations]] entry can have.
DestinationConfig notificationDestination(const NotificationConfig &target);

struct RouteConfig {
    QString source;
    QStringList eventTypes; // globs; empty = all
    QStringList destinations;
};

struct Endpoint {
    QString host;
    quint16 port = 0;
    [[nodiscard]] bool isLoopback() const;
    [[nodiscard]] QString toString() const;
};

struct ServerConfig {
    Endpoint listen { QStringLiteral("127.0.0.1"), 8080 };
    std::optional<Endpoint> adminListen;
    qint64 maxBodyBytes = 1'048'576;
    int maxHeaderBytes = 16'384;
    int maxConnections = 1024;
    int readTimeoutMs = 10'000; // to receive one whole request once it has started
    int idleTimeoutMs = 60'000; // keep-alive connection with no request
    // Longest an ingest request waits for its commit before it is answered 503 (a hung database
    // must not hold a sender past its own timeout; Shopify's is 5 s).
    int replyTimeoutMs = 4'000;
    int ioThreads = 2;
    int writeQueueCapacity = 10'000;
    QString tlsCert;
    QString tlsKey;
    // `trusted_proxies`: peers whose X-Forwarded-For names the client (see clientAddress()).
    IpRanges trustedProxies;
    // `log_format`: "text" lines for people, or "json" (one object per line) for log shippers.
    bool jsonLogs = false;
};

enum class SqliteSync { Full, Normal };

struct StorageConfig {
    QString url;
    SqliteSync sqliteSynchronous = SqliteSync::Full;
    int batchMax = 256; // group commit: most requests per transaction
    // Writer connections, each its own group commit. Resolved at parse time: the key's value,
    // else kDefaultPostgresWriterConnections on PostgreSQL; always 1 on SQLite (one writer at a time).
    int writerConnections = 1;
    static constexpr int kDefaultPostgresWriterConnections = 4;
    static constexpr int kMaxWriterConnections = 32;
    int retentionDays = 30;
    int rejectionsKeep = 10'000; // bounded rejections table
};

struct DeliveryConfig {
    bool enabled = true;
    int maxInFlight = 256;
    int leaseMs = 30'000;
    int pollIntervalMs = 250;
    int sweepIntervalMs = 1'000;
    QString workerId; // empty → host:pid
    double jitter = 0.2; // ± fraction of each scheduled delay
    qint64 retryAfterMaxMs = 3'600'000;
    int responseExcerptBytes = 4096;
};

struct AdminConfig {
    QString auditKeyFile; // Ed25519 key for signed checkpoints; created when missing
    qint64 approvalTtlMs = 24LL * 3600 * 1000;
    qint64 selectionTtlMs = 3600LL * 1000;
    int maxSelection = 10'000;
    // Longest the admin API takes to answer once a request is in; past it 503 reply_timeout with
    // "outcome": "unknown" (a hung database holds the handler; an action may still complete).
    qint64 replyTimeoutMs = 10'000;
    double replayRatePerSecond = 20;
    int haltAfter = 10; // judge a bulk replay on its first N attempts ...
    double haltFailureRatio = 0.5; // ... and halt it when more than this share failed
};

// Incidents: dead-letter groups (failure category x destination) that appear, or grow by
// growThreshold dead letters after someone acknowledged them.
struct IncidentsConfig {
    qint64 growThreshold = 10;
    qint64 checkIntervalMs = 30'000; // the periodic check; a dead letter brings it forward (≥ 1 s apart)
};

struct Config {
    QString path; // where it was read from, for messages
    ServerConfig server;
    StorageConfig storage;
    DeliveryConfig delivery;
    AdminConfig admin;
    IncidentsConfig incidents;
    QList<SourceConfig> sources;
    QList<DestinationConfig> destinations;
    QList<RouteConfig> routes;
    // Also present in `destinations` as notificationDestination(target).
    QList<NotificationConfig> notifications;

    [[nodiscard]] const SourceConfig *source(QStringView name) const;
    [[nodiscard]] const DestinationConfig *destination(QStringView name) const;
    // Destinations that an event of `type` from `source` is delivered to, in config order, once each.
    [[nodiscard]] QStringList routeDestinations(QStringView source, QStringView type) const;
};

struct ConfigError {
    QString key; // dotted path, e.g. "destinations[1].retry_schedule[2]"; empty for file errors
    QString reason;
    [[nodiscard]] QString toString() const;
};

// Reads and validates a TOML file. Secrets are resolved (env:, file:, credential:, literal) here, so a
// missing environment variable is reported as a configuration error naming the key.
std::optional<Config> loadConfig(const QString &path, ConfigError *error);
std::optional<Config> parseConfig(const QByteArray &toml, const QString &origin, ConfigError *error);

// "500ms", "5s", "5m", "2h", "1d", "90d" → milliseconds.
std::optional<qint64> parseDuration(QStringView text);
// Shell-style glob over event types: '*' matches any run (including dots), '?' one character.
bool globMatches(QStringView pattern, QStringView text);

} // namespace redrive
