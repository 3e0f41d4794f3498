// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
// The console's connection profile refuses what would leak its secrets in transit: the API token
// over plain HTTP to another machine is refused; a PostgreSQL sslmode weaker than verify-full
// (the default) is allowed but shown as a warning in the profile dialog.
#include "connection/connectiondialog.h"
#include "connection/connectionprofile.h"
#include "secrets/secretstore.h"

#include <QAccessible>
#include <QComboBox>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSettings>
#include <QTemporaryDir>
#include <QTest>

using namespace redrive;
using namespace redrive::ui;

namespace {
template<typename T> T *find(QWidget *parent, const char *name)
{
    auto *w = parent->findChild<T *>(QLatin1String(name));
    if (!w)
        qFatal("no widget named %s", name);
    return w;
}
} // namespace

class TstConnectionSecurity : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void init();
    void cleanup();
    void plainHttpOnlyForLoopback_data();
    void plainHttpOnlyForLoopback();
    void dialogRefusesPlainHttpToAnotherHost();
    void postgresDefaultsToVerifyFull();
    void weakerSslModeShowsAWarning_data();
    void weakerSslModeShowsAWarning();

private:
    std::unique_ptr<QTemporaryDir> m_dir;
    std::unique_ptr<QSettings> m_settings;
    std::unique_ptr<ProfileStore> m_profiles;
    MemorySecretStore m_secrets;
};

void TstConnectionSecurity::init()
{
    m_dir = std::make_unique<QTemporaryDir>();
    QVERIFY(m_dir->isValid());
    m_settings = std::make_unique<QSettings>(m_dir->filePath(QStringLiteral("c.ini")), QSettings::IniFormat);
    m_profiles = std::make_unique<ProfileStore>(*m_settings);
}

void TstConnectionSecurity::cleanup()
{
    m_profiles.reset();
    m_settings.reset();
    m_dir.reset();
}

void TstConnectionSecurity::plainHttpOnlyForLoopback_data()
{
    QTest::addColumn<QString>("url");
    QTest::addColumn<bool>("accepted");
    QTest::newRow("https anywhere") << "https://redrive.internal:8081" << true;
    QTest::newRow("http 127.0.0.1") << "http://127.0.0.1:8081" << true;
    QTest::newRow("http 127.1.2.3") << "http://127.1.2.3:8081" << true;
    QTest::newRow("http localhost") << "http://localhost:8081" << true;
    QTest::newRow("http LOCALHOST") << "http://LOCALHOST:8081" << true;
    QTest::newRow("http [::1]") << "http://[::1]:8081" << true;
    QTest::newRow("http another host") << "http://redrive.internal:8081" << false;
    QTest::newRow("http private address") << "http://10.0.0.5:8081" << false;
    QTest::newRow("http 0.0.0.0") << "http://0.0.0.0:8081" << false;
    QTest::newRow("http loopback look-alike") << "http://127.0.0.1.example.com:8081" << false;
    QTest::newRow("http localhost look-alike") << "http://localhost.example.com:8081" << false;
    QTest::newRow("http mapped v6 address") << "http://[::ffff:10.0.0.5]:8081" << false;
}

void TstConnectionSecurity::plainHttpOnlyForLoopback()
{
    QFETCH(QString, url);
    QFETCH(bool, accepted);
    ConnectionProfile p;
    p.name = QStringLiteral("x");
    p.sqlitePath = QStringLiteral("/tmp/x.db");
    p.adminUrl = QUrl(url, QUrl::StrictMode);
    const auto problem = p.validate();
    if (accepted) {
        QVERIFY2(!problem, qPrintable(problem ? problem->message : QString()));
    } else {
        QVERIFY(problem);
        QCOMPARE(problem->field, QStringLiteral("adminUrl"));
        QVERIFY2(
            problem->message.contains(QLatin1String("only for this machine")), qPrintable(problem->message));
        QVERIFY(problem->message.contains(QLatin1String("https://")));
    }
}

