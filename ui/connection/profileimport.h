// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#pragma once

#include "connectionprofile.h"

#include <QByteArray>
#include <QObject>
#include <QString>

#include <optional>

class QSettings;

namespace redrive {
class SecretStore;
}

namespace redrive::ui {

// `redrive --import-profile FILE [--token-stdin]`: provisioning without the dialog (the demo
// script, or an administrator preparing a workstation). FILE is a small JSON object:
//   {"name": "demo", "environment": "demo", "colour": "#2e7d32",
//    "sqlite": "/path/redrive.db"   | "postgresql": {"host", "port", "database", "user", "sslmode"},
//    "admin_url": "http://127.0.0.1:8081", "ca_file": "...", "receiver_config": "/path/redrived.toml"}
// The API token, when given, is read from standard input and goes only to the keychain; the
// file itself never holds a secret (a "token" or "password" key in it is refused).
std::optional<ConnectionProfile> parseProfileJson(const QByteArray &json, QString *error);

class ProfileImport final : public QObject {
    Q_OBJECT
public:
    ProfileImport(QSettings &settings, SecretStore &secrets, QObject *parent = nullptr);

    // Validates and saves the profile, then stores `token` (if not empty) in the keychain.
    // Reports exactly once through `finished`, asynchronously.
    void run(const QByteArray &profileJson, const QString &token);

Q_SIGNALS:
    void finished(int exitCode, const QString &message);

private:
    void finish(int exitCode, const QString &message);
    QSettings &m_settings;
    SecretStore &m_secrets;
};

} // namespace redrive::ui
