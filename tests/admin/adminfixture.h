// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#pragma once

#include "admin/adminapi.h"
#include "config/config.h"
#include "domain/types.h"
#include "testdb.h"
#include "util/clock.h"
#include "util/metrics.h"

#include <QHash>
#include <QJsonObject>
#include <QMap>

#include <functional>
#include <memory>

namespace redrive::test {

// A migrated database, a configuration with a high-risk ("fulfillment") and two low-risk
// ("crm", "billing") destinations, a ManualClock, and helpers to seed rows, mint tokens and call
// AdminApi::handle() directly (no network).
class AdminFixture final {
public:
    static std::unique_ptr<AdminFixture> create(
        QString *error, const std::function<void(Config &)> &tweak = {});
    ~AdminFixture();

    // Starts the API (executor off unless asked: tests drive ReplayExecutor themselves).
    bool startApi(QString *error, bool withExecutor = false, int workers = 4);
    void stopApi();

    [[nodiscard]] Db &db() { return *m_db; }
    [[nodiscard]] TestDatabase &database() { return *m_database; }

    // A token for `name` with `role`, owned by `owner` (default: the name), created on first use
    // and remembered.
    QString token(const QString &name, Role role, const QString &owner = {});

    qint64 insertEvent(const QString &source = QStringLiteral("github"),
        const QString &type = QStringLiteral("push"), const QString &providerId = {});
    qint64 insertDelivery(
        qint64 eventId, const QString &destination, DeliveryStatus status, bool outcomeUnknown = false);
    // An event with one delivery in `status`; returns the delivery id.
    qint64 seedDelivery(const QString &destination, DeliveryStatus status, bool outcomeUnknown = false);
    void setDeliveryStatus(qint64 deliveryId, DeliveryStatus status);
    // `count` events of `source`, each with one delivery to `destination` in `status`, inserted
    // in bulk (large-selection tests).
    void seedBulk(const QString &source, const QString &destination, DeliveryStatus status, int count);

    struct Reply {
        int status = 0;
        QJsonObject json;
        QByteArray body;
        QList<std::pair<QByteArray, QByteArray>> headers;
        [[nodiscard]] QString error() const { return json.value(QLatin1String("error")).toString(); }
        [[nodiscard]] QString field() const { return json.value(QLatin1String("field")).toString(); }
        [[nodiscard]] QByteArray header(QByteArrayView name) const;
    };
    // `target` is the request target after /admin/v1/, e.g. "events?limit=5".
    Reply call(const QByteArray &method, const QByteArray &target, const QString &token,
        const QByteArray &body = {});
    Reply call(
        const QByteArray &method, const QByteArray &target, const QString &token, const QJsonObject &body);

    // Preview + request in one go; returns the replay id (0 on failure, with *reply set).
    qint64 requestReplay(const QString &token, const QList<qint64> &deliveryIds,
        const QString &reason = QStringLiteral("test"), Reply *reply = nullptr);

    // What the delivery engine does when a replay attempt ends (the replay execution contract):
    // delivery succeeded or dead again, replay_id cleared, item succeeded / failed, counter +1.
    void finishReplayItem(qint64 replayId, qint64 deliveryId, bool success);

    qint64 count(const QString &table, const QString &where = {});
    // Row counts of every table the admin API writes.
    QMap<QString, qint64> rowCounts();
    QString replayStatus(qint64 replayId);

    Config config;
    ManualClock clock;
    metrics::Registry registry;
    std::unique_ptr<admin::AdminApi> api;

private:
    AdminFixture() = default;
    std::unique_ptr<TestDatabase> m_database;
    std::unique_ptr<Db> m_db;
    QHash<QString, QString> m_tokens;
    qint64 m_nextProviderId = 1;
};

} // namespace redrive::test
