// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#include "responsecapture.h"

#include "storage/storedtext.h"
#include "util/jsonpointer.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

namespace redrive::delivery {
namespace {

constexpr qsizetype kMaxHeaderValue = 256;
constexpr qsizetype kMaxReference = 256;
constexpr qsizetype kMaxJsonToRedact = 256LL * 1024;

bool redactJson(QJsonValue &value)
{
    bool changed = false;
    if (value.isObject()) {
        QJsonObject obj = value.toObject();
        for (auto it = obj.begin(); it != obj.end(); ++it) {
            if (Headers::isSensitive(it.key().toUtf8())) {
                if (it.value() != QJsonValue(QStringLiteral("[redacted]"))) {
                    it.value() = QStringLiteral("[redacted]");
                    changed = true;
                }
                continue;
            }
            QJsonValue inner = it.value();
            if (redactJson(inner)) {
                it.value() = inner;
                changed = true;
            }
        }
        if (changed)
            value = obj;
    } else if (value.isArray()) {
        QJsonArray arr = value.toArray();
        for (qsizetype i = 0; i < arr.size(); ++i) {
            QJsonValue inner = arr.at(i);
            if (redactJson(inner)) {
                arr.replace(i, inner);
                changed = true;
            }
        }
        if (changed)
            value = arr;
    }
    return changed;
}

QByteArray cutUtf8(const QByteArray &utf8, qsizetype maxBytes)
{
    if (utf8.size() <= maxBytes)
        return utf8;
    qsizetype end = maxBytes;
    // Step back over continuation bytes so no character is split.
    while (end > 0 && (static_cast<quint8>(utf8.at(end)) & 0xC0) == 0x80)
        --end;
    return utf8.left(end);
}

} // namespace

Headers selectResponseHeaders(const Headers &response, QByteArrayView extraName)
{
    static const QByteArray keep[]
        = { "content-type", "content-length", "location", "retry-after", "date", "server", "x-request-id",
              "request-id", "x-correlation-id", "x-amzn-requestid", "cf-ray", "www-authenticate" };
    Headers out;
    for (const auto &[name, value] : response.fields()) {
        const QByteArray lower = name.toLower();
        bool wanted = !extraName.isEmpty() && lower == extraName.toByteArray().toLower();
        for (const QByteArray &k : keep)
            wanted = wanted || lower == k;
        if (wanted && out.size() < 32)
            out.add(name.left(128), value.left(kMaxHeaderValue));
    }
    return out.redacted();
}

QString responseExcerpt(QByteArrayView body, int maxBytes)
{
    if (maxBytes <= 0 || body.isEmpty())
        return {};
    QByteArray text = body.toByteArray();
    const QByteArrayView trimmed = body.trimmed();
    if (body.size() <= kMaxJsonToRedact && !trimmed.isEmpty()
        && (trimmed.front() == '{' || trimmed.front() == '[')) {
        QJsonParseError error {};
        const QJsonDocument doc = QJsonDocument::fromJson(text, &error);
        if (error.error == QJsonParseError::NoError) {
            QJsonValue root = doc.isObject() ? QJsonValue(doc.object()) : QJsonValue(doc.array());
            if (redactJson(root))
                text = root.isObject() ? QJsonDocument(root.toObject()).toJson(QJsonDocument::Compact)
                                       : QJsonDocument(root.toArray()).toJson(QJsonDocument::Compact);
        }
    }
    // Decode first (invalid bytes become U+FFFD, which is 3 bytes), then cut the valid UTF-8.
    const QByteArray utf8 = QString::fromUtf8(text.left(qsizetype(maxBytes) + 4)).toUtf8();
    return QString::fromUtf8(cutUtf8(utf8, maxBytes));
}

std::optional<QString> downstreamReference(const SuccessRef &ref, const Headers &headers, QByteArrayView body)
{
    QString value;
    switch (ref.kind) {
    case SuccessRef::Kind::None:
        return std::nullopt;
    case SuccessRef::Kind::Header: {
        if (!headers.contains(ref.name.toLatin1()))
            return std::nullopt;
        value = QString::fromUtf8(headers.value(ref.name.toLatin1())).trimmed();
        break;
    }
    case SuccessRef::Kind::JsonPointer: {
        const QJsonDocument doc = QJsonDocument::fromJson(body.toByteArray());
        if (doc.isNull())
            return std::nullopt;
        const QJsonValue root = doc.isObject() ? QJsonValue(doc.object()) : QJsonValue(doc.array());
        const auto found = resolveJsonPointer(root, ref.name);
        if (!found)
            return std::nullopt;
        const auto text = jsonScalarText(*found);
        if (!text)
            return std::nullopt;
        value = *text;
        break;
    }
    }
    if (value.isEmpty())
        return std::nullopt;
    return value.left(kMaxReference);
}

std::optional<QString> orderingKeyFor(const DestinationConfig &destination, QByteArrayView body)
{
    if (destination.orderingKeyPointer.isEmpty())
        return std::nullopt;
    const QJsonDocument doc = QJsonDocument::fromJson(body.toByteArray());
    if (doc.isNull())
        return std::nullopt;
    return orderingKeyFor(destination, doc.isObject() ? QJsonValue(doc.object()) : QJsonValue(doc.array()));
}

std::optional<QString> orderingKeyFor(
    const DestinationConfig &destination, const std::optional<QJsonValue> &root)
{
    if (destination.orderingKeyPointer.isEmpty() || !root)
        return std::nullopt;
    const auto found = resolveJsonPointer(*root, destination.orderingKeyPointer);
    if (!found)
        return std::nullopt;
    const auto text = jsonScalarText(*found);
    if (!text || text->isEmpty())
        return std::nullopt;
    return storedtext::safeText(*text, kMaxReference);
}

} // namespace redrive::delivery
