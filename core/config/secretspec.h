// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#pragma once

// Internal to core/config: where secrets come from ("env:NAME", "file:PATH", "credential:NAME" —
// $CREDENTIALS_DIRECTORY/NAME, as systemd's LoadCredential= provides it — or a literal).
#include <QByteArray>
#include <QString>

#include <optional>

namespace redrive::config_detail {

// Resolves a secret spec. Messages name the source, never the value.
std::optional<QByteArray> resolveSecretValue(const QString &spec, QString *reason);
// What may be logged about a secret: its spec for env:/file:/credential:, its position for a literal.
QString secretLabel(const QString &spec, const QString &keyPath);
// Standard Webhooks secrets are "whsec_" + base64 of the key bytes.
std::optional<QByteArray> decodeWhsec(const QByteArray &value);

} // namespace redrive::config_detail
