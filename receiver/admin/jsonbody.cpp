// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#include "jsonbody.h"

#include "query/eventfilter.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonParseError>
#include <QSet>

#include <cmath>
#include <vector>

namespace redrive::admin {
namespace {

// The first member name that repeats an earlier one of the same object, as a field path
// ("reason", "filter.source", "items[2].name"); empty when none does. QJsonDocument keeps only the
// last of repeated names, so {"reason": "a", "reason": "b"} would be read as "b" while another
// reader of the same body (a proxy, a log, the sender's own parser) may take "a". `json` must
// be text QJsonDocument accepted, so every string is closed and every container balanced.
QString repeatedName(const QByteArray &json)
{
    struct Level {
        bool object = false;
        bool expectName = false; // objects: the next string is a member name
        QString path; // of this container; empty for the body itself
        QString name; // objects: the member being read
        int index = 0; // arrays: the element being read
        QSet<QString> names; // objects: the names seen so far
    };
    const auto childPath = [](const Level &l) -> QString {
        if (!l.object)
            return l.path + QStringLiteral("[%1]").arg(l.index);
        return l.path.isEmpty() ? l.name : l.path + u'.' + l.name;
    };
    std::vector<Level> levels;
    for (qsizetype i = 0; i < json.size(); ++i) {
        switch (json[i]) {
        case '{':
        case '[': {
            Level l;
            l.object = json[i] == '{';
            l.expectName = l.object;
            if (!levels.empty())
                l.path = childPath(levels.back());
            levels.push_back(std::move(l));
            break;
        }
        case '}':
        case ']':
            levels.pop_back();
            break;
        case ',':
            if (Level &l = levels.back(); l.object)
                l.expectName = true;
            else
                ++l.index;
            break;
        case '"': {
            qsizetype end = i + 1;
            while (json[end] != '"')
                end += json[end] == '\\' ? 2 : 1;
            if (!levels.empty() && levels.back().expectName) {
                Level &l = levels.back();
                l.expectName = false;
                const QByteArray literal = json.sliced(i, end - i + 1);
                // "re\u0061son" names "reason": escapes are decoded as the parser decodes them.
                l.name = literal.contains('\\')
                    ? QJsonDocument::fromJson('[' + literal + ']').array().first().toString()
                    : QString::fromUtf8(literal.sliced(1, literal.size() - 2));
                if (l.names.contains(l.name))
                    return childPath(l);
                l.names.insert(l.name);
            }
            i = end;
            break;
        }
        default:
            break;
        }
    }
    return {};
}

} // namespace

std::optional<QJsonObject> parseJsonObject(
    const QByteArray &body, const QStringList &allowed, ApiError *error, bool emptyIsObject)
{
    if (body.trimmed().isEmpty()) {
        if (emptyIsObject)
            return QJsonObject();
        *error = badRequest({}, QStringLiteral("the request body must be a JSON object"));
        return std::nullopt;
    }
    QJsonParseError parseError;
    const QJsonDocument doc = QJsonDocument::fromJson(body, &parseError);
    if (parseError.error != QJsonParseError::NoError) {
        *error = badRequest({},
            QStringLiteral("the request body is not valid JSON (%1 at offset %2)")
                .arg(parseError.errorString())
                .arg(parseError.offset));
        return std::nullopt;
    }
    if (!doc.isObject()) {
        *error = badRequest({}, QStringLiteral("the request body must be a JSON object"));
        return std::nullopt;
    }
    if (const QString repeated = repeatedName(body); !repeated.isEmpty()) {
        *error = badRequest(repeated.left(100), QStringLiteral("is given more than once"));
        return std::nullopt;
    }
    const QJsonObject object = doc.object();
    for (auto it = object.begin(); it != object.end(); ++it) {
        if (!allowed.contains(it.key())) {
            *error = badRequest(it.key().left(100),
                QStringLiteral("unknown field; expected one of: %1").arg(allowed.join(QLatin1String(", "))));
            return std::nullopt;
        }
    }
    return object;
}

bool readText(const QJsonObject &object, const QString &key, const TextRule &rule, QString *out,
    ApiError *error, const QString &fieldName)
{
    const QString field = fieldName.isEmpty() ? key : fieldName;
    out->clear();
    const QJsonValue v = object.value(key);
    if (v.isUndefined() || v.isNull()) {
        if (!rule.required)
            return true;
        *error = badRequest(field, QStringLiteral("is required"));
        return false;
    }
    if (!v.isString()) {
        *error = badRequest(field, QStringLiteral("must be a string"));
        return false;
    }
    const QString text = v.toString().trimmed();
    if (text.isEmpty()) {
        if (!rule.required)
            return true;
        *error = badRequest(field, QStringLiteral("must not be blank"));
        return false;
    }
    if (text.size() > rule.maxChars) {
        *error = badRequest(field, QStringLiteral("is longer than %1 characters").arg(rule.maxChars));
        return false;
    }
    if (!QStringView(text).isValidUtf16()) {
        *error = badRequest(field, QStringLiteral("contains invalid Unicode"));
        return false;
    }
    for (QChar c : text) {
        const char16_t u = c.unicode();
        const bool control = u < 0x20 || u == 0x7f || (u >= 0x80 && u < 0xa0) || u == 0x2028 || u == 0x2029;
        if (control && !(rule.multiline && (u == '\n' || u == '\t' || u == '\r'))) {
            *error = badRequest(field, QStringLiteral("contains control characters"));
            return false;
        }
    }
    *out = text;
    return true;
}

std::optional<QString> readTextBody(
    const QByteArray &body, const QString &field, const TextRule &rule, ApiError *error, bool emptyIsObject)
{
    const auto object = parseJsonObject(body, { field }, error, emptyIsObject);
    if (!object)
        return std::nullopt;
    QString text;
    if (!readText(*object, field, rule, &text, error))
        return std::nullopt;
    return text;
}

std::optional<QString> readOptionalReason(const QByteArray &body, ApiError *error)
{
    return readTextBody(body, QStringLiteral("reason"), TextRule { false, 1000, true }, error, true);
}

bool readId(const QJsonValue &value, const QString &field, qint64 *out, ApiError *error)
{
    constexpr double kMaxSafe = 9007199254740992.0; // 2^53
    if (!value.isDouble()) {
        *error = badRequest(field, QStringLiteral("must be a positive integer"));
        return false;
    }
    const double d = value.toDouble();
    if (!(d >= 1 && d <= kMaxSafe) || std::floor(d) != d) {
        *error = badRequest(field, QStringLiteral("must be a positive integer"));
        return false;
    }
    *out = static_cast<qint64>(d);
    return true;
}

std::optional<qint64> parsePathId(QStringView text)
{
    if (text.isEmpty() || text.size() > 16)
        return std::nullopt;
    for (QChar c : text) {
        if (c < u'0' || c > u'9')
            return std::nullopt;
    }
    bool ok = false;
    const qint64 id = text.toLongLong(&ok);
    return ok && id > 0 ? std::optional<qint64>(id) : std::nullopt;
}

bool checkQueryKeys(const QUrlQuery &query, const QStringList &allowed, ApiError *error)
{
    const auto items = query.queryItems(QUrl::FullyDecoded);
    if (items.size() > 32) {
        *error = badRequest({}, QStringLiteral("too many query parameters"));
        return false;
    }
    for (const auto &item : items) {
        if (!allowed.contains(item.first)) {
            *error = badRequest(item.first.left(100),
                QStringLiteral("unknown query parameter; expected one of: %1")
                    .arg(allowed.join(QLatin1String(", "))));
            return false;
        }
        int seen = 0;
        for (const auto &other : items)
            seen += other.first == item.first ? 1 : 0;
        if (seen > 1) {
            *error = badRequest(item.first, QStringLiteral("is given more than once"));
            return false;
        }
    }
    return true;
}

bool readLimit(const QUrlQuery &query, int fallback, int max, int *out, ApiError *error)
{
    *out = fallback;
    if (!query.hasQueryItem(QStringLiteral("limit")))
        return true;
    bool ok = false;
    const int v = query.queryItemValue(QStringLiteral("limit")).toInt(&ok);
    if (!ok || v < 1 || v > max) {
        *error
            = badRequest(QStringLiteral("limit"), QStringLiteral("must be an integer from 1 to %1").arg(max));
        return false;
    }
    *out = v;
    return true;
}

bool readPageRequest(const QUrlQuery &query, int fallback, int max, PageRequest *out, ApiError *error)
{
    *out = PageRequest {};
    if (!readLimit(query, fallback, max, &out->limit, error))
        return false;
    const QString cursor = query.queryItemValue(QStringLiteral("cursor"), QUrl::FullyDecoded);
    if (cursor.isEmpty())
        return true;
    out->before = decodeCursor(cursor);
    if (!out->before) {
        *error = badRequest(QStringLiteral("cursor"),
            QStringLiteral("malformed cursor; use the next_cursor of a previous page"));
        return false;
    }
    return true;
}

QJsonValue nextCursor(bool more, qint64 lastId)
{
    return more ? QJsonValue(encodeCursor(lastId)) : QJsonValue(QJsonValue::Null);
}

QJsonValue sequenceCursor(bool more, qint64 lastSeq)
{
    return more ? QJsonValue(QString::number(lastSeq)) : QJsonValue(QJsonValue::Null);
}

bool isSha256Hex(QStringView text)
{
    if (text.size() != 64)
        return false;
    for (QChar c : text) {
        if (!((c >= u'0' && c <= u'9') || (c >= u'a' && c <= u'f')))
            return false;
    }
    return true;
}

std::optional<EventFilter> readEventFilter(const QJsonValue &value, const QString &emptyHint, ApiError *error)
{
    if (!value.isObject()) {
        *error = badRequest(
            QStringLiteral("filter"), QStringLiteral("must be an object with the keys of GET events"));
        return std::nullopt;
    }
    static const QStringList keys { QStringLiteral("status"), QStringLiteral("source"),
        QStringLiteral("type"), QStringLiteral("destination"), QStringLiteral("category"),
        QStringLiteral("delivery_status"), QStringLiteral("since"), QStringLiteral("until"),
        QStringLiteral("q"), QStringLiteral("key"), QStringLiteral("origin") };
    const QJsonObject o = value.toObject();
    QUrlQuery query;
    for (auto it = o.begin(); it != o.end(); ++it) {
        const QString field = QStringLiteral("filter.") + it.key().left(100);
        if (!keys.contains(it.key())) {
            *error = badRequest(field,
                QStringLiteral("unknown filter key; expected one of: %1")
                    .arg(keys.join(QLatin1String(", "))));
            return std::nullopt;
        }
        QString text;
        if (it.value().isString()) {
            text = it.value().toString();
        } else if (it.key() == u"status" && it.value().isArray()) {
            QStringList parts;
            const QJsonArray values = it.value().toArray();
            for (const auto &v : values) {
                if (!v.isString()) {
                    *error = badRequest(field, QStringLiteral("must be a string or an array of strings"));
                    return std::nullopt;
                }
                parts.append(v.toString());
            }
            text = parts.join(u',');
        } else if ((it.key() == u"since" || it.key() == u"until") && it.value().isDouble()) {
            text = QString::number(it.value().toInteger());
        } else {
            *error = badRequest(field, QStringLiteral("must be a string"));
            return std::nullopt;
        }
        query.addQueryItem(it.key(), QString::fromUtf8(QUrl::toPercentEncoding(text)));
    }
    QString field, message;
    auto filter = EventFilter::fromQuery(query, &field, &message);
    if (!filter) {
        *error = badRequest(QStringLiteral("filter.") + field, message);
        return std::nullopt;
    }
    if (filter->isEmpty()) {
        *error = badRequest(
            QStringLiteral("filter"), QStringLiteral("needs at least one condition; %1").arg(emptyHint));
        return std::nullopt;
    }
    return filter;
}

bool readDeliveryIds(
    const QJsonValue &value, int maxSelection, const QString &perWhat, QList<qint64> *ids, ApiError *error)
{
    if (!value.isArray()) {
        *error
            = badRequest(QStringLiteral("delivery_ids"), QStringLiteral("must be an array of delivery ids"));
        return false;
    }
    const QJsonArray array = value.toArray();
    if (array.isEmpty()) {
        *error = badRequest(QStringLiteral("delivery_ids"), QStringLiteral("must not be empty"));
        return false;
    }
    if (array.size() > maxSelection) {
        *error = ApiError { 422, QStringLiteral("selection_too_large"),
            QStringLiteral("at most %1 deliveries per %2 (admin.max_selection); split the list into batches")
                .arg(maxSelection)
                .arg(perWhat),
            QStringLiteral("delivery_ids") };
        return false;
    }
    QSet<qint64> seen;
    for (qsizetype i = 0; i < array.size(); ++i) {
        qint64 id = 0;
        if (!readId(array[i], QStringLiteral("delivery_ids[%1]").arg(i), &id, error))
            return false;
        if (seen.contains(id)) {
            *error = badRequest(QStringLiteral("delivery_ids[%1]").arg(i),
                QStringLiteral("delivery %1 is listed twice").arg(id));
            return false;
        }
        seen.insert(id);
        ids->append(id);
    }
    return true;
}

} // namespace redrive::admin
