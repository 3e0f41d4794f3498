// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#include "connection/profileimport.h"
#include "secrets/secretstore.h"

#include <QSettings>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

using namespace redrive;
using namespace redrive::ui;

class TstProfileImport : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void importsAProfileAndKeepsTheTokenOutOfSettings();
    void keychainFailureIsReportedAndNothingLeaks();
    void badFilesAreRefused_data();
    void badFilesAreRefused();
};

namespace {
const QByteArray kProfile = "{\"name\": \"demo\", \"environment\": \"demo\", \"colour\": \"#2e7d32\", "
                            "\"sqlite\": \"/tmp/redrive-demo.db\", \"admin_url\": \"http://127.0.0.1:8081\"}";
const QString kToken = QStringLiteral("rdt_example-token-value-for-the-test");
} // namespace

void TstProfileImport::importsAProfileAndKeepsTheTokenOutOfSettings()
{
    QTemporaryDir dir;
    const QString ini = dir.filePath(QStringLiteral("redrive.conf"));
    QSettings settings(ini, QSettings::IniFormat);
    MemorySecretStore secrets;
    ProfileImport import(settings, secrets);
    QSignalSpy done(&import, &ProfileImport::finished);
    import.run(kProfile, kToken);
    QVERIFY(done.wait(5000));
    QCOMPARE(done.first().at(0).toInt(), 0);
    const auto loaded = ProfileStore(settings).load(QStringLiteral("demo"));
    QVERIFY(loaded);
    QCOMPARE(loaded->sqlitePath, QStringLiteral("/tmp/redrive-demo.db"));
    QCOMPARE(loaded->adminUrl, QUrl(QStringLiteral("http://127.0.0.1:8081")));
    QCOMPARE(ProfileStore(settings).lastUsed(), QStringLiteral("demo"));
    QVERIFY(secrets.contains(loaded->apiTokenKey()));
    settings.sync();
    QFile f(ini);
    QVERIFY(f.open(QIODevice::ReadOnly));
    QVERIFY(!f.readAll().contains(kToken.toUtf8()));
}

void TstProfileImport::keychainFailureIsReportedAndNothingLeaks()
{
    QTemporaryDir dir;
    const QString ini = dir.filePath(QStringLiteral("redrive.conf"));
    QSettings settings(ini, QSettings::IniFormat);
    MemorySecretStore secrets;
    secrets.setAvailable(false);
    ProfileImport import(settings, secrets);
    QSignalSpy done(&import, &ProfileImport::finished);
    import.run(kProfile, kToken);
    QVERIFY(done.wait(5000));
    QCOMPARE(done.first().at(0).toInt(), 1);
    QVERIFY(done.first().at(1).toString().contains(QLatin1String("NOT stored")));
    QVERIFY(!done.first().at(1).toString().contains(kToken));
    QCOMPARE(secrets.size(), 0);
    settings.sync();
    QFile f(ini);
    QVERIFY(f.open(QIODevice::ReadOnly));
    QVERIFY(!f.readAll().contains(kToken.toUtf8()));
}

void TstProfileImport::badFilesAreRefused_data()
{
    QTest::addColumn<QByteArray>("json");
    QTest::addColumn<QString>("messagePart");
    QTest::newRow("not json") << QByteArray("name=demo") << QStringLiteral("not a JSON object");
    QTest::newRow("token in file") << QByteArray("{\"name\":\"d\",\"sqlite\":\"/x\",\"api_token\":\"rdt_x\"}")
                                   << QStringLiteral("secrets do not belong");
    QTest::newRow("unknown key") << QByteArray("{\"name\":\"d\",\"sqlite\":\"/x\",\"colur\":\"red\"}")
                                 << QStringLiteral("unknown key");
    QTest::newRow("both databases") << QByteArray("{\"name\":\"d\",\"sqlite\":\"/x\",\"postgresql\":{}}")
                                    << QStringLiteral("exactly one");
    QTest::newRow("bad colour") << QByteArray("{\"name\":\"d\",\"sqlite\":\"/x\",\"colour\":\"nope\"}")
                                << QStringLiteral("colour");
    QTest::newRow("no name") << QByteArray("{\"sqlite\":\"/x\"}") << QStringLiteral("name");
}

void TstProfileImport::badFilesAreRefused()
{
    QFETCH(QByteArray, json);
    QFETCH(QString, messagePart);
    QTemporaryDir dir;
    QSettings settings(dir.filePath(QStringLiteral("redrive.conf")), QSettings::IniFormat);
    MemorySecretStore secrets;
    ProfileImport import(settings, secrets);
    QSignalSpy done(&import, &ProfileImport::finished);
    import.run(json, kToken);
    QVERIFY(done.wait(5000));
    QCOMPARE(done.first().at(0).toInt(), 2);
    QVERIFY2(done.first().at(1).toString().contains(messagePart), qPrintable(done.first().at(1).toString()));
    QVERIFY(ProfileStore(settings).names().isEmpty());
    QCOMPARE(secrets.size(), 0);
}

QTEST_GUILESS_MAIN(TstProfileImport)
#include "tst_profileimport.moc"
