// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#include "connection/connectiondialog.h"
#include "connection/keychainsecretstore.h"
#include "connection/session.h"
#include "main/consolecontroller.h"
#include "realreceiver.h"
#include "util/clock.h"

#include <QApplication>
#include <QCheckBox>
#include <QDirIterator>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSettings>
#include <QTest>

using namespace redrive;
using namespace redrive::test;
using namespace redrive::ui;

namespace {

// HOME and the XDG folders point into this directory for the whole process (set in main,
// before Qt reads them), so every file the console could write lands where the test looks.
QTemporaryDir *g_home = nullptr;
// A secret for the store alone (the sessions below use the real receiver's tokens).
const QString kToken = QStringLiteral("rdv_NoKeychainToken_7f3a9c");

// Every file under the test's HOME (settings, caches, anything Qt or QtKeychain wrote) is read;
// returns how many were read and sets *found when one holds `secret`.
int scanHomeFor(const QString &secret, bool *found)
{
    int files = 0;
    *found = false;
    QDirIterator it(g_home->path(), QDir::Files | QDir::Hidden | QDir::System, QDirIterator::Subdirectories);
    while (it.hasNext()) {
        QFile f(it.next());
        if (!f.open(QIODevice::ReadOnly))
            continue;
        ++files;
        if (f.readAll().contains(secret.toUtf8())) {
            qWarning("the secret is in %s", qPrintable(f.fileName()));
            *found = true;
        }
    }
    return files;
}

} // namespace

// No keychain: DBUS_SESSION_BUS_ADDRESS points nowhere (set by CTest). The dialog says so, the
// typed token is used for the session, and it is written to no file. The sessions sign in to
// one real redrived on loopback (its tokens from `redrived token create`), reading its database.
class TstNoKeychain : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase();
    void cleanupTestCase();
    void storeReportsUnavailable();
    void dialogExplainsAndNothingIsStored();
    void tokenForThisRunIsStoredNowhere_data();
    void tokenForThisRunIsStoredNowhere();

private:
    RealReceiver m_receiver;
};

void TstNoKeychain::initTestCase()
{
    QString error;
    QVERIFY2(m_receiver.start(&error), qPrintable(error));
}

void TstNoKeychain::cleanupTestCase()
{
    m_receiver.stop();
}