void TstConnectionSecurity::dialogRefusesPlainHttpToAnotherHost()
{
    ConnectionDialog dialog(*m_profiles, m_secrets);
    dialog.show();
    QTest::mouseClick(find<QPushButton>(&dialog, "newProfileButton"), Qt::LeftButton);
    QTest::keyClicks(find<QLineEdit>(&dialog, "nameEdit"), QStringLiteral("remote"));
    QTest::keyClicks(find<QLineEdit>(&dialog, "sqlitePathEdit"), m_dir->filePath(QStringLiteral("x.db")));
    QTest::keyClicks(
        find<QLineEdit>(&dialog, "adminUrlEdit"), QStringLiteral("http://redrive.internal:8081"));
    QTest::keyClicks(find<QLineEdit>(&dialog, "tokenEdit"), QStringLiteral("rdt_not-sent-anywhere"));
    QTest::mouseClick(find<QPushButton>(&dialog, "connectButton"), Qt::LeftButton);
    auto *problem = find<QLabel>(&dialog, "problemLabel");
    QVERIFY(problem->isVisible());
    QVERIFY2(problem->text().contains(QLatin1String("redrive.internal")), qPrintable(problem->text()));
    QVERIFY(problem->text().contains(QLatin1String("only for this machine")));
    QVERIFY(!problem->text().contains(QLatin1String("rdt_")));
    // Refused before anything was saved or sent; the Connect button stays usable to fix it.
    QVERIFY(m_profiles->names().isEmpty());
    QVERIFY(find<QPushButton>(&dialog, "connectButton")->isEnabled());
}

void TstConnectionSecurity::postgresDefaultsToVerifyFull()
{
    QCOMPARE(ConnectionProfile {}.pgSslMode, QStringLiteral("verify-full"));
    ConnectionDialog dialog(*m_profiles, m_secrets);
    dialog.show();
    QTest::mouseClick(find<QPushButton>(&dialog, "newProfileButton"), Qt::LeftButton);
    auto *kind = find<QComboBox>(&dialog, "databaseKind");
    kind->setCurrentIndex(1);
    QCOMPARE(find<QComboBox>(&dialog, "pgSslMode")->currentText(), QStringLiteral("verify-full"));
    QVERIFY(!find<QLabel>(&dialog, "sslWarningLabel")->isVisible());
    QCOMPARE(dialog.profileFromFields().pgSslMode, QStringLiteral("verify-full"));
}

void TstConnectionSecurity::weakerSslModeShowsAWarning_data()
{
    QTest::addColumn<QString>("mode");
    QTest::addColumn<QString>("words"); // empty = no warning
    QTest::newRow("verify-full") << "verify-full" << QString();
    QTest::newRow("verify-ca") << "verify-ca"
                               << "does not check that it names db.internal";
    QTest::newRow("require") << "require"
                             << "sslmode=require does not check the server's certificate";
    QTest::newRow("prefer") << "prefer"
                            << "sslmode=prefer does not check the server's certificate";
    QTest::newRow("allow") << "allow"
                           << "sslmode=allow does not check";
    QTest::newRow("disable") << "disable"
                             << "sslmode=disable does not check";
}

void TstConnectionSecurity::weakerSslModeShowsAWarning()
{
    QFETCH(QString, mode);
    QFETCH(QString, words);
    ConnectionDialog dialog(*m_profiles, m_secrets);
    dialog.show();
    QTest::mouseClick(find<QPushButton>(&dialog, "newProfileButton"), Qt::LeftButton);
    find<QComboBox>(&dialog, "databaseKind")->setCurrentIndex(1);
    QTest::keyClicks(find<QLineEdit>(&dialog, "pgHostEdit"), QStringLiteral("db.internal"));
    auto *ssl = find<QComboBox>(&dialog, "pgSslMode");
    auto *warning = find<QLabel>(&dialog, "sslWarningLabel");
    ssl->setCurrentText(QStringLiteral("verify-full"));
    ssl->setCurrentText(mode);
    QCOMPARE(ssl->currentText(), mode);
    if (words.isEmpty()) {
        QVERIFY(!warning->isVisible());
        return;
    }
    QVERIFY(warning->isVisible());
    QVERIFY2(warning->text().contains(words), qPrintable(warning->text()));
    // A screen reader hears the warning itself, then what it is about.
    QCOMPARE(QAccessible::queryAccessibleInterface(warning)->text(QAccessible::Name), warning->text());
    QVERIFY(!warning->accessibleDescription().isEmpty());
    // A warning, not a refusal: the profile is still valid.
    ConnectionProfile p = dialog.profileFromFields();
    p.name = QStringLiteral("x");
    QVERIFY(!p.validate());
    // Back to SQLite: nothing to warn about.
    find<QComboBox>(&dialog, "databaseKind")->setCurrentIndex(0);
    QVERIFY(!warning->isVisible());
}

QTEST_MAIN(TstConnectionSecurity)
#include "tst_connectionsecurity.moc"
