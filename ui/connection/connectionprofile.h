// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#pragma once

#include "storage/database.h"

#include <QColor>
#include <QString>
#include <QUrl>

#include <optional>

class QSettings;

namespace redrive::ui {

// One place the console can connect to. Everything here is safe to keep in a settings file;
// the database password and the API token live in the keychain under the names below.
struct ConnectionProfile {
    enum class DatabaseKind { Sqlite, Postgres };

    QString name;
    QString environment = QStringLiteral("staging"); // shown in the banner
    QColor colour = QColor(0x1e, 0x88, 0xe5);
    DatabaseKind databaseKind = DatabaseKind::Sqlite;
    QString sqlitePath;
    QString pgHost;
    int pgPort = 5432;
    QString pgDatabase = QStringLiteral("redrive");
    QString pgUser;
    // verify-full: the only mode that checks both the certificate and that it names pgHost, so the
    // password and the data cannot be read by a machine in the middle.
    QString pgSslMode = QStringLiteral("verify-full");
    QUrl adminUrl;
    QString caCertificateFile; // trusted for the admin API (and PostgreSQL verify-ca/verify-full)
    QString receiverConfigFile; // optional copy of redrived's TOML: retry schedules for projections
    // PostgreSQL hot standby: the amber banner shows once the replica is further behind than this.
    // -1 stands for text that was not a number (validate() explains).
    int replicaLagWarnSeconds = kDefaultReplicaLagWarnSeconds;
    static constexpr int kDefaultReplicaLagWarnSeconds = 30;
    static constexpr int kMaxReplicaLagWarnSeconds = 24 * 3600;

    // Keychain names; only these appear in settings.
    [[nodiscard]] QString apiTokenKey() const;
    [[nodiscard]] QString databasePasswordKey() const;

    [[nodiscard]] bool isProduction() const;
    // The connection parameters, with the password (from the keychain) filled in.
    [[nodiscard]] StorageUrl storageUrl(const QString &password) const;
    // Where the database is, without any secret: "sqlite:///…" or "postgresql://user@host:5432/db".
    [[nodiscard]] QString databaseDescription() const;

    // Empty when usable; otherwise the offending field and why ("adminUrl", "must start with https://").
    struct Problem {
        QString field;
        QString message;
    };
    [[nodiscard]] std::optional<Problem> validate() const;
    // A sentence when the profile is usable but weaker than it should be (a PostgreSQL sslmode
    // below verify-full); empty otherwise. Shown in the profile dialog, never blocking.
    [[nodiscard]] QString securityWarning() const;

    bool operator==(const ConnectionProfile &) const = default;
};

// localhost, 127.0.0.0/8 or ::1 (as written in a URL's host).
[[nodiscard]] bool isLoopbackHost(const QString &host);

// The profiles in QSettings (group "profiles/<name>"), one typed key table.
class ProfileStore final {
public:
    explicit ProfileStore(QSettings &settings);

    [[nodiscard]] QStringList names() const;
    [[nodiscard]] std::optional<ConnectionProfile> load(const QString &name) const;
    void save(const ConnectionProfile &profile);
    void remove(const QString &name);
    [[nodiscard]] QString lastUsed() const;
    void setLastUsed(const QString &name);

private:
    QSettings &m_settings;
};

} // namespace redrive::ui
