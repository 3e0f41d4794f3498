// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#include "eventviews.h"

#include "admin/apiresponse.h"
#include "util/clock.h"

#include <QJsonDocument>
#include <QSqlQuery>

namespace redrive::admin {
namespace {
constexpr int kChunk = 500;

} // namespace

QJsonObject eventJson(const QSqlQuery &q)
{
    return QJsonObject {
        { QStringLiteral("id"), q.value(0).toLongLong() },
        { QStringLiteral("source"), q.value(1).toString() },
        { QStringLiteral("provider_event_id"), q.value(2).toString() },
        { QStringLiteral("weak_id"), q.value(3).toInt() != 0 },
        { QStringLiteral("type"), q.value(4).toString() },
        { QStringLiteral("status"), q.value(5).toString() },
        { QStringLiteral("received_at"), isoOrNull(q.value(6)) },
        { QStringLiteral("occurred_at"), isoOrNull(q.value(7)) },
        { QStringLiteral("last_seen_at"), isoOrNull(q.value(8)) },
        { QStringLiteral("seen_count"), q.value(9).toLongLong() },
    };
}

QJsonObject deliveryJson(const QSqlQuery &q, const Config &config)
{
    const QString destination = q.value(2).toString();
    const DestinationConfig *dc = config.destination(destination);
    return QJsonObject {
        { QStringLiteral("id"), q.value(0).toLongLong() },
        { QStringLiteral("event_id"), q.value(1).toLongLong() },
        { QStringLiteral("destination"), destination },
        { QStringLiteral("risk"), dc ? QJsonValue(toString(dc->risk)) : QJsonValue(QJsonValue::Null) },
        { QStringLiteral("status"), q.value(3).toString() },
        { QStringLiteral("attempt_count"), q.value(4).toLongLong() },
        { QStringLiteral("next_attempt_at"), isoOrNull(q.value(5)) },
        { QStringLiteral("downstream_ref"), jsonOrNull(q.value(6)) },
        { QStringLiteral("outcome_unknown"), q.value(7).toInt() != 0 },
        { QStringLiteral("last_status_code"),
            q.value(8).isNull() ? QJsonValue(QJsonValue::Null) : QJsonValue(q.value(8).toInt()) },
        { QStringLiteral("last_category"), jsonOrNull(q.value(9)) },
        { QStringLiteral("last_error"), jsonOrNull(q.value(10)) },
        { QStringLiteral("idempotency_key"), q.value(11).toString() },
        { QStringLiteral("replay_id"),
            q.value(12).isNull() ? QJsonValue(QJsonValue::Null) : QJsonValue(q.value(12).toLongLong()) },
        { QStringLiteral("succeeded_at"), isoOrNull(q.value(13)) },
        { QStringLiteral("dead_at"), isoOrNull(q.value(14)) },
        { QStringLiteral("created_at"), isoOrNull(q.value(15)) },
        { QStringLiteral("updated_at"), isoOrNull(q.value(16)) },
    };
}

bool loadAttempts(Db &db, const QList<qint64> &deliveryIds, QHash<qint64, QJsonArray> *out, QString *error)
{
    for (qsizetype start = 0; start < deliveryIds.size(); start += kChunk) {
        const qsizetype n = qMin<qsizetype>(kChunk, deliveryIds.size() - start);
        QSqlQuery q(db.handle());
        q.setForwardOnly(true);
        q.prepare(QStringLiteral(
            "SELECT delivery_id, number, trigger_kind, replay_id, scheduled_at, started_at, "
            "duration_ms, status_code, category, explanation, outcome_unknown, response_excerpt "
            "FROM attempts WHERE delivery_id IN (%1) ORDER BY delivery_id, number")
                      .arg(sqlPlaceholders(n)));
        for (qsizetype i = 0; i < n; ++i)
            q.addBindValue(deliveryIds[start + i]);
        if (!q.exec()) {
            *error = sqlErrorText(q);
            return false;
        }
        while (q.next()) {
            (*out)[q.value(0).toLongLong()].append(QJsonObject {
                { QStringLiteral("number"), q.value(1).toInt() },
                { QStringLiteral("trigger"), q.value(2).toString() },
                { QStringLiteral("replay_id"),
                    q.value(3).isNull() ? QJsonValue(QJsonValue::Null)
                                        : QJsonValue(q.value(3).toLongLong()) },
                { QStringLiteral("scheduled_at"), isoOrNull(q.value(4)) },
                { QStringLiteral("started_at"), isoOrNull(q.value(5)) },
                { QStringLiteral("duration_ms"), q.value(6).toLongLong() },
                { QStringLiteral("status_code"),
                    q.value(7).isNull() ? QJsonValue(QJsonValue::Null) : QJsonValue(q.value(7).toInt()) },
                { QStringLiteral("category"), q.value(8).toString() },
                { QStringLiteral("explanation"), q.value(9).toString() },
                { QStringLiteral("outcome_unknown"), q.value(10).toInt() != 0 },
                { QStringLiteral("response_excerpt"), q.value(11).toString() },
            });
        }
    }
    return true;
}

bool loadDeliveries(Db &db, const Config &config, const QList<qint64> &eventIds, bool withAttempts,
    QHash<qint64, QJsonArray> *out, QString *error)
{
    QList<QJsonObject> rows;
    QList<qint64> deliveryIds;
    for (qsizetype start = 0; start < eventIds.size(); start += kChunk) {
        const qsizetype n = qMin<qsizetype>(kChunk, eventIds.size() - start);
        QSqlQuery q(db.handle());
        q.setForwardOnly(true);
        q.prepare(QStringLiteral("SELECT %1 FROM deliveries d WHERE d.event_id IN (%2) ORDER BY d.id")
                      .arg(QLatin1String(kDeliveryColumns), sqlPlaceholders(n)));
        for (qsizetype i = 0; i < n; ++i)
            q.addBindValue(eventIds[start + i]);
        if (!q.exec()) {
            *error = sqlErrorText(q);
            return false;
        }
        while (q.next()) {
            rows.append(deliveryJson(q, config));
            deliveryIds.append(q.value(0).toLongLong());
        }
    }
    QHash<qint64, QJsonArray> attempts;
    if (withAttempts && !loadAttempts(db, deliveryIds, &attempts, error))
        return false;
    for (QJsonObject &d : rows) {
        if (withAttempts)
            d.insert(QStringLiteral("attempts"), attempts.value(d.value(QLatin1String("id")).toInteger()));
        (*out)[d.value(QLatin1String("event_id")).toInteger()].append(d);
    }
    return true;
}

QJsonObject auditEntryJson(const audit::AuditEntry &e)
{
    return QJsonObject {
        { QStringLiteral("seq"), e.seq },
        { QStringLiteral("at"), isoUtc(e.atMs) },
        { QStringLiteral("at_ms"), e.atMs },
        { QStringLiteral("actor"), e.actor },
        { QStringLiteral("role"), e.role },
        { QStringLiteral("action"), e.action },
        { QStringLiteral("target"), e.target },
        { QStringLiteral("reason"), e.reason },
        { QStringLiteral("details"), QJsonDocument::fromJson(e.details.toUtf8()).object() },
        { QStringLiteral("details_json"), e.details },
        { QStringLiteral("prev_hash"), e.prevHash },
        { QStringLiteral("hash"), e.hash },
    };
}

} // namespace redrive::admin
