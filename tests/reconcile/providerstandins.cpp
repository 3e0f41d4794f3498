// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#include "providerstandins.h"

#include <QDateTime>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QUrlQuery>

#include <chrono>
#include <thread>

namespace redrive::test {
namespace {

qint64 steadyMs()
{
    return std::chrono::duration_cast<std::chrono::milliseconds>(
        std::chrono::steady_clock::now().time_since_epoch())
        .count();
}

QUrlQuery queryOf(const http::Request &r)
{
    return QUrlQuery(QString::fromUtf8(r.query));
}

} // namespace

StandInBase::StandInBase(QByteArray credential)
    : m_credential(std::move(credential))
{ }

StandInBase::~StandInBase()
{
    if (m_server)
        m_server->stop(1000);
}

bool StandInBase::start(QString *error)
{
    http::ServerOptions o;
    o.listen = Endpoint { QStringLiteral("127.0.0.1"), 0 };
    o.threads = 4;
    o.maxBodyBytes = 1 << 20;
    o.name = QStringLiteral("provider-stand-in");
    m_server
        = std::make_unique<http::Server>(o, [this](http::Request &&request, const http::Responder &respond) {
              handle(std::move(request), respond);
          });
    return succeeded(m_server->start(), error);
}

quint16 StandInBase::port() const
{
    return m_server->port();
}

QString StandInBase::url() const
{
    return QStringLiteral("http://127.0.0.1:%1").arg(port());
}

void StandInBase::addFault(const StandInFault &fault)
{
    std::lock_guard lock(m_mutex);
    m_faults.push_back(fault);
}

void StandInBase::setDelayMs(int ms)
{
    std::lock_guard lock(m_mutex);
    m_delayMs = ms;
}

QList<StandInRequest> StandInBase::requests() const
{
    std::lock_guard lock(m_mutex);
    return m_requests;
}

int StandInBase::listRequests() const
{
    std::lock_guard lock(m_mutex);
    return m_lists;
}

int StandInBase::maxConcurrent() const
{
    std::lock_guard lock(m_mutex);
    return m_maxConcurrent;
}

http::Response StandInBase::unauthorized(const http::Request &request) const
{
    const QByteArray presented = request.headers.value("Authorization").toByteArray();
    return unauthorizedBody(presented.startsWith("Bearer ") ? presented.mid(7) : presented);
}

void StandInBase::handle(http::Request &&request, const http::Responder &respond)
{
    int listIndex = -1;
    int delay = 0;
    std::optional<StandInFault> fault;
    {
        std::lock_guard lock(m_mutex);
        m_requests.append(StandInRequest { request.method, request.target,
            request.headers.value("Authorization").toByteArray(), steadyMs() });
        m_maxConcurrent = std::max(m_maxConcurrent, ++m_concurrent);
        if (isList(request)) {
            listIndex = m_lists++;
            delay = m_delayMs;
            for (auto it = m_faults.begin(); it != m_faults.end(); ++it) {
                if (it->listRequest == listIndex) {
                    fault = *it;
                    m_faults.erase(it);
                    break;
                }
            }
        }
    }
    if (delay > 0) // a slow provider, not a test's synchronisation
        std::this_thread::sleep_for(std::chrono::milliseconds(delay));
    http::Response response;
    if (request.headers.value("Authorization") != QByteArray("Bearer " + m_credential)) {
        response = unauthorized(request);
    } else if (fault) {
        response.status = fault->status;
        response.headers = fault->headers;
        response.body = fault->body;
    } else {
        response = answer(request, listIndex);
    }
    {
        std::lock_guard lock(m_mutex);
        --m_concurrent;
    }
    respond(std::move(response));
}

StripeStandIn::StripeStandIn(QByteArray key)
    : StandInBase(std::move(key))
{ }

QByteArray StripeStandIn::eventJson(const QString &id, const QString &type, qint64 createdSeconds)
{
    // Member order as Stripe writes it; the recorded body must keep these bytes.
    return QStringLiteral(
        "{\"id\": \"%1\", \"object\": \"event\", \"api_version\": \"2024-06-20\", \"created\": %2, "
        "\"data\": {\"object\": {\"id\": \"pi_%1\", \"object\": \"payment_intent\", \"amount\": 2000, "
        "\"metadata\": {\"order_id\": \"order-%1\"}}}, \"livemode\": false, \"pending_webhooks\": 1, "
        "\"type\": \"%3\"}")
        .arg(id)
        .arg(createdSeconds)
        .arg(type)
        .toUtf8();
}

void StripeStandIn::addEvent(const QString &id, const QString &type, qint64 createdSeconds)
{
    std::lock_guard lock(m_mutex);
    Event e { id, createdSeconds, eventJson(id, type, createdSeconds) };
    qsizetype at = 0;
    while (at < m_events.size() && m_events[at].created >= createdSeconds)
        ++at;
    m_events.insert(at, e);
}

QByteArray StripeStandIn::rawEvent(const QString &id) const
{
    std::lock_guard lock(m_mutex);
    for (const Event &e : m_events) {
        if (e.id == id)
            return e.raw;
    }
    return {};
}

bool StripeStandIn::isList(const http::Request &request) const
{
    return request.method == "GET" && request.path == "/v1/events";
}

http::Response StripeStandIn::unauthorizedBody(const QByteArray &presented) const
{
    // Stripe names the key it refused (masked; a careless provider might not mask it).
    QJsonObject error { { QStringLiteral("type"), QStringLiteral("invalid_request_error") },
        { QStringLiteral("message"),
            QStringLiteral("Invalid API Key provided: %1").arg(QString::fromUtf8(presented)) } };
    return http::Response::json(401,
        QJsonDocument(QJsonObject { { QStringLiteral("error"), error } }).toJson(QJsonDocument::Compact));
}

http::Response StripeStandIn::answer(const http::Request &request, int /*listIndex*/)
{
    if (!isList(request))
        return http::Response::json(
            404, QByteArrayLiteral("{\"error\":{\"message\":\"Unrecognized request URL\"}}"));
    const QUrlQuery q = queryOf(request);
    QString created = q.queryItemValue(QStringLiteral("created[gte]"), QUrl::FullyDecoded);
    if (created.isEmpty())
        created = q.queryItemValue(QStringLiteral("created%5Bgte%5D"), QUrl::FullyDecoded);
    const qint64 gte = created.toLongLong();
    const int limit = std::clamp(q.queryItemValue(QStringLiteral("limit")).toInt(), 1, 100);
    const QString after = q.queryItemValue(QStringLiteral("starting_after"), QUrl::FullyDecoded);
    std::lock_guard lock(m_mutex);
    qsizetype at = 0;
    if (!after.isEmpty()) {
        while (at < m_events.size() && m_events[at].id != after)
            ++at;
        ++at;
    }
    QByteArray data;
    int n = 0;
    bool more = false;
    for (; at < m_events.size(); ++at) {
        if (m_events[at].created < gte)
            continue;
        if (n == limit) {
            more = true;
            break;
        }
        if (n > 0)
            data += ",\n    ";
        data += m_events[at].raw;
        ++n;
    }
    const QByteArray body = "{\n  \"object\": \"list\",\n  \"url\": \"/v1/events\",\n  \"has_more\": "
        + QByteArray(more ? "true" : "false") + ",\n  \"data\": [\n    " + data + "\n  ]\n}";
    return http::Response::json(200, body);
}

GitHubStandIn::GitHubStandIn(QByteArray token, QString hook)
    : StandInBase(std::move(token))
    , m_hook(std::move(hook))
{ }

qint64 GitHubStandIn::addDelivery(const QString &guid, qint64 deliveredAtMs, const QString &event)
{
    std::lock_guard lock(m_mutex);
    const qint64 id = m_nextId++;
    Delivery d { id, guid, deliveredAtMs, event };
    qsizetype at = 0;
    while (at < m_deliveries.size() && m_deliveries[at].deliveredAtMs >= deliveredAtMs)
        ++at;
    m_deliveries.insert(at, d);
    return id;
}

QList<qint64> GitHubStandIn::redeliveries() const
{
    std::lock_guard lock(m_mutex);
    return m_redeliveries;
}

bool GitHubStandIn::isList(const http::Request &request) const
{
    return request.method == "GET" && request.path == QByteArray("/" + m_hook.toUtf8() + "/deliveries");
}

http::Response GitHubStandIn::unauthorizedBody(const QByteArray & /*presented*/) const
{
    return http::Response::json(401,
        QByteArrayLiteral(
            "{\"message\":\"Bad credentials\",\"documentation_url\":\"https://docs.github.com/rest\"}"));
}

http::Response GitHubStandIn::answer(const http::Request &request, int /*listIndex*/)
{
    const QByteArray prefix = "/" + m_hook.toUtf8() + "/deliveries/";
    if (request.method == "POST" && request.path.startsWith(prefix) && request.path.endsWith("/attempts")) {
        const qint64 id
            = request.path.mid(prefix.size(), request.path.size() - prefix.size() - 9).toLongLong();
        std::lock_guard lock(m_mutex);
        for (const Delivery &d : std::as_const(m_deliveries)) {
            if (d.id == id) {
                m_redeliveries.append(id);
                return http::Response::json(202, QByteArrayLiteral("{}"));
            }
        }
        return http::Response::json(404, QByteArrayLiteral("{\"message\":\"Not Found\"}"));
    }
    if (!isList(request))
        return http::Response::json(404, QByteArrayLiteral("{\"message\":\"Not Found\"}"));
    const QUrlQuery q = queryOf(request);
    const int perPage = std::clamp(q.queryItemValue(QStringLiteral("per_page")).toInt(), 1, m_perPage);
    const qsizetype cursor = q.queryItemValue(QStringLiteral("cursor")).toLongLong();
    std::lock_guard lock(m_mutex);
    QJsonArray items;
    for (qsizetype i = cursor; i < m_deliveries.size() && items.size() < perPage; ++i) {
        const Delivery &d = m_deliveries[i];
        items.append(QJsonObject { { QStringLiteral("id"), d.id }, { QStringLiteral("guid"), d.guid },
            { QStringLiteral("delivered_at"),
                QDateTime::fromMSecsSinceEpoch(d.deliveredAtMs, Qt::UTC).toString(Qt::ISODate) },
            { QStringLiteral("redelivery"), false }, { QStringLiteral("duration"), 0.27 },
            { QStringLiteral("status"), QStringLiteral("Service Unavailable") },
            { QStringLiteral("status_code"), 503 }, { QStringLiteral("event"), d.event },
            { QStringLiteral("action"), QJsonValue() }, { QStringLiteral("installation_id"), QJsonValue() },
            { QStringLiteral("repository_id"), 42 } });
    }
    http::Response response = http::Response::json(200, QJsonDocument(items).toJson(QJsonDocument::Compact));
    const qsizetype next = cursor + items.size();
    if (next < m_deliveries.size()) {
        const QString origin = m_linkOrigin.isEmpty() ? url() : m_linkOrigin;
        response.headers.append({ QByteArrayLiteral("Link"),
            QStringLiteral("<%1/%2/deliveries?per_page=%3&cursor=%4>; rel=\"next\"")
                .arg(origin, m_hook)
                .arg(perPage)
                .arg(next)
                .toUtf8() });
    }
    return response;
}

} // namespace redrive::test
