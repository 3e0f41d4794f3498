// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#pragma once

#include "consolefixture.h"
#include "fakeadminapi.h"
#include "main/consolecontroller.h"
#include "realreceiver.h"
#include "secrets/secretstore.h"
#include "testdb.h"
#include "util/clock.h"

#include <QObject>
#include <QSettings>
#include <QTemporaryDir>

class QTableView;

namespace redrive::ui {
class ConnectionDialog;
}

namespace redrive::test {

inline constexpr qint64 kGuiBase = 1'750'000'000'000;
inline constexpr int kGuiWait = 15'000;

template<typename T> T *find(QWidget *root, const char *name)
{
    T *w = root->findChild<T *>(QLatin1String(name));
    if (!w)
        qWarning("no widget named %s", name);
    return w;
}

// What the console GUI suites share: a fixture database with the canonical scenario, a real
// redrived serving the admin API on that same database (setUpReceiver), a stand-in admin API on
// loopback for the faults a real receiver cannot be made to produce, settings in a temporary
// file, an in-memory keychain, and helpers that drive the real widgets the way a person would.
class ConsoleGuiTest : public QObject {
protected:
    bool setUpFixture();
    // After setUpFixture(): one real redrived for the whole suite on the fixture's database, its
    // delivery engine off so the scenario's pending and retrying deliveries stay as written. The
    // config adds a high-risk "billing" destination (the scenario's dead letter goes there), and
    // `extraConfig` (more [[sources]], [[destinations]] ...). Its tokens are the RealReceiver's.
    bool setUpReceiver(const QByteArray &extraConfig = {});
    // The real receiver's admin URL and the token of one of its people (RealReceiver's names).
    [[nodiscard]] QUrl receiverUrl() const { return m_receiver->adminUrl(); }
    [[nodiscard]] QString tokenOf(const QString &person) const { return m_receiver->token(person); }
    // Settings in a temporary file only (for suites that bring their own receiver).
    void setUpSettings();
    // Fills the connection dialog for a new profile and presses Connect; true once connected,
    // otherwise `problem` holds what the dialog says. The admin API is the stand-in unless
    // `adminUrl` names another (a real redrived).
    bool connectWith(ui::ConsoleController &console, const QString &name, const QString &sqlitePath,
        const QString &token, QString *problem = nullptr, const QUrl &adminUrl = {});
    // A profile with the database only (no admin API): the console reads, and offers no action.
    bool connectReadOnly(ui::ConsoleController &console, const QString &name, const QString &sqlitePath,
        QString *problem = nullptr);
    // The same for a PostgreSQL database ("postgresql://user:pw@host:port/db", sslmode disable).
    bool connectWithPostgres(ui::ConsoleController &console, const QString &name, const QString &postgresUrl,
        const QString &token, const QUrl &adminUrl, QString *problem = nullptr);
    // A fresh console (the previous one closed) for `person` against a real redrived: its
    // database file, the person's token and its admin URL. False, with a warning saying why,
    // when the window did not show or the connection was refused.
    bool signInTo(const QString &person, const QString &sqlitePath, const QString &token,
        const QUrl &adminUrl, const Clock &clock);
    // Presses Connect in a filled dialog and waits for the session (or the dialog's problem).
    // Fills a new SQLite profile in the connection dialog and presses Connect; an empty
    // adminUrl and token connect read-only.
    bool connectSqlite(ui::ConsoleController &console, const QString &name, const QString &sqlitePath,
        const QString &adminUrl, const QString &token, QString *problem);
    bool pressConnect(ui::ConsoleController &console, ui::ConnectionDialog *dialog, QString *problem);
    void search(const QString &text);
    [[nodiscard]] QTableView *table() const;
    bool selectRow(int row);

    std::unique_ptr<TestDatabase> m_t;
    std::unique_ptr<Db> m_writer;
    ConsoleFixture::Scenario m_s;
    std::unique_ptr<QTemporaryDir> m_dir;
    std::unique_ptr<QSettings> m_settings;
    MemorySecretStore m_secrets;
    ManualClock m_clock { kGuiBase + 60'000 };
    FakeAdminApi m_api;
    std::unique_ptr<RealReceiver> m_receiver;
    std::unique_ptr<ui::ConsoleController> m_console;
};

} // namespace redrive::test
