// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#include "ingestservice.h"

#include "crypto/crypto.h"
#include "privacy/incomingredaction.h"
#include "signatures/verifier.h"
#include "storage/storedtext.h"
#include "storedheaders.h"
#include "validation/schemavalidator.h"

#include <QUrl>

namespace redrive::ingest {
namespace {

const QByteArray kHooksPrefix = QByteArrayLiteral("/hooks/");

http::Response methodNotAllowed(const char *allow)
{
    auto r = http::Response::error(405, QStringLiteral("method_not_allowed"),
        QStringLiteral("use %1 on this path").arg(QLatin1String(allow)));
    r.headers.append({ QByteArrayLiteral("Allow"), QByteArray(allow) });
    return r;
}

http::Response unavailable(const QString &code, const QString &message, int retryAfterSeconds)
{
    auto r = http::Response::error(503, code, message);
    r.headers.append({ QByteArrayLiteral("Retry-After"), QByteArray::number(retryAfterSeconds) });
    return r;
}

bool hasNul(const QString &s)
{
    return s.contains(QChar(0));
}

// The generic scheme's configured signature field; the fixed schemes' fields are always left out.
QByteArrayView signatureHeaderOf(const SourceConfig &source)
{
    return source.scheme == SchemeKind::HmacSha256 ? QByteArrayView(source.hmac.signatureHeader)
                                                   : QByteArrayView();
}

// What a refused body got wrong, for the sender's answer and the rejection row: the first error
// and how many more there are (the whole list is the schema's business, not the row's).
QString invalidPayloadDetail(const QList<validation::ValidationError> &errors)
{
    const validation::ValidationError &first = errors.first();
    QString detail = QStringLiteral("the body does not match the source's JSON Schema at \"%1\": %2")
                         .arg(first.pointer, first.message);
    if (errors.size() > 1)
        detail += QStringLiteral(" (and %1 more)").arg(errors.size() - 1);
    return detail.left(1000);
}

} // namespace

IngestService::IngestService(std::shared_ptr<const Config> config, GroupCommitWriter &writer,
    metrics::Registry &registry, const Clock &clock)
    : m_config(std::move(config))
    , m_writer(writer)
    , m_registry(registry)
    , m_clock(clock)
    , m_notFound(registry.counter(QStringLiteral("redrive_ingest_not_found_total"),
          QStringLiteral("Requests for a path the ingest listener does not serve")))
{
    const QString unavailableHelp
        = QStringLiteral("Verified webhooks answered 503 with Retry-After (the sender retries)");
    auto unavailableCounter = [&](const char *reason) {
        return &registry.counter(QStringLiteral("redrive_ingest_unavailable_total"), unavailableHelp,
            { { QStringLiteral("reason"), QLatin1String(reason) } });
    };
    m_unavailable.queueFull = unavailableCounter("queue_full");
    m_unavailable.shuttingDown = unavailableCounter("shutting_down");
    m_unavailable.storeFailed = unavailableCounter("store_failed");
    m_unavailable.databaseUnavailable = unavailableCounter("database_unavailable");
    m_unavailable.replyTimeout = unavailableCounter("reply_timeout");
    for (const SourceConfig &s : m_config->sources) {
        const metrics::Labels labels { { QStringLiteral("source"), s.name } };
        SourceEntry e;
        e.name = s.name.toUtf8();
        e.config = &s;
        e.requests = &registry.counter(QStringLiteral("redrive_ingest_requests_total"),
            QStringLiteral("Webhook requests for a configured source, before verification"), labels);
        e.received = &registry.counter(QStringLiteral("redrive_ingest_received_total"),
            QStringLiteral("Webhooks durably committed and answered 200 (new and duplicate); includes the "
                           "rare commit that finished after its request was answered 503 reply_timeout"),
            labels);
        e.duplicates = &registry.counter(QStringLiteral("redrive_ingest_duplicates_total"),
            QStringLiteral("Webhooks whose (source, id) was already stored; counted, never reprocessed"),
            labels);
        e.keysTooLong = &registry.counter(QStringLiteral("redrive_ingest_key_values_too_long_total"),
            QStringLiteral("Business key values longer than 200 characters, not stored for search"), labels);
        e.invalid = &registry.counter(QStringLiteral("redrive_ingest_invalid_total"),
            QStringLiteral("Webhooks whose body failed the source's JSON Schema (quarantined or rejected)"),
            labels);
        m_sources.push_back(e);
    }
    for (const char *reason : { "bad_signature", "missing_signature", "stale_timestamp", "future_timestamp",
             "malformed_timestamp", "missing_id", "malformed_body", "invalid_id", "invalid_type",
             "unknown_source", "too_large", "headers_too_large", "read_timeout", "malformed",
             "connection_limit", "invalid_path", "ip_not_allowed", "invalid_payload" }) {
        const QString r = QLatin1String(reason);
        m_rejected[r] = &registry.counter(QStringLiteral("redrive_ingest_rejected_total"),
            QStringLiteral("Requests refused, by reason"), { { QStringLiteral("reason"), r } });
    }
}

http::ServerOptions IngestService::serverOptions()
{
    const ServerConfig &s = m_config->server;
    http::ServerOptions o;
    o.listen = s.listen;
    o.maxBodyBytes = s.maxBodyBytes;
    o.maxHeaderBytes = s.maxHeaderBytes;
    o.maxConnections = s.maxConnections;
    o.readTimeoutMs = s.readTimeoutMs;
    o.idleTimeoutMs = s.idleTimeoutMs;
    o.replyTimeoutMs = s.replyTimeoutMs;
    // The event may still be committed after this answer; the sender's retry then finds it and
    // is answered as a duplicate, so nothing is stored twice and nothing acknowledged is lost.
    o.onReplyTimeout = [counter = m_unavailable.replyTimeout, timeoutMs = s.replyTimeoutMs] {
        counter->inc();
        return unavailable(QStringLiteral("reply_timeout"),
            QStringLiteral("the event was not stored within %1 ms; retry later").arg(timeoutMs),
            DatabaseAvailability::kRetryAfterSeconds);
    };
    o.threads = s.ioThreads;
    o.name = QStringLiteral("ingest");
    o.onHead = [this](const http::RequestHead &head) { return onHead(head); };
    o.onRejected = [this](const http::EdgeRejection &r) { onEdgeRejected(r); };
    return o;
}

void IngestService::addReadinessCheck(const QString &name, std::function<bool()> check)
{
    m_readinessChecks.emplace_back(name, std::move(check));
}

metrics::Counter &IngestService::rejectedCounter(const QString &reason)
{
    const auto it = m_rejected.find(reason);
    if (it != m_rejected.end())
        return *it->second;
    return m_registry.counter(QStringLiteral("redrive_ingest_rejected_total"),
        QStringLiteral("Requests refused, by reason"), { { QStringLiteral("reason"), reason } });
}

IngestService::Routed IngestService::route(const QByteArray &path) const
{
    Routed r;
    if (storedtext::hasControl(path)) {
        r.route = Route::InvalidPath;
        r.invalidPath = path.left(200);
        return r;
    }
    if (path.startsWith(kHooksPrefix)) {
        const QByteArrayView name = QByteArrayView(path).sliced(kHooksPrefix.size());
        if (name.isEmpty() || name.contains('/'))
            return r;
        r.route = Route::Hook;
        r.sourceName = name.toByteArray();
        for (const auto &s : m_sources) {
            if (s.name == name) {
                r.source = &s;
                break;
            }
        }
    } else if (path == "/healthz") {
        r.route = Route::Health;
    } else if (path == "/readyz") {
        r.route = Route::Ready;
    }
    // /metrics is not served here: this listener faces the internet, and the metrics name every
    // source and destination. The admin listener serves them.
    return r;
}

ClientAddress IngestService::client(const QString &peer, const Headers &headers) const
{
    const IpRanges &trusted = m_config->server.trustedProxies;
    if (trusted.isEmpty()) {
        ClientAddress c; // no proxy to believe: the peer, unparsed until someone needs it
        c.address = peer;
        c.peer = peer;
        return c;
    }
    return clientAddress(peer, headers, trusted);
}

std::optional<http::Response> IngestService::refuseAddress(
    const SourceEntry &source, const Headers &headers, const QString &peer)
{
    const IpRanges &allowed = source.config->allowedIps;
    if (allowed.isEmpty())
        return std::nullopt;
    // Without trusted proxies the client is the peer: matched as the socket wrote it, without
    // parsing it into a QHostAddress. Anything else (and every refusal) takes the full path.
    if (m_config->server.trustedProxies.isEmpty() && allowed.containsText(peer).value_or(false))
        return std::nullopt;
    ClientAddress c = client(peer, headers);
    if (c.parsed.isNull())
        c.parsed = QHostAddress(c.address);
    if (allowed.contains(c.parsed))
        return std::nullopt;
    // Refused on the header block alone: no body is read, no secret is touched, no MAC computed.
    QString detail = QStringLiteral("client %1 is not in allowed_ips of source \"%2\"")
                         .arg(c.address, source.config->name);
    if (c.viaProxy)
        detail += QStringLiteral(" (from X-Forwarded-For via trusted proxy %1)").arg(c.peer);
    else if (c.malformedForwardedFor)
        detail += QStringLiteral(" (a trusted proxy's X-Forwarded-For entry is not an address; judged by "
                                 "the proxy's own address)");
    recordRejection(source.config->name, 403, QStringLiteral("ip_not_allowed"), detail, &headers, c.address);
    return http::Response::error(403, QStringLiteral("ip_not_allowed"),
        QStringLiteral("this address may not send webhooks to this source"));
}

std::optional<http::Response> IngestService::checkRoute(
    const Routed &routed, const QByteArray &method, const Headers &headers, const QString &peer)
{
    switch (routed.route) {
    case Route::NotFound:
        m_notFound.inc();
        return http::Response::error(
            404, QStringLiteral("not_found"), QStringLiteral("no such path; webhooks go to /hooks/{source}"));
    case Route::InvalidPath: {
        // A decoded path with NUL or another control character names nothing that exists, and
        // no sender has a reason to write one: refused before any other work. The rejection
        // quotes it percent-encoded, so support reads "/hooks/%00", not an invisible byte.
        const QString detail = QStringLiteral("the request path %1 holds a control character")
                                   .arg(QString::fromLatin1(QUrl::toPercentEncoding(
                                       QString::fromUtf8(routed.invalidPath), QByteArrayLiteral("/"))));
        recordRejection(
            QString(), 400, QStringLiteral("invalid_path"), detail, &headers, client(peer, headers).address);
        return http::Response::error(400, QStringLiteral("invalid_path"), detail);
    }
    case Route::Hook:
        if (!routed.source) {
            const QString name = QString::fromUtf8(routed.sourceName.left(64));
            const QString detail = QStringLiteral("no source named \"%1\" is configured").arg(name);
            recordRejection(
                name, 404, QStringLiteral("unknown_source"), detail, &headers, client(peer, headers).address);
            return http::Response::error(404, QStringLiteral("unknown_source"), detail);
        }
        if (auto refused = refuseAddress(*routed.source, headers, peer))
            return refused;
        if (method != "POST")
            return methodNotAllowed("POST");
        return std::nullopt;
    case Route::Health:
    case Route::Ready:
        if (method != "GET")
            return methodNotAllowed("GET");
        return std::nullopt;
    }
    return std::nullopt;
}

std::optional<http::Response> IngestService::onHead(const http::RequestHead &head)
{
    return checkRoute(route(head.path), head.method, head.headers, head.remoteAddress);
}

void IngestService::handle(http::Request &&request, http::Responder respond)
{
    const Routed routed = route(request.path);
    if (auto early = checkRoute(routed, request.method, request.headers, request.remoteAddress)) {
        respond(std::move(*early));
        return;
    }
    switch (routed.route) {
    case Route::Hook:
        ingest(*routed.source, std::move(request), std::move(respond));
        return;
    case Route::Health:
        respond(http::Response::json(200, QByteArrayLiteral("{\"status\":\"ok\"}")));
        return;
    case Route::Ready:
        respond(readiness());
        return;
    case Route::NotFound:
    case Route::InvalidPath:
        break; // answered by checkRoute
    }
}

http::Response IngestService::readiness() const
{
    const bool writer = m_writer.isRunning();
    const bool database = m_writer.databaseHealthy();
    bool ready = writer && database;
    QByteArray body = "{\"status\":\"";
    QByteArray checks;
    for (const auto &[name, check] : m_readinessChecks) {
        const bool ok = check();
        ready = ready && ok;
        checks += ",\"" + name.toUtf8() + "\":\"" + (ok ? "ok" : "failing") + '"';
    }
    body += ready ? "ready" : "not_ready";
    body += "\",\"writer\":\"";
    body += writer ? "running" : "stopped";
    body += "\",\"database\":\"";
    body += database ? "ok" : "unreachable";
    body += '"';
    body += checks;
    body += '}';
    return http::Response::json(ready ? 200 : 503, body);
}

void IngestService::recordRejection(const QString &source, int status, const QString &reason,
    const QString &detail, const Headers *headers, const QString &remoteAddress,
    QByteArrayView signatureHeader)
{
    rejectedCounter(reason).inc();
    RejectionRecord r;
    r.source = source;
    r.reason = reason;
    r.detail = detail;
    r.statusCode = status;
    r.remoteAddress = remoteAddress;
    if (headers)
        r.headersJson = redactedHeadersJson(*headers, signatureHeader);
    r.receivedAtMs = m_clock.nowMs();
    m_writer.submitRejection(std::move(r)); // dropped and counted when the queue is full
}

void IngestService::onEdgeRejected(const http::EdgeRejection &rejection)
{
    if (rejection.reason == u"connection_limit") {
        rejectedCounter(rejection.reason).inc(); // no row: there is nothing to learn per connection
        return;
    }
    QString source;
    if (rejection.path.startsWith(kHooksPrefix))
        source = QString::fromUtf8(rejection.path.sliced(kHooksPrefix.size()).left(64));
    const QString detail = rejection.status == 413
        ? QStringLiteral("body larger than %1 bytes").arg(m_config->server.maxBodyBytes)
        : rejection.status == 431
        ? QStringLiteral("header block larger than %1 bytes").arg(m_config->server.maxHeaderBytes)
        : rejection.status == 408
        ? QStringLiteral("request not received within %1 ms").arg(m_config->server.readTimeoutMs)
        : QStringLiteral("malformed HTTP request");
    recordRejection(source, rejection.status, rejection.reason, detail,
        rejection.headers.size() > 0 ? &rejection.headers : nullptr,
        client(rejection.remoteAddress, rejection.headers).address);
}

void IngestService::ingest(const SourceEntry &source, http::Request &&request, http::Responder &&respond)
{
    source.requests->inc();
    const qint64 nowMs = m_clock.nowMs();
    const signatures::Verification v
        = signatures::verify(*source.config, request.headers, request.body, nowMs / 1000);
    const QString sourceName = source.config->name;
    const QString remoteAddress = client(request.remoteAddress, request.headers).address;
    if (!v.ok()) {
        recordRejection(sourceName, v.httpStatus(), v.reason, v.detail, &request.headers, remoteAddress,
            signatureHeaderOf(*source.config));
        respond(http::Response::error(v.httpStatus(), v.reason, v.detail));
        return;
    }
    // Ids and types end up in unique keys and indexes: refuse what no provider sends.
    const bool badId = v.providerEventId.size() > kMaxIdLength || hasNul(v.providerEventId);
    const bool badType = v.eventType.size() > kMaxTypeLength || hasNul(v.eventType);
    if (badId || badType) {
        const QString reason = badId ? QStringLiteral("invalid_id") : QStringLiteral("invalid_type");
        const QString detail = badId
            ? QStringLiteral("the event id is longer than %1 characters or contains NUL").arg(kMaxIdLength)
            : QStringLiteral("the event type is longer than %1 characters or contains NUL")
                  .arg(kMaxTypeLength);
        recordRejection(sourceName, 400, reason, detail, &request.headers, remoteAddress,
            signatureHeaderOf(*source.config));
        respond(http::Response::error(400, reason, detail));
        return;
    }

    // The source's JSON Schema for this type, compiled at config load. A body that fails it is
    // quarantined (stored as `invalid`, no deliveries) or refused 422, as the rule says.
    QByteArray validationErrors;
    if (const SchemaRule *rule = source.config->schemaFor(v.eventType)) {
        const QList<validation::ValidationError> errors = rule->schema->validateBody(request.body);
        if (!errors.isEmpty()) {
            source.invalid->inc();
            if (rule->onInvalid == SchemaRule::OnInvalid::Reject) {
                const QString detail = invalidPayloadDetail(errors);
                recordRejection(sourceName, 422, QStringLiteral("invalid_payload"), detail, &request.headers,
                    request.remoteAddress, signatureHeaderOf(*source.config));
                respond(http::Response::error(422, QStringLiteral("invalid_payload"), detail));
                return;
            }
            validationErrors = validation::validationErrorsJson(errors);
        }
    }

    IncomingEvent e;
    e.source = sourceName;
    e.providerEventId = v.providerEventId;
    e.weakId = v.weakId;
    e.eventType = v.eventType;
    e.occurredAtMs = v.occurredAtMs;
    e.receivedAtMs = nowMs;
    e.contentType = QString::fromLatin1(request.headers.value("Content-Type"));
    e.bodySha256Hex = crypto::sha256Hex(request.body);
    e.body = std::move(request.body);
    e.headersJson = redactedHeadersJson(request.headers, signatureHeaderOf(*source.config));
    e.dedupeByBody = source.config->dedupeByBody;
    e.verifiedBy = v.secretLabel;
    if (v.skewSeconds)
        e.clockSkewMs = *v.skewSeconds * 1000;
    e.remoteAddress = remoteAddress;
    e.keys = v.keys;
    e.validationErrors = std::move(validationErrors);
    privacy::redactIncoming(e, *source.config);
    if (v.keysTooLong > 0)
        source.keysTooLong->inc(static_cast<double>(v.keysTooLong));

    Completion done
        = [respond = std::move(respond), received = source.received, duplicates = source.duplicates,
              unavailableCounters = &m_unavailable](const IngestOutcome &outcome) {
              using Failure = IngestOutcome::Failure;
              if (!outcome.ok) {
                  switch (outcome.failure) {
                  case Failure::QueueFull:
                      unavailableCounters->queueFull->inc();
                      respond(unavailable(QStringLiteral("queue_full"),
                          QStringLiteral("the write queue is full; retry later"), 1));
                      return;
                  case Failure::ShuttingDown:
                      unavailableCounters->shuttingDown->inc();
                      respond(unavailable(QStringLiteral("shutting_down"),
                          QStringLiteral("the receiver is shutting down; retry later"), 5));
                      return;
                  case Failure::DatabaseUnavailable:
                      unavailableCounters->databaseUnavailable->inc();
                      respond(unavailable(QStringLiteral("database_unavailable"),
                          QStringLiteral("the database cannot be reached; retry later"),
                          DatabaseAvailability::kRetryAfterSeconds));
                      return;
                  case Failure::StoreFailed:
                  case Failure::None:
                      unavailableCounters->storeFailed->inc();
                      respond(unavailable(QStringLiteral("store_failed"),
                          QStringLiteral("the event could not be stored; retry later"), 1));
                      return;
                  }
              }
              received->inc();
              if (outcome.duplicate)
                  duplicates->inc();
              QByteArray body;
              body.reserve(48);
              body += "{\"id\":";
              body += QByteArray::number(outcome.eventId);
              body += outcome.duplicate ? ",\"duplicate\":true}" : ",\"duplicate\":false}";
              respond(http::Response::json(200, body));
          };
    IngestOutcome refused;
    switch (m_writer.submit(std::move(e), std::move(done))) {
    case GroupCommitWriter::Submit::Queued:
        return; // `done` answers after the commit
    case GroupCommitWriter::Submit::QueueFull:
        refused.failure = IngestOutcome::Failure::QueueFull;
        break;
    case GroupCommitWriter::Submit::Stopped:
        refused.failure = IngestOutcome::Failure::ShuttingDown;
        break;
    }
    done(refused); // NOLINT(bugprone-use-after-move): submit() moves from `done` only when Queued
}

} // namespace redrive::ingest
