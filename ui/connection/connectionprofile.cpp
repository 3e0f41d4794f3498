// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#include "connectionprofile.h"

#include "common/settingsnames.h"
#include "secrets/secretstore.h"

#include <QCoreApplication>
#include <QFileInfo>
#include <QHostAddress>
#include <QSettings>

namespace redrive::ui {
namespace {

QString groupFor(const QString &name)
{
    return QLatin1String("profiles/") + settingsKeyFor(name);
}

namespace key {
constexpr QLatin1String environment("environment");
constexpr QLatin1String colour("colour");
constexpr QLatin1String databaseKind("database/kind");
constexpr QLatin1String sqlitePath("database/sqlitePath");
constexpr QLatin1String pgHost("database/host");
constexpr QLatin1String pgPort("database/port");
constexpr QLatin1String pgDatabase("database/name");
constexpr QLatin1String pgUser("database/user");
constexpr QLatin1String pgSslMode("database/sslmode");
constexpr QLatin1String passwordKey("database/passwordKeychainName");
constexpr QLatin1String adminUrl("admin/url");
constexpr QLatin1String caFile("admin/caCertificate");
constexpr QLatin1String tokenKey("admin/tokenKeychainName");
constexpr QLatin1String receiverConfig("receiver/configFile");
constexpr QLatin1String replicaLagWarn("database/replicaLagWarnSeconds");
} // namespace key

} // namespace

QString ConnectionProfile::apiTokenKey() const
{
    return SecretStore::keyFor(name, QStringLiteral("api-token"));
}

QString ConnectionProfile::databasePasswordKey() const
{
    return SecretStore::keyFor(name, QStringLiteral("db-password"));
}

bool ConnectionProfile::isProduction() const
{
    return environment.trimmed().startsWith(QLatin1String("prod"), Qt::CaseInsensitive);
}

StorageUrl ConnectionProfile::storageUrl(const QString &password) const
{
    StorageUrl url;
    if (databaseKind == DatabaseKind::Sqlite) {
        url.dialect = Dialect::Sqlite;
        url.sqlitePath = sqlitePath;
        return url;
    }
    url.dialect = Dialect::Postgres;
    url.host = pgHost;
    url.port = pgPort;
    url.database = pgDatabase;
    url.user = pgUser;
    url.password = password;
    QStringList options { QStringLiteral("sslmode=") + pgSslMode, QStringLiteral("connect_timeout=5"),
        QStringLiteral("application_name=redrive-console") };
    if (!caCertificateFile.isEmpty() && pgSslMode.startsWith(QLatin1String("verify")))
        options.append(QStringLiteral("sslrootcert=") + caCertificateFile);
    url.connectOptions = options.join(u';');
    return url;
}

QString ConnectionProfile::databaseDescription() const
{
    if (databaseKind == DatabaseKind::Sqlite)
        return QLatin1String("sqlite://") + sqlitePath;
    return QStringLiteral("postgresql://%1@%2:%3/%4").arg(pgUser, pgHost).arg(pgPort).arg(pgDatabase);
}

std::optional<ConnectionProfile::Problem> ConnectionProfile::validate() const
{
    if (name.trimmed().isEmpty())
        return Problem { QStringLiteral("name"),
            QCoreApplication::translate("redrive::ui::ConnectionProfile", "Give the profile a name.") };
    if (environment.trimmed().isEmpty())
        return Problem { QStringLiteral("environment"),
            QCoreApplication::translate("redrive::ui::ConnectionProfile",
                "Name the environment (for example production or staging).") };
    if (databaseKind == DatabaseKind::Sqlite) {
        if (sqlitePath.isEmpty())
            return Problem { QStringLiteral("sqlitePath"),
                QCoreApplication::translate(
                    "redrive::ui::ConnectionProfile", "Choose the receiver's SQLite database file.") };
    } else {
        if (pgHost.isEmpty())
            return Problem { QStringLiteral("pgHost"),
                QCoreApplication::translate(
                    "redrive::ui::ConnectionProfile", "Enter the PostgreSQL host name.") };
        if (pgPort <= 0 || pgPort > 65535)
            return Problem { QStringLiteral("pgPort"),
                QCoreApplication::translate(
                    "redrive::ui::ConnectionProfile", "The port must be between 1 and 65535.") };
        if (pgDatabase.isEmpty())
            return Problem { QStringLiteral("pgDatabase"),
                QCoreApplication::translate("redrive::ui::ConnectionProfile", "Enter the database name.") };
        static const QStringList modes
            = { QStringLiteral("disable"), QStringLiteral("allow"), QStringLiteral("prefer"),
                  QStringLiteral("require"), QStringLiteral("verify-ca"), QStringLiteral("verify-full") };
        if (!modes.contains(pgSslMode))
            return Problem { QStringLiteral("pgSslMode"),
                QCoreApplication::translate("redrive::ui::ConnectionProfile", "sslmode must be one of %1")
                    .arg(modes.join(QLatin1String(", "))) };
        if (replicaLagWarnSeconds < 1 || replicaLagWarnSeconds > kMaxReplicaLagWarnSeconds)
            return Problem { QStringLiteral("replicaLagWarn"),
                QCoreApplication::translate("redrive::ui::ConnectionProfile",
                    "The replica lag warning must be a whole number of seconds from 1 to %1 "
                    "(24 hours); the default is %2.")
                    .arg(kMaxReplicaLagWarnSeconds)
                    .arg(kDefaultReplicaLagWarnSeconds) };
    }
    if (!adminUrl.isEmpty()) {
        if (!adminUrl.isValid() || adminUrl.host().isEmpty()
            || (adminUrl.scheme() != u"https" && adminUrl.scheme() != u"http"))
            return Problem { QStringLiteral("adminUrl"),
                QCoreApplication::translate("redrive::ui::ConnectionProfile",
                    "The admin API address must look like https://host:8081") };
        // Plain HTTP carries the bearer token in clear: only this machine may be on the other end.
        if (adminUrl.scheme() == u"http" && !isLoopbackHost(adminUrl.host()))
            return Problem { QStringLiteral("adminUrl"),
                QCoreApplication::translate("redrive::ui::ConnectionProfile",
                    "http:// would send the API token unencrypted to %1. Plain HTTP is accepted "
                    "only for this machine (localhost, 127.0.0.1, ::1); use https://%1…")
                    .arg(adminUrl.host()) };
    }
    if (!receiverConfigFile.isEmpty() && !QFileInfo(receiverConfigFile).isReadable())
        return Problem { QStringLiteral("receiverConfig"),
            QCoreApplication::translate(
                "redrive::ui::ConnectionProfile", "The receiver configuration file %1 cannot be read.")
                .arg(receiverConfigFile) };
    if (!caCertificateFile.isEmpty() && !QFileInfo(caCertificateFile).isReadable())
        return Problem { QStringLiteral("caCertificate"),
            QCoreApplication::translate(
                "redrive::ui::ConnectionProfile", "The CA certificate file %1 cannot be read.")
                .arg(caCertificateFile) };
    return std::nullopt;
}

QString ConnectionProfile::securityWarning() const
{
    if (databaseKind != DatabaseKind::Postgres || pgSslMode == u"verify-full")
        return {};
    if (pgSslMode == u"verify-ca")
        return QCoreApplication::translate("redrive::ui::ConnectionProfile",
            "sslmode=verify-ca checks who issued the certificate but does not check that it "
            "names %1: any certificate from that CA is accepted. Prefer verify-full.")
            .arg(pgHost.isEmpty() ? QCoreApplication::translate("redrive::ui::ConnectionProfile", "the host")
                                  : pgHost);
    return QCoreApplication::translate("redrive::ui::ConnectionProfile",
        "sslmode=%1 does not check the server's certificate: a machine in the middle can "
        "read the database password and every row. Use verify-full (with the CA "
        "certificate) unless the network path is trusted.")
        .arg(pgSslMode);
}

bool isLoopbackHost(const QString &host)
{
    if (host.compare(QLatin1String("localhost"), Qt::CaseInsensitive) == 0)
        return true;
    const QHostAddress address(host);
    return !address.isNull() && address.isLoopback();
}

ProfileStore::ProfileStore(QSettings &settings)
    : m_settings(settings)
{ }

QStringList ProfileStore::names() const
{
    return settingsNames(m_settings, QStringLiteral("profiles"), SettingsChildren::Groups);
}

std::optional<ConnectionProfile> ProfileStore::load(const QString &name) const
{
    if (!names().contains(name))
        return std::nullopt;
    ConnectionProfile p;
    p.name = name;
    m_settings.beginGroup(groupFor(name));
    p.environment = m_settings.value(key::environment, p.environment).toString();
    p.colour = QColor::fromString(m_settings.value(key::colour, p.colour.name()).toString());
    p.databaseKind = m_settings.value(key::databaseKind).toString() == u"postgresql"
        ? ConnectionProfile::DatabaseKind::Postgres
        : ConnectionProfile::DatabaseKind::Sqlite;
    p.sqlitePath = m_settings.value(key::sqlitePath).toString();
    p.pgHost = m_settings.value(key::pgHost).toString();
    p.pgPort = m_settings.value(key::pgPort, p.pgPort).toInt();
    p.pgDatabase = m_settings.value(key::pgDatabase, p.pgDatabase).toString();
    p.pgUser = m_settings.value(key::pgUser).toString();
    p.pgSslMode = m_settings.value(key::pgSslMode, p.pgSslMode).toString();
    p.adminUrl = QUrl(m_settings.value(key::adminUrl).toString());
    p.caCertificateFile = m_settings.value(key::caFile).toString();
    p.receiverConfigFile = m_settings.value(key::receiverConfig).toString();
    bool lagOk = false;
    p.replicaLagWarnSeconds
        = m_settings.value(key::replicaLagWarn, ConnectionProfile::kDefaultReplicaLagWarnSeconds)
              .toInt(&lagOk);
    if (!lagOk)
        p.replicaLagWarnSeconds = -1;
    m_settings.endGroup();
    if (!p.colour.isValid())
        p.colour = QColor(0x1e, 0x88, 0xe5);
    return p;
}

void ProfileStore::save(const ConnectionProfile &p)
{
    m_settings.beginGroup(groupFor(p.name));
    m_settings.setValue(key::environment, p.environment);
    m_settings.setValue(key::colour, p.colour.name());
    m_settings.setValue(key::databaseKind,
        p.databaseKind == ConnectionProfile::DatabaseKind::Postgres ? QStringLiteral("postgresql")
                                                                    : QStringLiteral("sqlite"));
    m_settings.setValue(key::sqlitePath, p.sqlitePath);
    m_settings.setValue(key::pgHost, p.pgHost);
    m_settings.setValue(key::pgPort, p.pgPort);
    m_settings.setValue(key::pgDatabase, p.pgDatabase);
    m_settings.setValue(key::pgUser, p.pgUser);
    m_settings.setValue(key::pgSslMode, p.pgSslMode);
    m_settings.setValue(key::passwordKey, p.databasePasswordKey());
    m_settings.setValue(key::adminUrl, p.adminUrl.toString());
    m_settings.setValue(key::caFile, p.caCertificateFile);
    m_settings.setValue(key::tokenKey, p.apiTokenKey());
    m_settings.setValue(key::receiverConfig, p.receiverConfigFile);
    m_settings.setValue(key::replicaLagWarn, p.replicaLagWarnSeconds);
    m_settings.endGroup();
    m_settings.sync();
}

void ProfileStore::remove(const QString &name)
{
    m_settings.remove(groupFor(name));
    m_settings.sync();
}

QString ProfileStore::lastUsed() const
{
    return m_settings.value(QStringLiteral("connection/lastProfile")).toString();
}

void ProfileStore::setLastUsed(const QString &name)
{
    m_settings.setValue(QStringLiteral("connection/lastProfile"), name);
}

} // namespace redrive::ui
