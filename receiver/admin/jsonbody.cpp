// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#include "jsonbody.h"

#include "query/eventfilter.h"

#include <QJsonDocument>
#include <QJsonParseError>

#include <cmath>

namespace redrive::admin {

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

} // namespace redrive::admin
