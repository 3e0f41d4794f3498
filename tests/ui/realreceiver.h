// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#pragma once

#include <QByteArray>
#include <QHash>
#include <QJsonObject>
#include <QProcess>
#include <QString>
#include <QTemporaryDir>
#include <QUrl>
#include <QVariant>

#include <functional>
#include <memory>

namespace redrive::test {

class ScriptableDestination;

// A real `redrived` for the console's tests: the same binary users run, on loopback, with
// embedded SQLite in a temporary directory, its ingest and admin listeners on free ports, the
// delivery engine and the replay executor running, and an Ed25519 audit key. Tokens are made
// by `redrived token create`, exactly as an administrator would.
//
// One GitHub source "github" (secret kGitHubSecret) routes every event to two destinations,
// each a scriptable loopback server:
//   crm          low risk   — support may replay it without approval
//   fulfillment  high risk  — any replay of it needs a second operator
// The source has business keys: pr = /pull_request/number, repo = /repository/full_name.
// Both give up at the first failure (max_attempts = 1), so a scripted 410 makes a dead letter
// at once and tests never wait for a backoff.
//
// People (token names; `token(name)` returns the secret):
//   sam-support (support), ana-operator and omar-operator (operators), aude-auditor (auditor),
//   root-admin (admin).
class RealReceiver final {
public:
    static inline const QByteArray kGitHubSecret = "real-receiver-github-secret";

    RealReceiver();
    ~RealReceiver();
    RealReceiver(const RealReceiver &) = delete;
    RealReceiver &operator=(const RealReceiver &) = delete;

    // Before start(): store in this PostgreSQL database ("postgresql://user:pw@host:port/db")
    // instead of a SQLite file in the temporary directory.
    void usePostgres(const QString &url) { m_postgresUrl = url; }
    // Before start(): store in this existing SQLite file (e.g. a test's fixture database, already
    // migrated and filled) instead of a new one in the temporary directory.
    void useSqliteFile(const QString &path) { m_sqlitePath = path; }
    // Before start(): more lines for the config's [delivery] section, e.g. `enabled = false\n` to
    // leave a fixture's pending deliveries as they are.
    void setDeliverySettings(const QByteArray &lines) { m_deliverySettings = lines; }
    // Before start(): no admin.audit_key_file, as a receiver whose administrator set none.
    void withoutAuditKey() { m_auditKey = false; }
    // Before start(): on the same database as `other`, whose tokens are already in it (token
    // names are unique): use those instead of creating new ones.
    void shareTokensOf(const RealReceiver &other) { m_tokens = other.m_tokens; }
    // Before start(): more lines (each ending in a newline) for the config's [admin] section,
    // e.g. `reply_timeout = "300ms"\n`.
    void setAdminSettings(const QByteArray &lines) { m_adminSettings = lines; }
    // Before start(): more tables appended to the config (each ending in a newline), e.g. another
    // [[sources]] with its [sources.reconcile] and [[routes]].
    void setExtraConfig(const QByteArray &toml) { m_extraConfig = toml; }
    // Before start(): more lines for the "github" source, e.g. a [[sources.schemas]] table.
    void setSourceSettings(const QByteArray &lines) { m_sourceSettings = lines; }
    // Before start(): the admin listener speaks TLS only, with this certificate and key (as
    // `[server] tls_cert` / `tls_key` make it); adminUrl() is then https. Health is awaited on
    // the ingest listener, which stays plain HTTP on loopback; admin() does not speak TLS.
    void useTls(const QString &certPath, const QString &keyPath)
    {
        m_tlsCert = certPath;
        m_tlsKey = keyPath;
    }
    // Writes the config, migrates, creates the tokens, starts redrived and waits for /healthz.
    bool start(QString *error);
    void stop();
    // After start(): stops redrived and starts it again with the same config, ports, data
    // directory and tokens (no migration), as an administrator restarts the service; redrived
    // loads admin.audit_key_file anew, so a key the test put at auditKeyPath() is the one it signs
    // with from then on. `whileStopped` (when given) runs while no redrived holds the database or
    // the key; its failure (with *error set) leaves the receiver stopped.
    bool restart(QString *error, const std::function<bool(QString *)> &whileStopped = {});

    [[nodiscard]] QString databasePath() const;
    [[nodiscard]] QString configPath() const;
    // The Ed25519 key redrived signs checkpoints and evidence with (it creates it at start).
    [[nodiscard]] QString auditKeyPath() const;
    [[nodiscard]] QUrl adminUrl() const;
    [[nodiscard]] quint16 ingestPort() const { return m_ingestPort; }
    [[nodiscard]] QString token(const QString &name) const { return m_tokens.value(name); }
    [[nodiscard]] ScriptableDestination &crm() { return *m_crm; }
    [[nodiscard]] ScriptableDestination &fulfillment() { return *m_fulfillment; }
    // What redrived wrote to stderr so far (for failure messages).
    [[nodiscard]] QByteArray log();

    // POSTs a signed GitHub webhook to /hooks/github; returns the HTTP status (0: no answer).
    int ingest(const QByteArray &deliveryId, const QByteArray &event, const QByteArray &body);
    // Ingests a "push" event and waits until both of its deliveries have settled (neither
    // pending, retrying nor in flight). Returns the event id, 0 on failure. Script the
    // destinations' answers first.
    qint64 ingestAndSettle(const QByteArray &deliveryId, QString *error = nullptr);

    // A read of the receiver's database through a connection of its own: the first column of
    // the first row, or an invalid QVariant.
    QVariant scalar(const QString &sql, const QVariantList &binds = {});
    // Waits (bounded, polling the database) until `sql` returns `expected`.
    bool waitForValue(
        const QString &sql, const QVariantList &binds, const QVariant &expected, int timeoutMs = 15'000);
    // Runs one statement on a writable connection of the test's own: what an attacker with the
    // database file could do (e.g. drop the audit triggers and edit a row).
    bool tamper(const QStringList &statements, QString *error);

    // One admin API call as `person` (a token name above), on a connection of the test's own;
    // returns the HTTP status (0: no answer) and puts the JSON body in *reply.
    int admin(const QByteArray &method, const QByteArray &path, const QString &person,
        const QJsonObject &body = {}, QJsonObject *reply = nullptr);
    // Previews and requests a replay of these deliveries as `person`, as the console would;
    // the new replay's id, 0 on failure (with a warning saying why).
    qint64 requestReplay(const QString &person, const QList<qint64> &deliveryIds, const QString &reason);

    // The delivery id of (event, destination).
    qint64 deliveryId(qint64 eventId, const QString &destination);

private:
    // Starts the redrived process on the written config and waits until it answers.
    bool launch(QIODevice::OpenMode logMode, QString *error);
    void stopProcess();
    bool createToken(const QString &name, const QString &role, QString *error);

    std::unique_ptr<QTemporaryDir> m_dir;
    std::unique_ptr<ScriptableDestination> m_crm;
    std::unique_ptr<ScriptableDestination> m_fulfillment;
    QProcess m_process;
    QByteArray m_log;
    QString m_tlsCert;
    QString m_tlsKey;
    quint16 m_ingestPort = 0;
    quint16 m_adminPort = 0;
    QHash<QString, QString> m_tokens;
    QString m_connection;
    QString m_postgresUrl;
    QString m_sqlitePath;
    bool m_auditKey = true;
    QByteArray m_deliverySettings;
    QByteArray m_adminSettings;
    QByteArray m_extraConfig;
    QByteArray m_sourceSettings;
};

} // namespace redrive::test
