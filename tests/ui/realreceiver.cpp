// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#include "realreceiver.h"

#include "daemonprocess.h"
#include "rawhttp.h"
#include "scriptabledestination.h"
#include "signers.h"

#include <QDeadlineTimer>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRegularExpression>
#include <QSqlDatabase>
#include <QSqlError>
#include <QSqlQuery>
#include <QTest>

namespace redrive::test {
namespace {

int g_connections = 0;

QByteArray configToml(const QString &dir, const QString &storageUrl, quint16 ingest, quint16 admin,
    const QByteArray &serverSettings, const QUrl &crm, const QUrl &fulfillment,
    const QByteArray &deliverySettings, const QByteArray &adminSettings, const QByteArray &sourceSettings,
    bool auditKey)
{
    QByteArray t;
    t += "[server]\nlisten = \"127.0.0.1:" + QByteArray::number(ingest) + "\"\n";
    t += "admin_listen = \"127.0.0.1:" + QByteArray::number(admin) + "\"\n" + serverSettings + "\n";
    t += "[storage]\nurl = \"" + storageUrl.toUtf8() + "\"\n\n";
    t += "[delivery]\npoll_interval = \"50ms\"\n" + deliverySettings + "\n";
    t += "[admin]\n";
    if (auditKey)
        t += "audit_key_file = \"" + dir.toUtf8() + "/audit-ed25519.pem\"\n";
    t += "replay_rate_per_second = 50\n" + adminSettings + "\n";
    t += "[[sources]]\nname = \"github\"\nscheme = \"github\"\nsecrets = [\"" + RealReceiver::kGitHubSecret
        + "\"]\n";
    t += "keys = { pr = \"json:/pull_request/number\", repo = \"json:/repository/full_name\" }\n";
    t += sourceSettings + "\n";
    t += "[[destinations]]\nname = \"crm\"\nurl = \"" + crm.toEncoded()
        + "\"\nrisk = \"low\"\n"
          "max_attempts = 1\ntimeout_ms = 3000\nallow_private = true\n\n";
    t += "[[destinations]]\nname = \"fulfillment\"\nurl = \"" + fulfillment.toEncoded()
        + "\"\nrisk = \"high\"\nmax_attempts = 1\ntimeout_ms = 3000\nallow_private = true\n\n";
    t += "[[routes]]\nsource = \"github\"\ndestinations = [\"crm\", \"fulfillment\"]\n";
    return t;
}

// True once something accepts TCP connections on the loopback port (bounded).
bool waitListening(quint16 port)
{
    QDeadlineTimer deadline(15'000);
    while (!deadline.hasExpired()) {
        RawConnection c;
        if (c.connect(port, 500))
            return true;
        QTest::qWait(20);
    }
    return false;
}

} // namespace

RealReceiver::RealReceiver()
    : m_crm(std::make_unique<ScriptableDestination>())
    , m_fulfillment(std::make_unique<ScriptableDestination>())
    , m_connection(QStringLiteral("real-receiver-%1").arg(++g_connections))
{ }

RealReceiver::~RealReceiver()
{
    stop();
}

QString RealReceiver::databasePath() const
{
    if (!m_sqlitePath.isEmpty())
        return m_sqlitePath;
    return m_dir ? m_dir->filePath(QStringLiteral("redrive.db")) : QString();
}

QString RealReceiver::configPath() const
{
    return m_dir ? m_dir->filePath(QStringLiteral("redrived.toml")) : QString();
}

QString RealReceiver::auditKeyPath() const
{
    return m_dir ? m_dir->filePath(QStringLiteral("audit-ed25519.pem")) : QString();
}

QUrl RealReceiver::adminUrl() const
{
    return QUrl(QStringLiteral("%1://127.0.0.1:%2")
                    .arg(m_tlsCert.isEmpty() ? QStringLiteral("http") : QStringLiteral("https"))
                    .arg(m_adminPort));
}

QByteArray RealReceiver::log()
{
    QFile f(m_dir ? m_dir->filePath(QStringLiteral("redrived.log")) : QString());
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

bool RealReceiver::start(QString *error)
{
    m_dir = std::make_unique<QTemporaryDir>();
    if (!m_dir->isValid()) {
        *error = QStringLiteral("no temporary directory");
        return false;
    }
    if (!m_crm->start(error) || !m_fulfillment->start(error))
        return false;
    m_crm->setDefault(ScriptableDestination::status(200, R"({"id": "crm-ref"})"));
    m_fulfillment->setDefault(ScriptableDestination::status(200, R"({"id": "ful-ref"})"));
    const QList<quint16> ports = freePorts(2);
    if (ports.size() != 2) {
        *error = QStringLiteral("no free loopback ports");
        return false;
    }
    m_ingestPort = ports[0];
    m_adminPort = ports[1];
    QByteArray serverSettings;
    if (!m_tlsCert.isEmpty())
        serverSettings
            = "tls_cert = \"" + m_tlsCert.toUtf8() + "\"\ntls_key = \"" + m_tlsKey.toUtf8() + "\"\n";
    QFile config(configPath());
    // 0600: redrived refuses a config file other users can read.
    if (!config.open(QIODevice::WriteOnly, QFileDevice::ReadOwner | QFileDevice::WriteOwner)
        || config.write(
               configToml(m_dir->path(),
                   m_postgresUrl.isEmpty() ? QStringLiteral("sqlite://") + databasePath() : m_postgresUrl,
                   m_ingestPort, m_adminPort, serverSettings, m_crm->url(QStringLiteral("/crm")),
                   m_fulfillment->url(QStringLiteral("/fulfillment")), m_deliverySettings, m_adminSettings,
                   m_sourceSettings, m_auditKey)
               + (m_extraConfig.isEmpty() ? QByteArray() : "\n" + m_extraConfig))
            < 0) {
        *error = QStringLiteral("cannot write %1").arg(configPath());
        return false;
    }
    config.close();
    const QStringList base { QStringLiteral("--config"), configPath() };
    QByteArray out, err;
    if (runRedrived(base + QStringList { QStringLiteral("migrate") }, &out, &err) != 0) {
        *error = QStringLiteral("redrived migrate failed: ") + QString::fromUtf8(err);
        return false;
    }
    const std::pair<const char *, const char *> people[]
        = { { "sam-support", "support" }, { "ana-operator", "operator" }, { "omar-operator", "operator" },
              { "aude-auditor", "auditor" }, { "root-admin", "admin" } };
    for (const auto &[name, role] : people) {
        if (!m_tokens.contains(QLatin1String(name))
            && !createToken(QLatin1String(name), QLatin1String(role), error))
            return false;
    }
    if (!launch(QIODevice::Truncate, error))
        return false;
    QSqlDatabase db;
    if (m_postgresUrl.isEmpty()) {
        db = QSqlDatabase::addDatabase(QStringLiteral("QSQLITE"), m_connection);
        db.setDatabaseName(databasePath());
        db.setConnectOptions(QStringLiteral("QSQLITE_OPEN_READONLY;QSQLITE_BUSY_TIMEOUT=5000"));
    } else {
        const QUrl url(m_postgresUrl);
        db = QSqlDatabase::addDatabase(QStringLiteral("QPSQL"), m_connection);
        db.setHostName(url.host());
        db.setPort(url.port(5432));
        db.setUserName(url.userName());
        db.setPassword(url.password());
        db.setDatabaseName(url.path().mid(1));
    }
    if (!db.open()) {
        *error = db.lastError().text();
        return false;
    }
    return true;
}

bool RealReceiver::launch(QIODevice::OpenMode logMode, QString *error)
{
    m_process.setStandardErrorFile(m_dir->filePath(QStringLiteral("redrived.log")), logMode);
    m_process.setStandardOutputFile(QProcess::nullDevice());
    m_process.start(redrivedPath(), { QStringLiteral("--config"), configPath() });
    // With TLS on the admin listener, the plain ingest listener answers /healthz for it.
    if (!waitHealthy(m_process, m_tlsCert.isEmpty() ? m_adminPort : m_ingestPort)
        || (!m_tlsCert.isEmpty() && !waitListening(m_adminPort))) {
        *error = QStringLiteral("redrived did not become healthy: ") + QString::fromUtf8(log());
        return false;
    }
    return true;
}

bool RealReceiver::restart(QString *error, const std::function<bool(QString *)> &whileStopped)
{
    if (!m_dir || m_process.state() == QProcess::NotRunning) {
        *error = QStringLiteral("restart() needs a receiver that start() started");
        return false;
    }
    stopProcess();
    if (m_process.state() != QProcess::NotRunning) {
        *error = QStringLiteral("redrived did not stop");
        return false;
    }
    if (whileStopped && !whileStopped(error))
        return false;
    // Appended: log() keeps what the first run said too.
    return launch(QIODevice::Append, error);
}

void RealReceiver::stopProcess()
{
    if (m_process.state() != QProcess::NotRunning) {
        m_process.terminate();
        if (!m_process.waitForFinished(10'000)) {
            m_process.kill();
            m_process.waitForFinished(5'000);
        }
    }
}

void RealReceiver::stop()
{
    if (QSqlDatabase::contains(m_connection)) {
        QSqlDatabase::database(m_connection, false).close();
        QSqlDatabase::removeDatabase(m_connection);
    }
    stopProcess();
    m_crm->stop();
    m_fulfillment->stop();
}

bool RealReceiver::createToken(const QString &name, const QString &role, QString *error)
{
    QByteArray out, err;
    const int rc = runRedrived(
        { QStringLiteral("--config"), configPath(), QStringLiteral("token"), QStringLiteral("create"),
            QStringLiteral("--name"), name, QStringLiteral("--owner"), name, QStringLiteral("--role"), role,
            QStringLiteral("--expires"), QStringLiteral("1d") },
        &out, &err);
    static const QRegularExpression tokenPattern(QStringLiteral("rdt_[A-Za-z0-9_-]+"));
    const auto match = tokenPattern.match(QString::fromUtf8(out));
    if (rc != 0 || !match.hasMatch()) {
        *error
            = QStringLiteral("token create %1 failed (%2): %3").arg(name).arg(rc).arg(QString::fromUtf8(err));
        return false;
    }
    m_tokens.insert(name, match.captured());
    return true;
}

int RealReceiver::ingest(const QByteArray &deliveryId, const QByteArray &event, const QByteArray &body)
{
    HeaderList headers = signGitHub(kGitHubSecret, body, deliveryId, event);
    headers.append(std::pair<QByteArray, QByteArray>("Content-Type", "application/json"));
    const auto r = roundTrip(m_ingestPort, buildRequest("POST", "/hooks/github", headers, body));
    return r ? r->status : 0;
}

qint64 RealReceiver::ingestAndSettle(const QByteArray &deliveryId, QString *error)
{
    const QByteArray body = QJsonDocument(
        QJsonObject { { QStringLiteral("ref"), QStringLiteral("refs/heads/main") },
            { QStringLiteral("after"), QString::fromLatin1(deliveryId) },
            { QStringLiteral("repository"),
                QJsonObject { { QStringLiteral("full_name"), QStringLiteral("acme/shop") } } } })
                                .toJson(QJsonDocument::Compact);
    const int status = ingest(deliveryId, "push", body);
    if (status != 200) {
        if (error)
            *error = QStringLiteral("ingest answered %1").arg(status);
        return 0;
    }
    const qint64 id
        = scalar(QStringLiteral("SELECT id FROM events WHERE source = 'github' AND provider_event_id = ?"),
            { QString::fromLatin1(deliveryId) })
              .toLongLong();
    const bool settled = id > 0
        && waitForValue(QStringLiteral("SELECT count(*) FROM deliveries WHERE event_id = ? AND status IN "
                                       "('succeeded', 'dead')"),
            { id }, 2);
    if (!settled && error)
        *error = QStringLiteral("event %1 did not settle; redrived said: %2")
                     .arg(id)
                     .arg(QString::fromUtf8(log()));
    return settled ? id : 0;
}

QVariant RealReceiver::scalar(const QString &sql, const QVariantList &binds)
{
    QSqlQuery q(QSqlDatabase::database(m_connection));
    q.setForwardOnly(true);
    if (!q.prepare(sql))
        return {};
    for (const QVariant &b : binds)
        q.addBindValue(b);
    if (!q.exec() || !q.next())
        return {};
    QVariant v = q.value(0);
    q.finish();
    return v;
}

bool RealReceiver::waitForValue(
    const QString &sql, const QVariantList &binds, const QVariant &expected, int timeoutMs)
{
    QDeadlineTimer deadline(timeoutMs);
    while (!deadline.hasExpired()) {
        const QVariant v = scalar(sql, binds);
        if (v.isValid() && v.toString() == expected.toString())
            return true;
        QTest::qWait(25); // keeps the console's event loop turning while the receiver works
    }
    return false;
}

bool RealReceiver::tamper(const QStringList &statements, QString *error)
{
    const QString name = m_connection + QStringLiteral("-tamper");
    bool ok = true;
    {
        QSqlDatabase db = QSqlDatabase::addDatabase(QStringLiteral("QSQLITE"), name);
        db.setDatabaseName(databasePath());
        db.setConnectOptions(QStringLiteral("QSQLITE_BUSY_TIMEOUT=5000"));
        ok = db.open();
        if (!ok)
            *error = db.lastError().text();
        for (const QString &sql : statements) {
            if (!ok)
                break;
            QSqlQuery q(db);
            ok = q.exec(sql);
            if (!ok)
                *error = sql + QStringLiteral(": ") + q.lastError().text();
        }
        db.close();
    }
    QSqlDatabase::removeDatabase(name);
    return ok;
}

qint64 RealReceiver::deliveryId(qint64 eventId, const QString &destination)
{
    return scalar(QStringLiteral("SELECT id FROM deliveries WHERE event_id = ? AND destination = ?"),
        { eventId, destination })
        .toLongLong();
}

int RealReceiver::admin(const QByteArray &method, const QByteArray &path, const QString &person,
    const QJsonObject &body, QJsonObject *reply)
{
    const QByteArray payload
        = body.isEmpty() ? QByteArray() : QJsonDocument(body).toJson(QJsonDocument::Compact);
    HeaderList headers { { "Authorization", "Bearer " + token(person).toUtf8() } };
    if (!payload.isEmpty())
        headers.append(std::pair<QByteArray, QByteArray>("Content-Type", "application/json"));
    const auto r = roundTrip(m_adminPort, buildRequest(method, "/admin/v1/" + path, headers, payload));
    if (!r)
        return 0;
    if (reply)
        *reply = QJsonDocument::fromJson(r->body).object();
    return r->status;
}

qint64 RealReceiver::requestReplay(
    const QString &person, const QList<qint64> &deliveryIds, const QString &reason)
{
    QJsonArray ids;
    for (const qint64 id : deliveryIds)
        ids.append(id);
    QJsonObject preview;
    int status
        = admin("POST", "replays/preview", person, { { QStringLiteral("delivery_ids"), ids } }, &preview);
    if (status != 200) {
        qWarning("replay preview for %s answered %d", qPrintable(person), status);
        return 0;
    }
    QJsonObject created;
    status = admin("POST", "replays", person,
        { { QStringLiteral("selection_hash"), preview.value(QLatin1String("selection_hash")) },
            { QStringLiteral("reason"), reason } },
        &created);
    if (status != 201) {
        qWarning("replay request for %s answered %d: %s", qPrintable(person), status,
            QJsonDocument(created).toJson(QJsonDocument::Compact).constData());
        return 0;
    }
    return created.value(QLatin1String("id")).toInteger();
}

} // namespace redrive::test
