// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#include "profileimport.h"

#include "secrets/secretstore.h"

#include <QCoreApplication>
#include <QJsonDocument>
#include <QJsonObject>
#include <QMetaObject>
#include <QSet>
#include <QSettings>

namespace redrive::ui {

std::optional<ConnectionProfile> parseProfileJson(const QByteArray &json, QString *error)
{
    QJsonParseError parseError;
    const QJsonDocument doc = QJsonDocument::fromJson(json, &parseError);
    if (parseError.error != QJsonParseError::NoError || !doc.isObject()) {
        *error = QCoreApplication::translate(
            "redrive::ui::ProfileImport", "the profile file is not a JSON object (%1)")
                     .arg(parseError.errorString());
        return std::nullopt;
    }
    const QJsonObject o = doc.object();
    static const QSet<QString> known = { QStringLiteral("name"), QStringLiteral("environment"),
        QStringLiteral("colour"), QStringLiteral("sqlite"), QStringLiteral("postgresql"),
        QStringLiteral("admin_url"), QStringLiteral("ca_file"), QStringLiteral("receiver_config") };
    for (auto it = o.constBegin(); it != o.constEnd(); ++it) {
        if (it.key().contains(QLatin1String("token"), Qt::CaseInsensitive)
            || it.key().contains(QLatin1String("password"), Qt::CaseInsensitive)) {
            *error = QCoreApplication::translate("redrive::ui::ProfileImport",
                "\"%1\": secrets do not belong in a profile file; pass the token on standard "
                "input with --token-stdin")
                         .arg(it.key());
            return std::nullopt;
        }
        if (!known.contains(it.key())) {
            *error = QCoreApplication::translate("redrive::ui::ProfileImport", "\"%1\": unknown key")
                         .arg(it.key());
            return std::nullopt;
        }
        if (it.key() != u"postgresql" && !it.value().isString()) {
            *error = QCoreApplication::translate("redrive::ui::ProfileImport", "\"%1\": must be a string")
                         .arg(it.key());
            return std::nullopt;
        }
    }
    ConnectionProfile p;
    p.name = o.value(QStringLiteral("name")).toString();
    p.environment = o.value(QStringLiteral("environment")).toString(p.environment);
    if (o.contains(QStringLiteral("colour"))) {
        p.colour = QColor(o.value(QStringLiteral("colour")).toString());
        if (!p.colour.isValid()) {
            *error = QCoreApplication::translate(
                "redrive::ui::ProfileImport", "\"colour\": not a colour (use #rrggbb)");
            return std::nullopt;
        }
    }
    if (o.contains(QStringLiteral("sqlite")) == o.contains(QStringLiteral("postgresql"))) {
        *error = QCoreApplication::translate(
            "redrive::ui::ProfileImport", "give exactly one of \"sqlite\" or \"postgresql\"");
        return std::nullopt;
    }
    if (o.contains(QStringLiteral("sqlite"))) {
        p.databaseKind = ConnectionProfile::DatabaseKind::Sqlite;
        p.sqlitePath = o.value(QStringLiteral("sqlite")).toString();
    } else {
        const QJsonObject pg = o.value(QStringLiteral("postgresql")).toObject();
        p.databaseKind = ConnectionProfile::DatabaseKind::Postgres;
        p.pgHost = pg.value(QStringLiteral("host")).toString();
        p.pgPort = pg.value(QStringLiteral("port")).toInt(5432);
        p.pgDatabase = pg.value(QStringLiteral("database")).toString(p.pgDatabase);
        p.pgUser = pg.value(QStringLiteral("user")).toString();
        p.pgSslMode = pg.value(QStringLiteral("sslmode")).toString(p.pgSslMode);
    }
    p.adminUrl = QUrl(o.value(QStringLiteral("admin_url")).toString());
    p.caCertificateFile = o.value(QStringLiteral("ca_file")).toString();
    p.receiverConfigFile = o.value(QStringLiteral("receiver_config")).toString();
    if (const auto problem = p.validate()) {
        *error = QStringLiteral("%1: %2").arg(problem->field, problem->message);
        return std::nullopt;
    }
    return p;
}

ProfileImport::ProfileImport(QSettings &settings, SecretStore &secrets, QObject *parent)
    : QObject(parent)
    , m_settings(settings)
    , m_secrets(secrets)
{ }

void ProfileImport::run(const QByteArray &profileJson, const QString &token)
{
    QString error;
    const auto profile = parseProfileJson(profileJson, &error);
    if (!profile) {
        finish(2, tr("redrive: cannot import the profile: %1").arg(error));
        return;
    }
    ProfileStore(m_settings).save(*profile);
    ProfileStore(m_settings).setLastUsed(profile->name);
    if (token.isEmpty()) {
        finish(0, tr("redrive: profile \"%1\" saved").arg(profile->name));
        return;
    }
    SecretJob *job = m_secrets.write(profile->apiTokenKey(), token);
    connect(job, &SecretJob::finished, this, [this, name = profile->name](const SecretResult &result) {
        if (result.status == SecretStatus::Ok) {
            finish(0, tr("redrive: profile \"%1\" saved; its API token is in the keychain").arg(name));
        } else {
            finish(1,
                tr("redrive: profile \"%1\" saved, but the API token was NOT stored: %2 (%3). "
                   "The console will ask for it when connecting.")
                    .arg(name, SecretStore::describe(result.status), result.message));
        }
    });
}

void ProfileImport::finish(int exitCode, const QString &message)
{
    // Always asynchronous, so callers can connect after run() returns.
    QMetaObject::invokeMethod(
        this, [this, exitCode, message] { Q_EMIT finished(exitCode, message); }, Qt::QueuedConnection);
}

} // namespace redrive::ui
