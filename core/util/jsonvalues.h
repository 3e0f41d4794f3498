// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#pragma once

#include "util/clock.h"

#include <QJsonValue>
#include <QString>

#include <optional>

// The nullable values of the JSON Redrive renders (admin API, evidence bundles): a missing value
// is JSON null, never 0, "" or the epoch. Times are ISO-8601 UTC.
namespace redrive::json {

inline QJsonValue isoOrNull(const std::optional<qint64> &ms)
{
    return ms ? QJsonValue(isoUtc(*ms)) : QJsonValue(QJsonValue::Null);
}

template<class T> QJsonValue numberOrNull(const std::optional<T> &value)
{
    return value ? QJsonValue(static_cast<qint64>(*value)) : QJsonValue(QJsonValue::Null);
}

// A column that was NULL (a null QString) is null; an empty text stays "".
inline QJsonValue textOrNull(const QString &text)
{
    return text.isNull() ? QJsonValue(QJsonValue::Null) : QJsonValue(text);
}

// Empty and NULL alike are null: for optional text where "" means "not given".
inline QJsonValue nonEmptyOrNull(const QString &text)
{
    return text.isEmpty() ? QJsonValue(QJsonValue::Null) : QJsonValue(text);
}

} // namespace redrive::json
