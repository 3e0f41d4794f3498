// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#pragma once

#include "http/server.h"

#include <QByteArray>
#include <QList>
#include <QString>

#include <deque>
#include <memory>
#include <mutex>

// Loopback stand-ins of the two provider APIs a reconciliation run asks, following the shapes
// the providers publish (the real APIs cannot be reached from the test machines):
//   Stripe  GET /v1/events?created[gte]=&limit=&starting_after=  → {"object":"list","url",
//           "has_more","data":[event…]}, newest first; 401 {"error":{"type","message"}}.
//   GitHub  GET /{hook}/deliveries?per_page=&cursor=  → [delivery…] newest first, the next page
//           in `Link: <…>; rel="next"`; POST /{hook}/deliveries/{id}/attempts → 202 {};
//           401 {"message":"Bad credentials","documentation_url"}.
// Both check `Authorization: Bearer <credential>`, record every request, and answer scripted
// faults (a status, headers and body for the Nth list request) instead of the page.
namespace redrive::test {

struct StandInRequest {
    QByteArray method;
    QByteArray target;
    QByteArray authorization;
    qint64 arrivedMs = 0; // steady clock
};

struct StandInFault {
    int listRequest = 0; // 0-based index of the list request it replaces
    int status = 500;
    QList<std::pair<QByteArray, QByteArray>> headers;
    QByteArray body = QByteArrayLiteral("{\"message\":\"Server Error\"}");
};

class StandInBase {
public:
    explicit StandInBase(QByteArray credential);
    virtual ~StandInBase();
    StandInBase(const StandInBase &) = delete;
    StandInBase &operator=(const StandInBase &) = delete;

    bool start(QString *error);
    [[nodiscard]] quint16 port() const;
    [[nodiscard]] QString url() const;

    void addFault(const StandInFault &fault);
    // Each list answer waits this long first (a slow provider; the lease tests hold a run open).
    void setDelayMs(int ms);
    [[nodiscard]] QList<StandInRequest> requests() const;
    [[nodiscard]] int listRequests() const;
    [[nodiscard]] int maxConcurrent() const;

protected:
    virtual http::Response answer(const http::Request &request, int listIndex) = 0;
    [[nodiscard]] virtual bool isList(const http::Request &request) const = 0;
    http::Response unauthorized(const http::Request &request) const;
    virtual http::Response unauthorizedBody(const QByteArray &presented) const = 0;

    QByteArray m_credential;
    mutable std::mutex m_mutex;

private:
    void handle(http::Request &&request, const http::Responder &respond);

    std::unique_ptr<http::Server> m_server;
    QList<StandInRequest> m_requests;
    std::deque<StandInFault> m_faults;
    int m_lists = 0;
    int m_delayMs = 0;
    int m_concurrent = 0;
    int m_maxConcurrent = 0;
};

class StripeStandIn final : public StandInBase {
public:
    explicit StripeStandIn(QByteArray key);
    // An event as Stripe lists it (and as its webhook would carry it).
    static QByteArray eventJson(const QString &id, const QString &type, qint64 createdSeconds);
    // Listed newest first (by created, then insertion order).
    void addEvent(const QString &id, const QString &type, qint64 createdSeconds);
    [[nodiscard]] QByteArray rawEvent(const QString &id) const;

protected:
    http::Response answer(const http::Request &request, int listIndex) override;
    [[nodiscard]] bool isList(const http::Request &request) const override;
    http::Response unauthorizedBody(const QByteArray &presented) const override;

private:
    struct Event {
        QString id;
        qint64 created = 0;
        QByteArray raw;
    };
    QList<Event> m_events; // newest first
};

class GitHubStandIn final : public StandInBase {
public:
    GitHubStandIn(QByteArray token, QString hook);
    // A delivery of `guid` (the X-GitHub-Delivery its webhook carries); ids are assigned in order.
    qint64 addDelivery(
        const QString &guid, qint64 deliveredAtMs, const QString &event = QStringLiteral("push"));
    // The delivery ids POSTed to …/deliveries/{id}/attempts, in order.
    [[nodiscard]] QList<qint64> redeliveries() const;
    void setPerPage(int perPage) { m_perPage = perPage; }
    // The next-page links point to this origin instead (a hostile or broken answer).
    void setLinkOrigin(const QString &origin) { m_linkOrigin = origin; }

protected:
    http::Response answer(const http::Request &request, int listIndex) override;
    [[nodiscard]] bool isList(const http::Request &request) const override;
    http::Response unauthorizedBody(const QByteArray &presented) const override;

private:
    struct Delivery {
        qint64 id = 0;
        QString guid;
        qint64 deliveredAtMs = 0;
        QString event;
    };
    QString m_hook;
    QList<Delivery> m_deliveries; // newest first
    QList<qint64> m_redeliveries;
    qint64 m_nextId = 1000;
    int m_perPage = 100;
    QString m_linkOrigin;
};

} // namespace redrive::test
