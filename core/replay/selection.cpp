// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#include "selection.h"

#include "crypto/crypto.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QSqlQuery>

#include <algorithm>

namespace redrive::replay {
namespace {
constexpr int kIdChunk = 500;

const QString kReplayableSql
    = QStringLiteral("d.status IN %1 AND d.replay_id IS NULL")
          .arg(sqlNames({ DeliveryStatus::Dead, DeliveryStatus::Succeeded, DeliveryStatus::Retrying }));

struct Row {
    qint64 id;
    qint64 eventId;
    QString destination;
    Stored<DeliveryStatus> status;
    bool outcomeUnknown;
    bool hasReplay;
};

Row rowFrom(const QSqlQuery &q)
{
    return Row { q.value(0).toLongLong(), q.value(1).toLongLong(), q.value(2).toString(),
        Stored<DeliveryStatus>::fromName(q.value(3).toString()), q.value(4).toInt() != 0,
        !q.value(5).isNull() };
}

QString exclusionReason(const Row &r, const Config &config)
{
    const auto status = r.status.value();
    if (r.hasReplay)
        return QStringLiteral("queued_by_replay");
    if (status == DeliveryStatus::InFlight)
        return QStringLiteral("in_flight");
    if (status == DeliveryStatus::Resolved)
        return QStringLiteral("resolved");
    if (!status || !isReplayable(*status))
        return QStringLiteral("already_pending");
    if (!config.destination(r.destination))
        return QStringLiteral("destination_not_configured");
    return {};
}

// Sorts a row into the selection or its exclusions.
void take(Selection &s, const Row &r, const Config &config)
{
    const QString reason = exclusionReason(r, config);
    if (reason.isEmpty()) {
        SelectionItem item;
        item.deliveryId = r.id;
        item.eventId = r.eventId;
        item.destination = r.destination;
        item.status = *r.status.value(); // exclusionReason() admits known statuses only
        item.outcomeUnknown = r.outcomeUnknown;
        item.risk = config.destination(r.destination)->risk;
        s.items.append(item);
        return;
    }
    ++s.excludedCount;
    if (s.excluded.size() < kMaxExcludedListed)
        s.excluded.append(ExcludedItem { r.id, r.eventId, r.destination, r.status, reason });
}

void finish(Selection &s)
{
    std::sort(s.items.begin(), s.items.end(),
        [](const SelectionItem &a, const SelectionItem &b) { return a.deliveryId < b.deliveryId; });
    std::sort(s.excluded.begin(), s.excluded.end(),
        [](const ExcludedItem &a, const ExcludedItem &b) { return a.deliveryId < b.deliveryId; });
    s.hash = selectionHash(s.items);
}

bool tooLarge(const Selection &s, int maxSelection, FreezeError *error, const QString &hint)
{
    if (s.items.size() <= maxSelection)
        return false;
    error->kind = FreezeFailure::TooLarge;
    error->message
        = QStringLiteral("the selection has more than %1 replayable deliveries (admin.max_selection); %2")
              .arg(maxSelection)
              .arg(hint);
    return true;
}
} // namespace

bool isReplayable(DeliveryStatus status)
{
    return status == DeliveryStatus::Dead || status == DeliveryStatus::Succeeded
        || status == DeliveryStatus::Retrying;
}

QString selectionHash(const QList<SelectionItem> &items)
{
    QByteArray text = QByteArrayLiteral("redrive-selection-v1\n");
    text.reserve(text.size() + items.size() * 64);
    for (const SelectionItem &i : items) {
        text += QByteArray::number(i.deliveryId) + ' ' + QByteArray::number(i.eventId) + ' '
            + toString(i.status).toLatin1() + ' ' + (i.outcomeUnknown ? '1' : '0') + ' '
            + toString(i.risk).toLatin1() + ' ' + i.destination.toUtf8() + '\n';
    }
    return QString::fromLatin1(crypto::sha256Hex(text));
}

std::optional<Selection> freezeDeliveries(
    Db &db, const Config &config, const QList<qint64> &ids, int maxSelection, FreezeError *error)
{
    Selection s;
    if (ids.size() > maxSelection) {
        error->kind = FreezeFailure::TooLarge;
        error->message
            = QStringLiteral("at most %1 delivery ids per replay (admin.max_selection); split the list")
                  .arg(maxSelection);
        return std::nullopt;
    }
    QList<qint64> sorted = ids;
    std::sort(sorted.begin(), sorted.end());
    QList<qint64> found;
    for (qsizetype start = 0; start < sorted.size(); start += kIdChunk) {
        const qsizetype n = qMin<qsizetype>(kIdChunk, sorted.size() - start);
        QStringList marks(n, QStringLiteral("?"));
        QSqlQuery q(db.handle());
        q.setForwardOnly(true);
        q.prepare(
            QStringLiteral("SELECT d.id, d.event_id, d.destination, d.status, d.outcome_unknown, d.replay_id "
                           "FROM deliveries d WHERE d.id IN (%1)")
                .arg(marks.join(u',')));
        for (qsizetype i = 0; i < n; ++i)
            q.addBindValue(sorted[start + i]);
        if (!q.exec()) {
            error->kind = FreezeFailure::Database;
            error->message = sqlErrorText(q);
            return std::nullopt;
        }
        while (q.next()) {
            const Row r = rowFrom(q);
            found.append(r.id);
            take(s, r, config);
        }
    }
    if (found.size() != sorted.size()) {
        std::sort(found.begin(), found.end());
        for (qsizetype i = 0; i < sorted.size(); ++i) {
            if (i >= found.size() || found[i] != sorted[i]) {
                error->kind = FreezeFailure::UnknownDelivery;
                error->deliveryId = sorted[i];
                error->message = QStringLiteral("delivery %1 does not exist").arg(sorted[i]);
                return std::nullopt;
            }
        }
    }
    finish(s);
    return s;
}

SqlFragment filteredDeliveriesSql(const EventFilter &filter, Dialect dialect)
{
    const SqlFragment frag = eventFilterSql(filter, dialect);
    QString where = QStringLiteral("(%1)").arg(frag.sql);
    QVariantList binds = frag.binds;
    if (!filter.destination.isEmpty()) {
        where += QLatin1String(" AND d.destination = ?");
        binds.append(filter.destination);
    }
    if (!filter.category.isEmpty()) {
        where += QLatin1String(" AND d.last_category = ?");
        binds.append(filter.category);
    }
    if (!filter.deliveryStatus.isEmpty()) {
        // The delivery itself is in that status (a dead-letter group: its dead deliveries only).
        where += QLatin1String(" AND d.status = ?");
        binds.append(filter.deliveryStatus);
    }
    if (!filter.statuses.isEmpty()) {
        QStringList marks;
        for (const QString &st : filter.statuses) {
            if (deliveryStatusFromString(st)) {
                marks.append(QStringLiteral("?"));
                binds.append(st);
            }
        }
        where += marks.isEmpty() ? QStringLiteral(" AND 1=0")
                                 : QStringLiteral(" AND d.status IN (%1)").arg(marks.join(u','));
    }
    return SqlFragment { where, binds, frag.idColumn };
}

std::optional<Selection> freezeFilter(
    Db &db, const Config &config, const EventFilter &filter, int maxSelection, FreezeError *error)
{
    const SqlFragment frag = filteredDeliveriesSql(filter, db.dialect());
    const QString &where = frag.sql;
    const QVariantList &binds = frag.binds;
    Selection s;
    auto run = [&](const QString &extra, int limit) {
        QSqlQuery q(db.handle());
        q.setForwardOnly(true);
        q.prepare(
            QStringLiteral("SELECT d.id, d.event_id, d.destination, d.status, d.outcome_unknown, d.replay_id "
                           "FROM deliveries d JOIN events e ON e.id = d.event_id "
                           "JOIN event_status s ON s.event_id = e.id WHERE %1 AND %2 "
                           "ORDER BY d.id LIMIT %3")
                .arg(where, extra)
                .arg(limit));
        for (const QVariant &b : std::as_const(binds))
            q.addBindValue(b);
        if (!q.exec()) {
            error->kind = FreezeFailure::Database;
            error->message = sqlErrorText(q);
            return false;
        }
        while (q.next())
            take(s, rowFrom(q), config);
        return true;
    };
    if (!run(QStringLiteral("(%1)").arg(kReplayableSql), maxSelection + 1))
        return std::nullopt;
    if (tooLarge(s, maxSelection, error,
            QStringLiteral(
                "narrow the filter (since/until, destination, type) or replay in several batches")))
        return std::nullopt;
    if (!run(QStringLiteral("NOT (%1)").arg(kReplayableSql), kMaxExcludedCounted + 1))
        return std::nullopt;
    if (s.excludedCount > kMaxExcludedCounted) {
        s.excludedCount = kMaxExcludedCounted;
        s.excludedCountCapped = true;
    }
    finish(s);
    return s;
}

QString itemsToJson(const QList<SelectionItem> &items)
{
    QJsonArray out;
    for (const SelectionItem &i : items) {
        out.append(QJsonArray {
            i.deliveryId, i.eventId, toString(i.status), i.outcomeUnknown, toString(i.risk), i.destination });
    }
    return QString::fromUtf8(QJsonDocument(out).toJson(QJsonDocument::Compact));
}

std::optional<QList<SelectionItem>> itemsFromJson(const QString &json)
{
    const QJsonDocument doc = QJsonDocument::fromJson(json.toUtf8());
    if (!doc.isArray())
        return std::nullopt;
    QList<SelectionItem> out;
    const QJsonArray array = doc.array();
    out.reserve(array.size());
    for (const auto &v : array) {
        const QJsonArray a = v.toArray();
        if (a.size() != 6)
            return std::nullopt;
        SelectionItem i;
        i.deliveryId = a[0].toInteger();
        i.eventId = a[1].toInteger();
        const auto status = deliveryStatusFromString(a[2].toString());
        const auto risk = riskFromString(a[4].toString());
        if (!status || !risk || i.deliveryId <= 0)
            return std::nullopt;
        i.status = *status;
        i.outcomeUnknown = a[3].toBool();
        i.risk = *risk;
        i.destination = a[5].toString();
        out.append(i);
    }
    return out;
}

} // namespace redrive::replay
