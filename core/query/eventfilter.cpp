// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#include "eventfilter.h"

#include "config/config.h"
#include "domain/types.h"

#include <QDateTime>

namespace redrive {

bool EventFilter::isEmpty() const
{
    return statuses.isEmpty() && source.isEmpty() && type.isEmpty() && destination.isEmpty()
        && category.isEmpty() && deliveryStatus.isEmpty() && !sinceMs && !untilMs && search.isEmpty()
        && keyName.isEmpty() && origin.isEmpty();
}

QJsonObject EventFilter::toJsonObject() const
{
    QJsonObject out;
    const auto items = toQuery().queryItems(QUrl::FullyDecoded);
    for (const auto &[key, value] : items)
        out.insert(key, value);
    return out;
}

QUrlQuery EventFilter::toQuery() const
{
    QUrlQuery q;
    if (!statuses.isEmpty())
        q.addQueryItem(QStringLiteral("status"), statuses.join(u','));
    auto add = [&](const char *key, const QString &value) {
        if (!value.isEmpty())
            q.addQueryItem(QLatin1String(key), QString::fromUtf8(QUrl::toPercentEncoding(value)));
    };
    add("source", source);
    add("type", type);
    add("destination", destination);
    add("category", category);
    add("delivery_status", deliveryStatus);
    if (sinceMs)
        q.addQueryItem(QStringLiteral("since"), QString::number(*sinceMs));
    if (untilMs)
        q.addQueryItem(QStringLiteral("until"), QString::number(*untilMs));
    add("q", search);
    if (!keyName.isEmpty())
        add("key", keyName + u':' + keyValue);
    add("origin", origin);
    return q;
}

std::optional<qint64> parseTimestamp(const QString &text)
{
    bool ok = false;
    const qint64 ms = text.toLongLong(&ok);
    if (ok)
        return ms >= 0 ? std::optional<qint64>(ms) : std::nullopt;
    const QDateTime dt = QDateTime::fromString(text, Qt::ISODateWithMs);
    if (!dt.isValid() || !(text.endsWith(u'Z') || text.contains(u'+') || text.lastIndexOf(u'-') > 9))
        return std::nullopt; // a time without a zone is ambiguous: refuse it
    return dt.toMSecsSinceEpoch();
}

std::optional<EventFilter> EventFilter::fromQuery(const QUrlQuery &query, QString *field, QString *message)
{
    EventFilter f;
    auto fail = [&](const QString &name, const QString &why) {
        *field = name;
        *message = why;
        return std::nullopt;
    };
    auto value = [&](const char *key) {
        return query.queryItemValue(QLatin1String(key), QUrl::FullyDecoded).trimmed();
    };
    for (const QString &s : value("status").split(u',', Qt::SkipEmptyParts)) {
        if (!eventStatusFromString(s.trimmed()))
            return fail(QStringLiteral("status"),
                QStringLiteral("unknown status \"%1\"; use %2")
                    .arg(s, allEventStatusNames().join(QLatin1String(", "))));
        f.statuses.append(s.trimmed());
    }
    f.source = value("source");
    f.type = value("type");
    f.destination = value("destination");
    f.category = value("category");
    f.deliveryStatus = value("delivery_status");
    f.search = value("q");
    f.origin = value("origin");
    if (!f.origin.isEmpty() && f.origin != u"webhook" && f.origin != u"reconciled")
        return fail(QStringLiteral("origin"), QStringLiteral("must be \"webhook\" or \"reconciled\""));
    if (!f.category.isEmpty() && !failureCategoryFromString(f.category))
        return fail(QStringLiteral("category"),
            QStringLiteral("unknown category; use %1")
                .arg(allFailureCategoryNames().join(QLatin1String(", "))));
    if (!f.deliveryStatus.isEmpty() && !deliveryStatusFromString(f.deliveryStatus))
        return fail(QStringLiteral("delivery_status"),
            QStringLiteral("unknown delivery status; use %1")
                .arg(allDeliveryStatusNames().join(QLatin1String(", "))));
    for (const auto &[key, len] :
        { std::pair { "source", f.source.size() }, std::pair { "type", f.type.size() },
            std::pair { "destination", f.destination.size() }, std::pair { "q", f.search.size() } }) {
        if (len > 512)
            return fail(QLatin1String(key), QStringLiteral("is longer than 512 characters"));
    }
    if (f.type.indexOf(u'*') >= 0 && f.type.indexOf(u'*') != f.type.size() - 1)
        return fail(
            QStringLiteral("type"), QStringLiteral("'*' is only allowed at the end (a prefix match)"));
    for (const char *key : { "since", "until" }) {
        const QString v = value(key);
        if (v.isEmpty())
            continue;
        const auto ms = parseTimestamp(v);
        if (!ms)
            return fail(QLatin1String(key),
                QStringLiteral(
                    "must be an ISO-8601 time with a zone (e.g. 2026-11-30T06:00:00Z) or milliseconds since the epoch"));
        (qstrcmp(key, "since") == 0 ? f.sinceMs : f.untilMs) = *ms;
    }
    if (const QString key = value("key"); !key.isEmpty()) {
        const qsizetype colon = key.indexOf(u':');
        if (colon <= 0 || colon == key.size() - 1)
            return fail(QStringLiteral("key"), QStringLiteral("must be NAME:VALUE, e.g. order:1042"));
        f.keyName = key.left(colon);
        f.keyValue = key.mid(colon + 1);
        if (f.keyName.size() > 64 || f.keyValue.size() > 512)
            return fail(QStringLiteral("key"),
                QStringLiteral("the name is at most 64 characters and the value at most 512"));
    }
    if (f.sinceMs && f.untilMs && *f.sinceMs >= *f.untilMs)
        return fail(QStringLiteral("until"), QStringLiteral("must be later than since"));
    return f;
}

SqlFragment eventFilterSql(const EventFilter &f, Dialect dialect)
{
    // SQLite: keys committed since the writer's last index batch are still pending (a few thousand
    // rows at most); every key lookup reads them too, so an event is findable from its commit.
    const bool sqlite = dialect == Dialect::Sqlite;
    const QString pending
        = QLatin1String(" UNION ALL SELECT p.event_id FROM ") + QLatin1String(kPendingKeysSource);
    QStringList parts;
    SqlFragment out;
    if (!f.statuses.isEmpty()) {
        QStringList marks;
        for (const auto &s : f.statuses) {
            marks.append(QStringLiteral("?"));
            out.binds.append(s);
        }
        parts.append(QStringLiteral("s.status IN (%1)").arg(marks.join(u',')));
        // A source or type filter has an index on events that is ordered by id as well.
        if (f.source.isEmpty() && f.type.isEmpty())
            out.idColumn = QStringLiteral("s.event_id");
    }
    // A literal, never a bound value: only then can SQLite use the partial index of reconciled
    // events (events_reconciled). The value was checked to be one of the two names.
    if (f.origin == u"reconciled")
        parts.append(QStringLiteral("e.origin = 'reconciled'"));
    else if (f.origin == u"webhook")
        parts.append(QStringLiteral("e.origin = 'webhook'"));
    if (!f.source.isEmpty()) {
        parts.append(QStringLiteral("e.source = ?"));
        out.binds.append(f.source);
    } else if (!f.destination.startsWith(QLatin1String(kNotifyDestinationPrefix))) {
        // The receiver's own notifications are not customer events: shown when asked for by
        // source ("redrive") or by their destination (notify:<name>), not in every list.
        parts.append(QStringLiteral("e.source <> '%1'").arg(QLatin1String(kInternalSource)));
    }
    if (!f.type.isEmpty()) {
        if (f.type.endsWith(u'*')) {
            // A range on the index instead of LIKE, which SQLite would not index here.
            const QString prefix = f.type.chopped(1);
            parts.append(QStringLiteral("(e.event_type >= ? AND e.event_type < ?)"));
            out.binds.append(prefix);
            out.binds.append(QString(prefix + QChar(0xFFFF)));
        } else {
            parts.append(QStringLiteral("e.event_type = ?"));
            out.binds.append(f.type);
        }
    }
    if (!f.destination.isEmpty() || !f.category.isEmpty() || !f.deliveryStatus.isEmpty()) {
        QString sub = QStringLiteral("EXISTS (SELECT 1 FROM deliveries d WHERE d.event_id = e.id");
        if (!f.destination.isEmpty()) {
            sub += QLatin1String(" AND d.destination = ?");
            out.binds.append(f.destination);
        }
        if (!f.category.isEmpty()) {
            sub += QLatin1String(" AND d.last_category = ?");
            out.binds.append(f.category);
        }
        if (!f.deliveryStatus.isEmpty()) {
            sub += QLatin1String(" AND d.status = ?");
            out.binds.append(f.deliveryStatus);
        }
        parts.append(sub + u')');
    }
    if (!f.keyName.isEmpty()) {
        // Index-only on event_keys (value, name, event_id).
        QString keyed
            = QStringLiteral("e.id IN (SELECT event_id FROM event_keys WHERE name = ? AND value = ?");
        out.binds << f.keyName << f.keyValue;
        if (sqlite) {
            keyed += pending + QLatin1String(" WHERE j.key = ? AND j.value = ?");
            out.binds << f.keyName << f.keyValue;
        }
        parts.append(keyed + u')');
    }
    if (f.sinceMs) {
        parts.append(QStringLiteral("e.received_at >= ?"));
        out.binds.append(*f.sinceMs);
    }
    if (f.untilMs) {
        parts.append(QStringLiteral("e.received_at < ?"));
        out.binds.append(*f.untilMs);
    }
    if (!f.search.isEmpty()) {
        // One id set built from index lookups. Written as ORs, PostgreSQL walks every event and
        // tests each (0.5 s at a million rows); as a union of lookups it reads a handful of rows.
        // A provider id is looked up under each source through the unique (source,
        // provider_event_id) key; the sources come from a skip scan of events (source, id), one
        // index seek per source (schema 3 dropped the separate provider-id index).
        QString any = QStringLiteral(
            "e.id IN (WITH RECURSIVE src (name) AS (SELECT MIN(source) FROM events UNION ALL "
            "SELECT (SELECT MIN(source) FROM events WHERE source > src.name) FROM src WHERE src.name "
            "IS NOT NULL) SELECT id FROM events WHERE source IN (SELECT name FROM src WHERE name IS "
            "NOT NULL) AND provider_event_id = ? UNION ALL SELECT event_id FROM deliveries WHERE "
            "downstream_ref = ? UNION ALL SELECT event_id FROM deliveries WHERE idempotency_key = ?");
        out.binds.append(f.search);
        out.binds.append(f.search);
        out.binds.append(f.search);
        // Any business key holding the text, or with "name:value" that one key.
        any += QLatin1String(" UNION ALL SELECT event_id FROM event_keys WHERE value = ?");
        out.binds << f.search;
        if (sqlite) {
            any += pending + QLatin1String(" WHERE j.value = ?");
            out.binds << f.search;
        }
        if (const qsizetype colon = f.search.indexOf(u':'); colon > 0 && colon < f.search.size() - 1) {
            const QString name = f.search.left(colon);
            const QString value = f.search.mid(colon + 1);
            any += QLatin1String(" UNION ALL SELECT event_id FROM event_keys WHERE name = ? AND value = ?");
            out.binds << name << value;
            if (sqlite) {
                any += pending + QLatin1String(" WHERE j.key = ? AND j.value = ?");
                out.binds << name << value;
            }
        }
        bool numeric = false;
        const qint64 id = f.search.toLongLong(&numeric);
        if (numeric) {
            any += QLatin1String(" UNION ALL SELECT id FROM events WHERE id = ?");
            out.binds.append(id);
        }
        parts.append(any + u')');
    }
    out.sql = parts.isEmpty() ? QStringLiteral("1=1") : parts.join(QLatin1String(" AND "));
    return out;
}

QString eventIdBound(QLatin1StringView op, qint64 id, QVariantList *binds)
{
    binds->append(id);
    binds->append(id);
    return QStringLiteral("e.id %1 ? AND s.event_id %1 ?").arg(op);
}

QString encodeCursor(qint64 lastId)
{
    return QString::fromLatin1(QByteArray("e:" + QByteArray::number(lastId))
                                   .toBase64(QByteArray::Base64UrlEncoding | QByteArray::OmitTrailingEquals));
}

std::optional<qint64> decodeCursor(const QString &cursor)
{
    if (cursor.size() > 64)
        return std::nullopt;
    auto decoded = QByteArray::fromBase64Encoding(cursor.toLatin1(),
        QByteArray::Base64UrlEncoding | QByteArray::OmitTrailingEquals
            | QByteArray::AbortOnBase64DecodingErrors);
    if (decoded.decodingStatus != QByteArray::Base64DecodingStatus::Ok || !decoded.decoded.startsWith("e:"))
        return std::nullopt;
    bool ok = false;
    const qint64 id = decoded.decoded.mid(2).toLongLong(&ok);
    if (!ok || id <= 0)
        return std::nullopt;
    return id;
}

} // namespace redrive
