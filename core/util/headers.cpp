// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#include "headers.h"

#include <QJsonArray>
#include <QJsonDocument>

#include <string_view>

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

namespace {

// ASCII case folding, as QByteArray::toLower() does; header names are tokens.
constexpr char lowerAscii(char c)
{
    return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c;
}

bool isSensitiveLower(std::string_view lower)
{
    static constexpr std::string_view exact[] = { "authorization", "proxy-authorization", "cookie",
        "set-cookie", "x-api-key", "api-key", "x-amz-security-token" };
    for (const auto e : exact) {
        if (lower == e)
            return true;
    }
    static constexpr std::string_view parts[]
        = { "token", "secret", "password", "passwd", "api-key", "apikey", "session" };
    for (const auto p : parts) {
        if (lower.find(p) != std::string_view::npos)
            return true;
    }
    return false;
}

} // namespace

// Called for every header of every request (redacted copies are stored): no allocation for
// names of ordinary length.
bool Headers::isSensitive(QByteArrayView name)
{
    char buffer[128];
    if (name.size() <= qsizetype(sizeof buffer)) {
        for (qsizetype i = 0; i < name.size(); ++i)
            buffer[i] = lowerAscii(name[i]);
        return isSensitiveLower(std::string_view(buffer, static_cast<std::size_t>(name.size())));
    }
    const QByteArray lower = name.toByteArray().toLower();
    return isSensitiveLower(std::string_view(lower.constData(), static_cast<std::size_t>(lower.size())));
}

bool Headers::isSignature(QByteArrayView name)
{
    static constexpr QByteArrayView names[] = { "x-hub-signature-256", "x-hub-signature", "stripe-signature",
        "webhook-signature", "x-shopify-hmac-sha256", "x-signature" };
    for (const auto n : names) {
        if (name.size() == n.size() && name.compare(n, Qt::CaseInsensitive) == 0)
            return true;
    }
    return false;
}

bool Headers::isSignature(QByteArrayView name, QByteArrayView extra)
{
    if (!extra.isEmpty() && name.size() == extra.size() && name.compare(extra, Qt::CaseInsensitive) == 0)
        return true;
    return isSignature(name);
}

Headers Headers::redacted(QByteArrayView signatureHeader) const
{
    Headers out;
    out.m_fields.reserve(m_fields.size());
    for (const auto &[n, v] : m_fields) {
        if (!isSignature(n, signatureHeader))
            out.add(n, isSensitive(n) ? QByteArrayLiteral("[redacted]") : v);
    }
    return out;
}

QByteArray Headers::toJson() const
{
    QJsonArray arr;
    for (const auto &[n, v] : m_fields)
        arr.append(QJsonArray { QString::fromLatin1(n), QString::fromUtf8(v) });
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
