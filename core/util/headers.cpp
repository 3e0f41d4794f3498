// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#include "headers.h"

#include <QJsonArray>
#include <QJsonDocument>

namespace redrive {

QByteArrayView Headers::value(QByteArrayView name) const
{
    for (const auto &[n, v] : m_fields) {
        if (n.size() == name.size() && n.compare(name, Qt::CaseInsensitive) == 0)
            return v;
    }
    return {};
}

bool Headers::contains(QByteArrayView name) const
{
    for (const auto &field : m_fields) {
        if (field.first.size() == name.size() && field.first.compare(name, Qt::CaseInsensitive) == 0)
            return true;
    }
    return false;
}

bool Headers::isSensitive(QByteArrayView name)
{
    const QByteArray lower = name.toByteArray().toLower();
    static const QByteArray exact[] = {"authorization", "proxy-authorization", "cookie", "set-cookie",
                                       "x-api-key", "api-key", "x-amz-security-token"};
    for (const auto &e : exact) {
        if (lower == e)
            return true;
    }
    static const QByteArray parts[] = {"token", "secret", "password", "passwd", "api-key", "apikey", "session"};
    for (const auto &p : parts) {
        if (lower.contains(p))
            return true;
    }
    return false;
}

Headers Headers::redacted() const
{
    Headers out;
    out.m_fields.reserve(m_fields.size());
    for (const auto &[n, v] : m_fields)
        out.add(n, isSensitive(n) ? QByteArrayLiteral("[redacted]") : v);
    return out;
}

QByteArray Headers::toJson() const
{
    QJsonArray arr;
    for (const auto &[n, v] : m_fields)
        arr.append(QJsonArray{QString::fromLatin1(n), QString::fromUtf8(v)});
    return QJsonDocument(arr).toJson(QJsonDocument::Compact);
}

Headers Headers::fromJson(const QByteArray &json)
{
    Headers out;
    const QJsonArray arr = QJsonDocument::fromJson(json).array();
    for (const auto &item : arr) {
        const QJsonArray pair = item.toArray();
        if (pair.size() == 2)
            out.add(pair.at(0).toString().toLatin1(), pair.at(1).toString().toUtf8());
    }
    return out;
}

} // namespace redrive
