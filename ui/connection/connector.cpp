// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#include "connector.h"

#include "connection/session.h"
#include "storage/schema.h"

#include <QJsonObject>
#include <QSqlQuery>

namespace redrive::ui {

Connector::Connector(SecretStore &secrets, QObject *parent)
    : QObject(parent)
    , m_secrets(secrets)
{ }

void Connector::cancel()
{
    m_generation.advance();
    m_busy = false;
    // Later, not now: this may run inside a callback of one of the session's own executors.
    if (m_session)
        m_session->deleteLater();
    m_session = nullptr;
}

void Connector::start(const ConnectionProfile &profile, const Credentials &typed)
{
    cancel();
    if (auto problem = profile.validate()) {
        fail({ problem->field, problem->message, {} });
        return;
    }
    m_busy = true;
    m_profile = profile;
    m_typed = typed;
    m_password = typed.databasePassword;
    m_token = typed.apiToken;
    const bool needPassword
        = profile.databaseKind == ConnectionProfile::DatabaseKind::Postgres && m_password.isEmpty();
    const bool needToken = !profile.adminUrl.isEmpty() && m_token.isEmpty();
    readSecret(needPassword, m_profile.databasePasswordKey(), &m_password, [this, needToken] {
        readSecret(needToken, m_profile.apiTokenKey(), &m_token, [this] { openDatabase(); });
    });
}

void Connector::readSecret(bool needed, const QString &key, QString *into, std::function<void()> next)
{
    if (!needed) {
        next();
        return;
    }
    Q_EMIT progress(tr("Reading credentials from the keychain…"));
    const quint64 asked = m_generation.value();
    SecretJob *job = m_secrets.read(key);
    connect(
        job, &SecretJob::finished, this, [this, asked, into, next = std::move(next)](const SecretResult &r) {
            if (asked != m_generation.value())
                return;
            if (r.status == SecretStatus::Unavailable || r.status == SecretStatus::Denied
                || r.status == SecretStatus::Failed)
                Q_EMIT keychainNotice(r.message);
            *into = r.status == SecretStatus::Ok ? r.secret : QString();
            next();
        });
}

void Connector::openDatabase()
{
    Q_EMIT progress(tr("Opening %1 read-only…").arg(m_profile.databaseDescription()));
    auto *session = new Session(m_profile);
    m_session = session;
    if (!m_profile.receiverConfigFile.isEmpty()) {
        auto schedules = readRetrySchedules(m_profile.receiverConfigFile);
        if (!schedules) {
            fail({ QStringLiteral("receiverConfig"),
                tr("The receiver configuration could not be used for retry projections: %1")
                    .arg(schedules.error()),
                {} });
            return;
        }
        session->setRetrySchedules(std::move(*schedules));
    }
    auto *events = new DbExecutor(QStringLiteral("events"));
    auto *stats = new DbExecutor(QStringLiteral("stats"));
    session->setExecutors(events, stats);
    const StorageUrl url = m_profile.storageUrl(m_password);
    const quint64 asked = m_generation.value();
    events->open(url, this, [this, asked, stats, url](const QString &error) {
        if (asked != m_generation.value())
            return;
        if (!error.isEmpty()) {
            fail(explainDatabaseError(m_profile, error));
            return;
        }
        stats->open(url, this, [this, asked](const QString &statsError) {
            if (asked != m_generation.value())
                return;
            if (!statsError.isEmpty()) {
                fail(explainDatabaseError(m_profile, statsError));
                return;
            }
            checkSchema();
        });
    });
}

void Connector::checkSchema()
{
    Q_EMIT progress(tr("Checking the schema version…"));
    Session *session = m_session;
    if (!session)
        return;
    session->events()->submit(
        this, &m_generation,
        [](Db &db) -> Result<int> {
            // A file that is not a database opens fine and only fails on the first read; ask
            // the engine something first so that failure is reported as what it is.
            QSqlQuery probe(db.handle());
            if (!probe.exec(db.isSqlite() ? QStringLiteral("SELECT count(*) FROM sqlite_master")
                                          : QStringLiteral("SELECT 1")))
                return Failure(sqlErrorText(probe));
            probe.finish();
            return schemaVersion(db);
        },
        [this](const Result<int> &version) {
            if (auto problem
                = checkSchemaVersion(m_profile, version.value_or(-1), kSchemaVersion, version.error())) {
                fail(*problem);
                return;
            }
            askWhoAmI();
        });
}

void Connector::askWhoAmI()
{
    Session *session = m_session;
    if (!session)
        return;
    if (m_profile.adminUrl.isEmpty()) {
        session->setAdmin(nullptr, QString(), std::nullopt);
        remember();
        return;
    }
    QList<QSslCertificate> ca;
    if (!m_profile.caCertificateFile.isEmpty()) {
        QString error;
        if (!AdminClient::loadCaCertificates(m_profile.caCertificateFile, &ca, &error)) {
            fail({ QStringLiteral("caCertificate"), error, {} });
            return;
        }
    }
    if (m_token.isEmpty()) {
        fail({ QStringLiteral("apiToken"),
            tr("The admin API needs a token and none is stored for this profile. Paste the token an "
               "administrator created for you (redrived token create)."),
            {} });
        return;
    }
    Q_EMIT progress(tr("Asking the admin API who you are…"));
    auto *client = new AdminClient(m_profile.adminUrl, m_token, ca, session);
    const quint64 asked = m_generation.value();
    ApiReply *reply = client->whoami();
    connect(reply, &ApiReply::finished, this,
        [this, asked, client, session](const QJsonDocument &body, const ApiError &error) {
            if (asked != m_generation.value())
                return;
            if (!error.ok()) {
                fail({ QStringLiteral("adminUrl"), error.message, {} });
                return;
            }
            const QJsonObject obj = body.object();
            const QString name = obj.value(QLatin1String("name")).toString();
            const auto role = roleFromString(obj.value(QLatin1String("role")).toString());
            if (name.isEmpty() || !role) {
                fail({ QStringLiteral("adminUrl"),
                    tr("The address answered, but not like a Redrive admin API (whoami had no name and role)."),
                    {} });
                return;
            }
            session->setAdmin(client, name, role);
            remember();
        });
}

void Connector::remember()
{
    m_pendingWrites = 0;
    QList<std::pair<QString, QString>> writes;
    if (m_typed.remember && !m_typed.databasePassword.isEmpty())
        writes.append({ m_profile.databasePasswordKey(), m_typed.databasePassword });
    if (m_typed.remember && !m_typed.apiToken.isEmpty())
        writes.append({ m_profile.apiTokenKey(), m_typed.apiToken });
    if (writes.isEmpty()) {
        finish();
        return;
    }
    Q_EMIT progress(tr("Saving credentials in the keychain…"));
    const quint64 asked = m_generation.value();
    m_pendingWrites = int(writes.size());
    for (const auto &[key, value] : writes) {
        SecretJob *job = m_secrets.write(key, value);
        connect(job, &SecretJob::finished, this, [this, asked](const SecretResult &r) {
            if (asked != m_generation.value())
                return;
            if (r.status != SecretStatus::Ok)
                Q_EMIT keychainNotice(
                    tr("Connected, but the credentials were not remembered: %1").arg(r.message));
            if (--m_pendingWrites == 0)
                finish();
        });
    }
}

void Connector::finish()
{
    m_busy = false;
    Session *session = m_session;
    m_session = nullptr;
    m_password.clear();
    m_token.clear();
    Q_EMIT connected(session);
}

void Connector::fail(const ConnectionProblem &problem)
{
    m_generation.advance();
    m_busy = false;
    if (m_session)
        m_session->deleteLater();
    m_session = nullptr;
    m_password.clear();
    m_token.clear();
    Q_EMIT failed(problem);
}

} // namespace redrive::ui
