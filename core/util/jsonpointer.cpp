// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#include "jsonpointer.h"

#include <QJsonArray>
#include <QJsonObject>

#include <cmath>

namespace redrive {

std::optional<QJsonValue> resolveJsonPointer(const QJsonValue &root, QStringView pointer)
{
    if (pointer.isEmpty())
        return root;
    if (pointer.front() != u'/')
        return std::nullopt;
    QJsonValue current = root;
    qsizetype start = 1;
    while (true) {
        qsizetype end = pointer.indexOf(u'/', start);
        if (end < 0)
            end = pointer.size();
        QString token = pointer.mid(start, end - start).toString();
        token.replace(QLatin1String("~1"), QLatin1String("/"));
        token.replace(QLatin1String("~0"), QLatin1String("~"));
        if (current.isObject()) {
            const QJsonObject obj = current.toObject();
            const auto it = obj.constFind(token);
            if (it == obj.constEnd())
                return std::nullopt;
            current = it.value();
        } else if (current.isArray()) {
            bool ok = false;
            const int index = token.toInt(&ok);
            const QJsonArray arr = current.toArray();
            if (!ok || index < 0 || index >= arr.size() || (token.size() > 1 && token.front() == u'0'))
                return std::nullopt;
            current = arr.at(index);
        } else {
            return std::nullopt;
        }
        if (end == pointer.size())
            return current;
        start = end + 1;
    }
}

std::optional<QString> jsonScalarText(const QJsonValue &value)
{
    switch (value.type()) {
    case QJsonValue::String:
        return value.toString();
    case QJsonValue::Bool:
        return value.toBool() ? QStringLiteral("true") : QStringLiteral("false");
    case QJsonValue::Double: {
        const double d = value.toDouble();
        if (std::floor(d) == d && std::fabs(d) < 9.007199254740992e15)
            return QString::number(static_cast<qint64>(d));
        return QString::number(d, 'g', 17);
    }
    default:
        return std::nullopt;
    }
}

} // namespace redrive
