// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#include "connection/keychainsecretstore.h"

#include <QSignalSpy>
#include <QTest>
#include <QUuid>

#include <cstdio>

using namespace redrive;
using namespace redrive::ui;

// The real Secret Service: scripts/test.sh runs the suite inside dbus-run-session with an
// unlocked gnome-keyring, so this stores, reads and deletes an actual keychain item.
class TstKeychain : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void storesReadsAndRemovesPerProfile();

private:
    SecretResult wait(SecretJob *job);
};

SecretResult TstKeychain::wait(SecretJob *job)
{
    SecretResult result;
    bool done = false;
    connect(job, &SecretJob::finished, this, [&](const SecretResult &r) {
        result = r;
        done = true;
    });
    QDeadlineTimer deadline(20'000);
    while (!done && !deadline.hasExpired())
        QTest::qWait(10);
    if (!done)
        result.message = QStringLiteral("the keychain did not answer within 20 s");
    return result;
}

void TstKeychain::storesReadsAndRemovesPerProfile()
{
    KeychainSecretStore store(QStringLiteral("redrive-test"));
    const QString profile
        = QStringLiteral("test profile/") + QUuid::createUuid().toString(QUuid::WithoutBraces);
    const QString tokenKey = SecretStore::keyFor(profile, QStringLiteral("api-token"));
    const QString otherKey
        = SecretStore::keyFor(profile + QLatin1String("-other"), QStringLiteral("api-token"));
    const QString secret = QStringLiteral("rdv_") + QUuid::createUuid().toString(QUuid::Id128);

    SecretResult r = wait(store.write(tokenKey, secret));
    QVERIFY2(r.status == SecretStatus::Ok, qPrintable(r.message));
    r = wait(store.read(tokenKey));
    QVERIFY2(r.status == SecretStatus::Ok, qPrintable(r.message));
    QCOMPARE(r.secret, secret);
    // Scoped per profile: another profile's name finds nothing.
    r = wait(store.read(otherKey));
    QVERIFY(r.status == SecretStatus::NotFound);
    QVERIFY(r.secret.isEmpty());
    r = wait(store.remove(tokenKey));
    QVERIFY2(r.status == SecretStatus::Ok, qPrintable(r.message));
    r = wait(store.read(tokenKey));
    QVERIFY(r.status == SecretStatus::NotFound);
}

// Without a session bus there is no Secret Service to test against: report "skipped" to CTest
// (exit code 77, see redrive_add_test) instead of passing. scripts/test.sh always provides one.
int main(int argc, char **argv)
{
    if (qEnvironmentVariableIsEmpty("DBUS_SESSION_BUS_ADDRESS")) {
        std::fprintf(stderr,
            "tst_keychain: no session bus; run through scripts/test.sh (dbus-run-session with gnome-keyring)\n");
        return 77;
    }
    QCoreApplication app(argc, argv);
    TstKeychain test;
    QTEST_SET_MAIN_SOURCE_PATH
    return QTest::qExec(&test, argc, argv);
}
#include "tst_keychain.moc"
