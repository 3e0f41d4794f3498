// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#pragma once

#include <QJsonValue>
#include <QStringView>

#include <optional>

namespace redrive {

// RFC 6901 JSON pointer lookup ("/customer/id", "/items/0/sku"; "~1" is '/', "~0" is '~').
// Returns nullopt when the pointer is malformed or the path does not exist.
std::optional<QJsonValue> resolveJsonPointer(const QJsonValue &root, QStringView pointer);

// A scalar JSON value as text: strings as is, numbers without a trailing ".0", booleans as
// "true"/"false". Objects, arrays and null give nullopt.
std::optional<QString> jsonScalarText(const QJsonValue &value);

} // namespace redrive
