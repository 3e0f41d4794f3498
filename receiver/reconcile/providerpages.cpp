// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#include "providerpages.h"

#include "signatures/jsonbody.h"

#include <QDateTime>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

#include <array>
#include <simdjson.h>
#include <string_view>

namespace redrive::reconcile {
namespace {

Failure malformed(const QString &why)
{
    return Failure(QStringLiteral("malformed page from the provider: %1").arg(why));
}

bool validText(const QString &s, int maxLength)
{
    return !s.isEmpty() && s.size() <= maxLength && !s.contains(QChar(0));
}

// One listed event: the raw object is read again by the ingest path's own JSON reader, which
// validates the whole text (grammar, UTF-8, escapes), so what is recorded is what ingest would
// have accepted from a webhook.
Result<StripeEvent> readStripeEvent(std::string_view raw, qsizetype index)
{
    StripeEvent e;
    e.raw = QByteArray(raw.data(), static_cast<qsizetype>(raw.size()));
    const std::array<QByteArrayView, 3> keys { "id", "type", "created" };
    std::array<signatures::jsonbody::Member, 3> members;
    if (signatures::jsonbody::readObject(e.raw, keys, members) != signatures::jsonbody::Status::Ok)
        return malformed(QStringLiteral("data[%1] is not a JSON object").arg(index));
    if (!members[0].string || !validText(*members[0].string, kMaxIdLength))
        return malformed(QStringLiteral("data[%1].id is not an event id").arg(index));
    if (!members[1].string || !validText(*members[1].string, kMaxTypeLength))
        return malformed(QStringLiteral("data[%1].type is not an event type").arg(index));
    if (!members[2].integer || *members[2].integer < 0)
        return malformed(QStringLiteral("data[%1].created is not a Unix time").arg(index));
    e.id = *members[0].string;
    e.type = *members[1].string;
    e.createdSeconds = *members[2].integer;
    return e;
}

} // namespace

Result<StripePage> parseStripePage(const QByteArray &body)
{
    // On-demand parsing reads lazily; the whole text is validated first (grammar, UTF-8, nothing
    // after the object), so a truncated or corrupted page is refused as a whole.
    if (signatures::jsonbody::readObject(body, {}, {}) != signatures::jsonbody::Status::Ok)
        return malformed(QStringLiteral("not a JSON object"));
    namespace od = simdjson::ondemand;
    od::parser parser;
    const simdjson::padded_string json(body.constData(), static_cast<std::size_t>(body.size()));
    od::document doc;
    od::object root;
    if (parser.iterate(json).get(doc) != simdjson::SUCCESS || doc.get_object().get(root) != simdjson::SUCCESS)
        return malformed(QStringLiteral("not a JSON object"));
    StripePage page;
    bool sawObject = false, sawData = false, sawHasMore = false;
    for (auto member : root) {
        std::string_view key;
        if (member.unescaped_key().get(key) != simdjson::SUCCESS)
            return malformed(QStringLiteral("not valid JSON"));
        if (key == "object") {
            std::string_view value;
            if (member.value().get_string().get(value) != simdjson::SUCCESS || value != "list")
                return malformed(QStringLiteral("\"object\" is not \"list\""));
            sawObject = true;
        } else if (key == "has_more") {
            if (member.value().get_bool().get(page.hasMore) != simdjson::SUCCESS)
                return malformed(QStringLiteral("\"has_more\" is not true or false"));
            sawHasMore = true;
        } else if (key == "data") {
            od::array data;
            if (member.value().get_array().get(data) != simdjson::SUCCESS)
                return malformed(QStringLiteral("\"data\" is not an array"));
            for (auto element : data) {
                od::object object;
                std::string_view raw;
                if (element.get_object().get(object) != simdjson::SUCCESS
                    || object.raw_json().get(raw) != simdjson::SUCCESS)
                    return malformed(QStringLiteral("data[%1] is not a JSON object").arg(page.events.size()));
                auto event = readStripeEvent(raw, page.events.size());
                if (!event)
                    return Failure(event.error());
                page.events.append(std::move(*event));
            }
            sawData = true;
        } // other members are skipped by the iteration
    }
    if (!sawObject || !sawData || !sawHasMore)
        return malformed(QStringLiteral("a Stripe list needs \"object\", \"data\" and \"has_more\""));
    if (page.hasMore && page.events.isEmpty())
        return malformed(QStringLiteral("\"has_more\" is true on an empty page"));
    return page;
}

Result<QList<GitHubDelivery>> parseGitHubPage(const QByteArray &body)
{
    QJsonParseError error;
    const QJsonDocument doc = QJsonDocument::fromJson(body, &error);
    if (error.error != QJsonParseError::NoError || !doc.isArray())
        return malformed(QStringLiteral("not a JSON array of deliveries"));
    QList<GitHubDelivery> out;
    const QJsonArray items = doc.array();
    for (qsizetype i = 0; i < items.size(); ++i) {
        const QJsonObject o = items.at(i).toObject();
        GitHubDelivery d;
        const QJsonValue id = o.value(QLatin1String("id"));
        const double number = id.toDouble(-1);
        if (!items.at(i).isObject() || !id.isDouble() || number < 1 || number > 9007199254740992.0
            || number != static_cast<double>(static_cast<qint64>(number)))
            return malformed(QStringLiteral("[%1].id is not a delivery id").arg(i));
        d.id = static_cast<qint64>(number);
        d.guid = o.value(QLatin1String("guid")).toString();
        if (!validText(d.guid, kMaxIdLength))
            return malformed(QStringLiteral("[%1].guid is not a delivery guid").arg(i));
        const QDateTime at
            = QDateTime::fromString(o.value(QLatin1String("delivered_at")).toString(), Qt::ISODateWithMs);
        if (!at.isValid())
            return malformed(QStringLiteral("[%1].delivered_at is not an ISO-8601 time").arg(i));
        d.deliveredAtMs = at.toMSecsSinceEpoch();
        d.redelivery = o.value(QLatin1String("redelivery")).toBool();
        d.statusCode = o.value(QLatin1String("status_code")).toInt();
        d.event = o.value(QLatin1String("event")).toString();
        d.action = o.value(QLatin1String("action")).toString();
        out.append(d);
    }
    return out;
}

std::optional<QUrl> nextLink(const QByteArray &linkHeader)
{
    // <url>; rel="next", <url>; rel="last" — a comma only separates links outside the brackets.
    qsizetype at = 0;
    while (at < linkHeader.size()) {
        const qsizetype open = linkHeader.indexOf('<', at);
        if (open < 0)
            break;
        const qsizetype close = linkHeader.indexOf('>', open);
        if (close < 0)
            break;
        qsizetype end = linkHeader.indexOf(',', close);
        if (end < 0)
            end = linkHeader.size();
        const QByteArray params = linkHeader.mid(close + 1, end - close - 1);
        for (const QByteArray &param : params.split(';')) {
            const QByteArray p = param.trimmed();
            if (!p.startsWith("rel="))
                continue;
            QByteArray rel = p.mid(4);
            if (rel.startsWith('"') && rel.endsWith('"') && rel.size() >= 2)
                rel = rel.mid(1, rel.size() - 2);
            for (const QByteArray &name : rel.split(' ')) {
                if (name.compare("next", Qt::CaseInsensitive) == 0)
                    return QUrl::fromEncoded(linkHeader.mid(open + 1, close - open - 1), QUrl::StrictMode);
            }
        }
        at = end + 1;
    }
    return std::nullopt;
}

QString providerMessage(const QByteArray &body)
{
    const QJsonObject o = QJsonDocument::fromJson(body).object();
    QString message = o.value(QLatin1String("message")).toString();
    if (message.isEmpty())
        message = o.value(QLatin1String("error")).toObject().value(QLatin1String("message")).toString();
    QString clean;
    for (QChar c : std::as_const(message)) {
        if (!c.isNull() && c.category() != QChar::Other_Control)
            clean.append(c);
    }
    return clean.left(200);
}

} // namespace redrive::reconcile