void TstNoKeychain::storeReportsUnavailable()
{
    KeychainSecretStore store(QStringLiteral("redrive-test"));
    for (int step = 0; step < 2; ++step) {
        // One job at a time: a job reports once and is gone, so connect before waiting.
        SecretJob *job = step == 0 ? store.write(QStringLiteral("p/api-token"), kToken)
                                   : store.read(QStringLiteral("p/api-token"));
        SecretResult result;
        bool done = false;
        connect(job, &SecretJob::finished, this, [&](const SecretResult &r) {
            result = r;
            done = true;
        });
        QTRY_VERIFY_WITH_TIMEOUT(done, 20'000);
        QVERIFY2(result.status == SecretStatus::Unavailable, qPrintable(result.message));
        QVERIFY(result.message.contains(QStringLiteral("no keychain")));
        QVERIFY(!result.message.contains(kToken));
    }
}

void TstNoKeychain::dialogExplainsAndNothingIsStored()
{
    const QString token = m_receiver.token(QStringLiteral("sam-support"));
    QVERIFY(!token.isEmpty());

    // The connection works with the typed token, and the dialog says it was not remembered.
    {
        QSettings settings;
        KeychainSecretStore secrets;
        ManualClock clock;
        ConsoleController console(settings, secrets, clock);
        console.window()->show();
        console.showConnectionDialog();
        ConnectionDialog *dialog = console.connectionDialog();
        QVERIFY(dialog);
        auto *status = dialog->findChild<QLabel *>(QStringLiteral("keychainStatus"));
        auto *remember = dialog->findChild<QCheckBox *>(QStringLiteral("rememberCheck"));
        auto fill = [dialog](const char *name, const QString &text) {
            auto *e = dialog->findChild<QLineEdit *>(QLatin1String(name));
            e->clear();
            QTest::keyClicks(e, text);
        };
        QTest::mouseClick(
            dialog->findChild<QPushButton *>(QStringLiteral("newProfileButton")), Qt::LeftButton);
        fill("nameEdit", QStringLiteral("laptop"));
        fill("sqlitePathEdit", m_receiver.databasePath());
        fill("adminUrlEdit", m_receiver.adminUrl().toString());
        fill("tokenEdit", token);
        // Before anything is stored, the dialog says there is no keychain and offers nothing.
        QTRY_VERIFY_WITH_TIMEOUT(
            status->text().startsWith(QStringLiteral("No keychain is available")), 20'000);
        QVERIFY(!remember->isEnabled());
        QVERIFY(!remember->isChecked());
        QTest::mouseClick(dialog->findChild<QPushButton *>(QStringLiteral("connectButton")), Qt::LeftButton);
        QTRY_VERIFY_WITH_TIMEOUT(console.session() != nullptr, 20'000);
        QVERIFY(console.session()->admin());
        settings.sync();
    }

    // Opening the dialog again shows "no keychain" as a state, before anything is typed, and
    // does not offer to remember.
    {
        QSettings settings;
        KeychainSecretStore secrets;
        ManualClock clock;
        ConsoleController console(settings, secrets, clock);
        console.showConnectionDialog();
        ConnectionDialog *dialog = console.connectionDialog();
        QVERIFY(dialog);
        QCOMPARE(
            dialog->findChild<QLineEdit *>(QStringLiteral("nameEdit"))->text(), QStringLiteral("laptop"));
        auto *status = dialog->findChild<QLabel *>(QStringLiteral("keychainStatus"));
        QTRY_VERIFY_WITH_TIMEOUT(
            status->text().startsWith(QStringLiteral("No keychain is available")), 20'000);
        QVERIFY(!dialog->findChild<QCheckBox *>(QStringLiteral("rememberCheck"))->isEnabled());
    }

    // The token is in no file under HOME (settings, caches, anything Qt or QtKeychain wrote).
    int files = 0;
    QDirIterator it(g_home->path(), QDir::Files | QDir::Hidden | QDir::System, QDirIterator::Subdirectories);
    while (it.hasNext()) {
        const QString path = it.next();
        QFile f(path);
        if (!f.open(QIODevice::ReadOnly))
            continue;
        ++files;
        QVERIFY2(!f.readAll().contains(token.toUtf8()), qPrintable(path));
    }
    QVERIFY2(files > 0, "the settings file should exist, or this scan proves nothing");
    QSettings settings;
    QVERIFY(settings.allKeys().join(u' ').contains(QStringLiteral("tokenKeychainName")));
}

void TstNoKeychain::tokenForThisRunIsStoredNowhere_data()
{
    QTest::addColumn<bool>("keychain");
    QTest::newRow("no keychain") << false;
    // Even where a keychain works, a token handed over for one run does not go into it.
    QTest::newRow("keychain available") << true;
}

// `redrive --profile NAME --token-stdin`, as the demo starts the console without a keychain: the
// saved profile connects with the token handed over, the dialog says it is for this run only,
// and afterwards neither a file nor the keychain holds it.
void TstNoKeychain::tokenForThisRunIsStoredNowhere()
{
    QFETCH(bool, keychain);
    const QString oneRunToken = m_receiver.token(QStringLiteral("ana-operator"));
    QVERIFY(!oneRunToken.isEmpty());

    const QString name = keychain ? QStringLiteral("demo-keychain") : QStringLiteral("demo-support");
    QSettings settings;
    ConnectionProfile profile;
    profile.name = name;
    profile.environment = QStringLiteral("demo");
    profile.sqlitePath = m_receiver.databasePath();
    profile.adminUrl = m_receiver.adminUrl();
    ProfileStore(settings).save(profile);

    MemorySecretStore memory;
    KeychainSecretStore unavailable;
    SecretStore &secrets = keychain ? static_cast<SecretStore &>(memory) : unavailable;
    ManualClock clock;
    {
        ConsoleController console(settings, secrets, clock);
        console.window()->show();
        console.showConnectionDialog(name, false);
        ConnectionDialog *dialog = console.connectionDialog();
        QVERIFY(dialog);
        dialog->useTokenForThisRun(oneRunToken);
        auto *remember = dialog->findChild<QCheckBox *>(QStringLiteral("rememberCheck"));
        QVERIFY(!remember->isEnabled());
        QVERIFY(!remember->isChecked());
        auto *status = dialog->findChild<QLabel *>(QStringLiteral("keychainStatus"));
        QVERIFY2(status->text().contains(QStringLiteral("for this run only")), qPrintable(status->text()));
        if (!keychain) {
            // The keychain probe answers later; it adds that there is none, and keeps the rest.
            QTRY_VERIFY_WITH_TIMEOUT(
                status->text().endsWith(QStringLiteral("No keychain is available on this desktop.")), 20'000);
            QVERIFY(status->text().contains(QStringLiteral("for this run only")));
            QVERIFY(!remember->isEnabled());
        }
        dialog->connectNow(); // the dialog closes (and is deleted) once connected
        QTRY_VERIFY_WITH_TIMEOUT(console.session() != nullptr, 20'000);
        QVERIFY(console.session()->admin());
        QCOMPARE(console.session()->profile().name, name);
        settings.sync();
    }
    // The connector stores typed secrets before it reports the session, so this is final.
    QCOMPARE(memory.size(), 0);
    QVERIFY(!memory.contains(SecretStore::keyFor(name, QStringLiteral("api-token"))));
    bool found = false;
    const int files = scanHomeFor(oneRunToken, &found);
    QVERIFY2(files > 0, "the settings file should exist, or this scan proves nothing");
    QVERIFY2(!found, "the token handed over for one run was written to a file");
    QVERIFY(ProfileStore(settings).names().contains(name));
}

int main(int argc, char *argv[])
{
    QTemporaryDir home;
    g_home = &home;
    for (const char *name :
        { "HOME", "XDG_CONFIG_HOME", "XDG_DATA_HOME", "XDG_CACHE_HOME", "XDG_STATE_HOME" }) {
        const QString dir = home.path() + u'/' + QString::fromLatin1(name).toLower();
        QDir().mkpath(dir);
        qputenv(name, (qstrcmp(name, "HOME") == 0 ? home.path() : dir).toLocal8Bit());
    }
    QApplication app(argc, argv);
    QApplication::setOrganizationName(QStringLiteral("RedriveTest"));
    QApplication::setApplicationName(QStringLiteral("redrive-nokeychain"));
    TstNoKeychain test;
    return QTest::qExec(&test, argc, argv);
}

#include "tst_nokeychain.moc"
