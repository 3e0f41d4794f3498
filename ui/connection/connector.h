// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#pragma once

#include "common/dbexecutor.h"
#include "connection/connectionerrors.h"
#include "connection/connectionprofile.h"
#include "secrets/secretstore.h"

#include <QObject>

namespace redrive::ui {

class Session;

// Connects a profile step by step, each step asynchronous: credentials from the keychain (or as
// typed), the database opened read-only on its worker threads, the schema version checked,
// `whoami` asked of the admin API, and only then typed credentials remembered, so a wrong
// password never replaces a right one.
class Connector final : public QObject {
    Q_OBJECT
public:
    struct Credentials {
        QString databasePassword; // empty = use the keychain's
        QString apiToken; // empty = use the keychain's
        bool remember = true; // store typed values in the keychain after a successful connect
    };

    explicit Connector(SecretStore &secrets, QObject *parent = nullptr);
    void start(const ConnectionProfile &profile, const Credentials &typed);
    void cancel();
    [[nodiscard]] bool busy() const { return m_busy; }

Q_SIGNALS:
    void progress(const QString &step);
    // Something about the keychain the user should know (e.g. there is none); not a failure.
    void keychainNotice(const QString &text);
    void failed(const redrive::ui::ConnectionProblem &problem);
    // The receiver takes ownership of the session.
    void connected(redrive::ui::Session *session);

private:
    // When `needed`, reads `key` from the keychain into `*into` (empty when it cannot be had),
    // then goes on with `next`; otherwise goes on at once. Nothing runs after a cancel().
    void readSecret(bool needed, const QString &key, QString *into, std::function<void()> next);
    void openDatabase();
    void checkSchema();
    void askWhoAmI();
    void remember();
    void fail(const ConnectionProblem &problem);
    void finish();

    SecretStore &m_secrets;
    Generation m_generation;
    bool m_busy = false;
    ConnectionProfile m_profile;
    Credentials m_typed;
    QString m_password;
    QString m_token;
    Session *m_session = nullptr; // owned until handed over
    int m_pendingWrites = 0;
};

} // namespace redrive::ui

Q_DECLARE_METATYPE(redrive::ui::ConnectionProblem)
