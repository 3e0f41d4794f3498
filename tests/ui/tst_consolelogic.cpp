// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#include "api/permissions.h"
#include "auditor/auditcontroller.h"
#include "auditor/audittrust.h"
#include "auditor/chainstatustext.h"
#include "common/statuspalette.h"
#include "common/timeformat.h"
#include "config/retryschedules.h"
#include "connection/connectionerrors.h"
#include "connection/connectionprofile.h"
#include "destinations/destinationscontroller.h"
#include "events/savedviews.h"
#include "main/windowfit.h"
#include "newreplay/replaypreview.h"
#include "query/downstream.h"
#include "secrets/secretstore.h"
#include "storage/eventstatus.h"

#include <QCoreApplication>
#include <QJsonArray>
#include <QLocale>
#include <QScopeGuard>
#include <QSettings>
#include <QTemporaryDir>
#include <QTest>

using namespace redrive;
using namespace redrive::ui;

// Pure console logic: the downstream rule, failure explanations, role gating, profiles and
// saved views in settings, and the in-memory secret store's asynchronous contract.
class TstConsoleLogic : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void pauseEndsAreOfferedFromNow();
    void countsReadAsWords();
    void firstWindowFitsTheScreen_data();
    void firstWindowFitsTheScreen();
    void downstreamState_data();
    void downstreamState();
    void downstreamSummaryPicksTheMostUrgent();
    void statesAreLabelledFromTheEnum();
    void databaseErrorsAreExplained_data();
    void databaseErrorsAreExplained();
    void schemaVersionChecks_data();
    void schemaVersionChecks();
    void permissionsFollowTheRoleTable();
    void profilesRoundTripWithoutSecrets();
    void profileValidationNamesTheField_data();
    void profileValidationNamesTheField();
    void savedViewsRoundTrip();
    void memorySecretStoreAnswersLater();
    void retrySchedulesIgnoreSecrets();
    void replayPreviewWording();
    void csvCellsAreQuotedAndDefused_data();
    void csvCellsAreQuotedAndDefused();
    void durations_data();
    void durations();
    void auditKeyIsPinnedOnFirstUsePerProfile();
    void savedCheckpointsRoundTripOnce();
    void chainStatusWording();
};

void TstConsoleLogic::downstreamState_data()
{
    QTest::addColumn<QString>("status");
    QTest::addColumn<bool>("unknown");
    QTest::addColumn<QString>("ref");
    QTest::addColumn<int>("expected");
    QTest::newRow("succeeded with ref")
        << "succeeded" << false << "ORD-1" << int(DownstreamState::SucceededWithRef);
    QTest::newRow("succeeded without ref") << "succeeded" << false << "" << int(DownstreamState::Succeeded);
    QTest::newRow("succeeded after an unknown")
        << "succeeded" << true << "R" << int(DownstreamState::SucceededWithRef);
    QTest::newRow("dead") << "dead" << false << "" << int(DownstreamState::Failed);
    QTest::newRow("dead after a timeout") << "dead" << true << "" << int(DownstreamState::OutcomeUnknown);
    QTest::newRow("retrying after a timeout")
        << "retrying" << true << "" << int(DownstreamState::OutcomeUnknown);
    QTest::newRow("retrying") << "retrying" << false << "" << int(DownstreamState::Pending);
    QTest::newRow("pending") << "pending" << false << "" << int(DownstreamState::Pending);
    QTest::newRow("in flight") << "in_flight" << false << "" << int(DownstreamState::Pending);
    QTest::newRow("unknown status") << "archived" << false << "" << int(DownstreamState::Pending);
    QTest::newRow("unknown status after a timeout")
        << "archived" << true << "" << int(DownstreamState::OutcomeUnknown);
}

void TstConsoleLogic::downstreamState()
{
    QFETCH(QString, status);
    QFETCH(bool, unknown);
    QFETCH(QString, ref);
    QFETCH(int, expected);
    QCOMPARE(int(redrive::downstreamState(Stored<DeliveryStatus>::fromName(status), unknown, ref)), expected);
}

void TstConsoleLogic::downstreamSummaryPicksTheMostUrgent()
{
    using S = DownstreamState;
    QVERIFY(summariseDownstream({}) == S::None);
    QVERIFY(summariseDownstream({ S::SucceededWithRef, S::Failed }) == S::Failed);
    QVERIFY(summariseDownstream({ S::Failed, S::OutcomeUnknown, S::Pending }) == S::OutcomeUnknown);
    QVERIFY(summariseDownstream({ S::SucceededWithRef, S::Succeeded }) == S::Succeeded);
    QVERIFY(summariseDownstream({ S::Pending, S::SucceededWithRef }) == S::Pending);
    // Resolved by hand needs nobody's attention, but says more than a clean success.
    QVERIFY(summariseDownstream({ S::SucceededWithRef, S::Resolved }) == S::Resolved);
    QVERIFY(summariseDownstream({ S::Resolved, S::Failed }) == S::Failed);
    QVERIFY(redrive::downstreamState(DeliveryStatus::Resolved, true, QString()) == S::Resolved);
    // An event whose dead letter was resolved reads resolved, until something else needs looking at.
    QVERIFY(summariseEventStatus({ DeliveryStatus::Succeeded, DeliveryStatus::Resolved })
        == EventStatus::Resolved);
    QVERIFY(summariseEventStatus({ DeliveryStatus::Resolved, DeliveryStatus::Retrying })
        == EventStatus::Retrying);
    QVERIFY(summariseEventStatus({ DeliveryStatus::Resolved, DeliveryStatus::Dead }) == EventStatus::Dead);
}

void TstConsoleLogic::statesAreLabelledFromTheEnum()
{
    QCOMPARE(categoryLabel(FailureCategory::HttpRetryable), QStringLiteral("HTTP retryable"));
    QCOMPARE(categoryLabel(FailureCategory::None), QStringLiteral("Success"));
    QCOMPARE(categoryLabel(Stored<FailureCategory>::fromName(QStringLiteral("tls"))), QStringLiteral("TLS"));
    // Unknown names are shown as stored; a null category as nothing.
    QCOMPARE(categoryLabel(Stored<FailureCategory>::fromName(QStringLiteral("quantum"))),
        QStringLiteral("quantum"));
    QVERIFY(categoryLabel(Stored<FailureCategory>()).isEmpty());
    for (const QString &name : allFailureCategoryNames())
        QVERIFY2(categoryLabel(*failureCategoryFromString(name)) != name,
            qPrintable(name)); // every one has a label
    QCOMPARE(statusLook(Stored<EventStatus>::fromName(QStringLiteral("in_flight"))).label,
        QStringLiteral("in flight"));
    QCOMPARE(statusLook(Stored<DeliveryStatus>(DeliveryStatus::Dead)).label, QStringLiteral("dead"));
    const StatusLook frozen = statusLook(Stored<EventStatus>::fromName(QStringLiteral("frozen")));
    QCOMPARE(frozen.label, QStringLiteral("frozen"));
    QVERIFY(frozen.background != statusLook(EventStatus::Dead).background);
    // A quarantined event has a chip of its own: labelled, and a colour no other status uses.
    const StatusLook invalid = statusLook(EventStatus::Invalid);
    QCOMPARE(invalid.label, QStringLiteral("invalid"));
    QCOMPARE(statusLook(Stored<EventStatus>::fromName(QStringLiteral("invalid"))).label,
        QStringLiteral("invalid"));
    for (const QString &name : allEventStatusNames()) {
        if (name != u"invalid")
            QVERIFY2(statusLook(Stored<EventStatus>::fromName(name)).background != invalid.background,
                qPrintable(name));
    }
}

void TstConsoleLogic::databaseErrorsAreExplained_data()
{
    QTest::addColumn<bool>("postgres");
    QTest::addColumn<QString>("driver");
    QTest::addColumn<QString>("field");
    QTest::addColumn<QString>("words");
    QTest::newRow("wrong password") << true << "FATAL:  password authentication failed for user \"support\""
                                    << "pgPassword"
                                    << "rejected the password";
    QTest::newRow("no password") << true << "fe_sendauth: no password supplied"
                                 << "pgPassword"
                                 << "asks for a password";
    QTest::newRow("refused") << true << "could not connect to server: Connection refused"
                             << "pgPort"
                             << "Nothing accepts";
    QTest::newRow("dns") << true << "could not translate host name \"db.x\" to address"
                         << "pgHost"
                         << "does not resolve";
    QTest::newRow("timeout") << true << "timeout expired"
                             << "pgHost"
                             << "could not be reached in time";
    QTest::newRow("tls") << true << "SSL error: certificate verify failed"
                         << "pgSslMode"
                         << "certificate does not match";
    QTest::newRow("no tls") << true << "server does not support SSL, but SSL was required"
                            << "pgSslMode"
                            << "does not offer TLS";
    QTest::newRow("no database") << true << "FATAL:  database \"redrive\" does not exist"
                                 << "pgDatabase"
                                 << "no database named";
    QTest::newRow("hba") << true << "no pg_hba.conf entry for host"
                         << "pgUser"
                         << "pg_hba.conf";
    QTest::newRow("sqlite missing") << false << "database file /x.db does not exist"
                                    << "sqlitePath"
                                    << "no database file";
    QTest::newRow("sqlite garbage") << false << "file is not a database"
                                    << "sqlitePath"
                                    << "is not a SQLite database";
    QTest::newRow("sqlite permission") << false << "unable to open database file"
                                       << "sqlitePath"
                                       << "cannot be opened for reading";
}

void TstConsoleLogic::databaseErrorsAreExplained()
{
    QFETCH(bool, postgres);
    QFETCH(QString, driver);
    QFETCH(QString, field);
    QFETCH(QString, words);
    ConnectionProfile p;
    p.databaseKind
        = postgres ? ConnectionProfile::DatabaseKind::Postgres : ConnectionProfile::DatabaseKind::Sqlite;
    p.pgHost = QStringLiteral("db.internal");
    p.pgUser = QStringLiteral("support");
    p.sqlitePath = QStringLiteral("/x.db");
    const ConnectionProblem problem = explainDatabaseError(p, driver);
    QCOMPARE(problem.field, field);
    QVERIFY2(problem.summary.contains(words, Qt::CaseInsensitive), qPrintable(problem.summary));
    QCOMPARE(problem.detail, driver); // kept, but never the only thing said
    QVERIFY(problem.summary != driver);
}

void TstConsoleLogic::schemaVersionChecks_data()
{
    QTest::addColumn<int>("version");
    QTest::addColumn<int>("expected");
    QTest::addColumn<QString>("words");
    QTest::newRow("current") << 3 << 3 << "";
    QTest::newRow("never migrated") << 0 << 3 << "never migrated";
    QTest::newRow("older") << 2 << 3 << "older than this console's 3";
    QTest::newRow("newer") << 4 << 3 << "newer than this console understands (3)";
    QTest::newRow("unreadable") << -1 << 3 << "could not be read";
}

void TstConsoleLogic::schemaVersionChecks()
{
    QFETCH(int, version);
    QFETCH(int, expected);
    QFETCH(QString, words);
    const auto problem = checkSchemaVersion(ConnectionProfile {}, version, expected);
    QCOMPARE(problem.has_value(), !words.isEmpty());
    if (problem)
        QVERIFY2(problem->summary.contains(words), qPrintable(problem->summary));
}

void TstConsoleLogic::permissionsFollowTheRoleTable()
{
    const Permissions none = Permissions::forRole(std::nullopt);
    QVERIFY(!none.replay && !none.approve && !none.readAudit && !none.manageDestinations && !none.addNotes
        && !none.exportEvidence);
    const Permissions support = Permissions::forRole(Role::Support);
    QVERIFY(support.replay && !support.approve && !support.readAudit && !support.manageDestinations
        && !support.exportEvidence);
    const Permissions op = Permissions::forRole(Role::Operator);
    QVERIFY(op.replay && op.approve && op.readAudit && !op.manageDestinations && op.exportEvidence);
    const Permissions auditor = Permissions::forRole(Role::Auditor);
    QVERIFY(!auditor.replay && !auditor.approve && auditor.readAudit && !auditor.addNotes
        && auditor.exportEvidence);
    const Permissions admin = Permissions::forRole(Role::Admin);
    QVERIFY(!admin.replay && !admin.approve && admin.readAudit && admin.manageDestinations
        && admin.exportEvidence);
    // Notes are for those who triage; the admin API refuses them to administrators, so the
    // console does not offer them either.
    QVERIFY(support.addNotes && op.addNotes && !admin.addNotes);
}

void TstConsoleLogic::profilesRoundTripWithoutSecrets()
{
    QTemporaryDir dir;
    const QString file = dir.filePath(QStringLiteral("p.ini"));
    ConnectionProfile p;
    p.name = QStringLiteral("prod / eu");
    p.environment = QStringLiteral("production");
    p.colour = QColor(0xd3, 0x2f, 0x2f);
    p.databaseKind = ConnectionProfile::DatabaseKind::Postgres;
    p.pgHost = QStringLiteral("db.internal");
    p.pgPort = 6432;
    p.pgUser = QStringLiteral("support");
    p.pgSslMode = QStringLiteral("verify-full");
    p.adminUrl = QUrl(QStringLiteral("https://redrive.internal:8081"));
    {
        QSettings settings(file, QSettings::IniFormat);
        ProfileStore store(settings);
        store.save(p);
        store.setLastUsed(p.name);
    }
    QSettings settings(file, QSettings::IniFormat);
    ProfileStore store(settings);
    QCOMPARE(store.names(), QStringList { p.name });
    QCOMPARE(store.lastUsed(), p.name);
    const auto back = store.load(p.name);
    QVERIFY(back);
    QVERIFY(*back == p);
    QVERIFY(p.isProduction());
    QCOMPARE(settings.value(QStringLiteral("profiles/prod%20%2F%20eu/admin/tokenKeychainName")).toString(),
        p.apiTokenKey());
    QVERIFY(p.apiTokenKey() != ConnectionProfile {}.apiTokenKey());
    const StorageUrl url = p.storageUrl(QStringLiteral("s3cret"));
    QCOMPARE(url.password, QStringLiteral("s3cret"));
    QVERIFY(url.connectOptions.contains(QStringLiteral("sslmode=verify-full")));
    QVERIFY(!p.databaseDescription().contains(QStringLiteral("s3cret")));
    store.remove(p.name);
    QVERIFY(store.names().isEmpty());
}

void TstConsoleLogic::profileValidationNamesTheField_data()
{
    QTest::addColumn<QString>("change");
    QTest::addColumn<QString>("field");
    QTest::newRow("ok") << ""
                        << "";
    QTest::newRow("no name") << "name"
                             << "name";
    QTest::newRow("no file") << "sqlite"
                             << "sqlitePath";
    QTest::newRow("bad url") << "url"
                             << "adminUrl";
    QTest::newRow("bad sslmode") << "ssl"
                                 << "pgSslMode";
    QTest::newRow("missing CA") << "ca"
                                << "caCertificate";
}

void TstConsoleLogic::profileValidationNamesTheField()
{
    QFETCH(QString, change);
    QFETCH(QString, field);
    ConnectionProfile p;
    p.name = QStringLiteral("x");
    p.sqlitePath = QStringLiteral("/tmp/x.db");
    p.adminUrl = QUrl(QStringLiteral("http://127.0.0.1:8081"));
    if (change == u"name")
        p.name.clear();
    else if (change == u"sqlite")
        p.sqlitePath.clear();
    else if (change == u"url")
        p.adminUrl = QUrl(QStringLiteral("ftp://x"));
    else if (change == u"ssl") {
        p.databaseKind = ConnectionProfile::DatabaseKind::Postgres;
        p.pgHost = QStringLiteral("h");
        p.pgSslMode = QStringLiteral("sometimes");
    } else if (change == u"ca")
        p.caCertificateFile = QStringLiteral("/nonexistent/ca.pem");
    const auto problem = p.validate();
    QCOMPARE(problem ? problem->field : QString(), field);
}

void TstConsoleLogic::savedViewsRoundTrip()
{
    QTemporaryDir dir;
    QSettings settings(dir.filePath(QStringLiteral("v.ini")), QSettings::IniFormat);
    SavedViews views(settings, QStringLiteral("prod"));
    SavedViews other(settings, QStringLiteral("staging"));
    EventFilter f;
    f.statuses = { QStringLiteral("dead"), QStringLiteral("retrying") };
    f.source = QStringLiteral("stripe & co");
    f.type = QStringLiteral("invoice.*");
    f.search = QStringLiteral("evt 1/2?");
    f.sinceMs = 1'700'000'000'000;
    views.save(QStringLiteral("Failed invoices"), f);
    QCOMPARE(views.names(), QStringList { QStringLiteral("Failed invoices") });
    QVERIFY(other.names().isEmpty()); // per profile
    const auto back = views.load(QStringLiteral("Failed invoices"));
    QVERIFY(back);
    QVERIFY(*back == f);
    views.remove(QStringLiteral("Failed invoices"));
    QVERIFY(views.names().isEmpty());
}

void TstConsoleLogic::memorySecretStoreAnswersLater()
{
    MemorySecretStore store;
    SecretResult last;
    int answers = 0;
    auto watch = [&](SecretJob *job) {
        connect(job, &SecretJob::finished, this, [&](const SecretResult &r) {
            last = r;
            ++answers;
        });
    };
    watch(store.write(QStringLiteral("a/api-token"), QStringLiteral("t1")));
    QCOMPARE(answers, 0); // never synchronous
    QTRY_COMPARE(answers, 1);
    QVERIFY(last.status == SecretStatus::Ok);
    watch(store.read(QStringLiteral("a/api-token")));
    QTRY_COMPARE(answers, 2);
    QCOMPARE(last.secret, QStringLiteral("t1"));
    watch(store.read(QStringLiteral("b/api-token")));
    QTRY_COMPARE(answers, 3);
    QVERIFY(last.status == SecretStatus::NotFound);
    store.setAvailable(false);
    watch(store.write(QStringLiteral("a/api-token"), QStringLiteral("t2")));
    QTRY_COMPARE(answers, 4);
    QVERIFY(last.status == SecretStatus::Unavailable);
    QVERIFY(!last.message.contains(QStringLiteral("t2")));
    QCOMPARE(SecretStore::keyFor(QStringLiteral("a/b"), QStringLiteral("x")), QStringLiteral("a%2Fb/x"));
}

void TstConsoleLogic::retrySchedulesIgnoreSecrets()
{
    const auto s = parseRetrySchedules(
        "[delivery]\njitter = 0.1\n[[sources]]\nname = \"github\"\nsecrets = [\"env:UNSET_SECRET\"]\n"
        "[[destinations]]\nname = \"crm\"\nmax_attempts = 3\nretry_schedule = [\"5s\", \"5m\"]\n"
        "signing_secret = \"env:ALSO_UNSET\"\n[[destinations]]\nname = \"erp\"\n");
    QVERIFY2(s, qPrintable(s.error()));
    QCOMPARE(s->jitter, 0.1);
    QCOMPARE(s->destinations.size(), 2);
    const DestinationConfig *crm = s->destination(u"crm");
    QVERIFY(crm);
    QCOMPARE(crm->maxAttempts, 3);
    QCOMPARE(crm->retryScheduleMs, (QList<qint64> { 5'000, 300'000 }));
    QVERIFY(s->destination(u"erp"));
    QVERIFY(!s->destination(u"nope"));
    const auto badDuration
        = parseRetrySchedules("[[destinations]]\nname = \"x\"\nretry_schedule = [\"soon\"]\n");
    QVERIFY(!badDuration);
    QVERIFY2(badDuration.error().contains(QStringLiteral("destinations[0].retry_schedule[0]")),
        qPrintable(badDuration.error()));
    // Which sources reconcile, with their provider, and nothing of their credential; a copy of
    // the config with none (the first one above) names none.
    QVERIFY(s->reconciledSources.isEmpty());
    const auto reconciling
        = parseRetrySchedules("[[sources]]\nname = \"stripe\"\n[sources.reconcile]\nprovider = \"stripe\"\n"
                              "credential = \"env:UNSET_KEY\"\n[[sources]]\nname = \"plain\"\n");
    QVERIFY2(reconciling, qPrintable(reconciling.error()));
    QCOMPARE(reconciling->reconciledSources,
        (QList<std::pair<QString, QString>> { { QStringLiteral("stripe"), QStringLiteral("stripe") } }));
    const auto notToml = parseRetrySchedules("this is = = not toml");
    QVERIFY(!notToml);
    QVERIFY(notToml.error().contains(QStringLiteral("not valid TOML")));
}

void TstConsoleLogic::replayPreviewWording()
{
    const auto noHash = ReplayPreview::fromJson(QJsonObject { { QStringLiteral("count"), 3 } });
    QVERIFY(!noHash);
    QVERIFY(noHash.error().contains(QStringLiteral("selection_hash")));
    QJsonObject low { { QStringLiteral("selection_hash"), QStringLiteral("ab") },
        { QStringLiteral("count"), 12 },
        { QStringLiteral("destinations"),
            QJsonArray { QJsonObject { { QStringLiteral("name"), QStringLiteral("crm") },
                { QStringLiteral("risk"), QStringLiteral("low") }, { QStringLiteral("count"), 12 } } } } };
    auto p = ReplayPreview::fromJson(low);
    QVERIFY(p);
    QVERIFY(!p->isHighRisk());
    QCOMPARE(p->actionLabel(), QStringLiteral("Replay 12 deliveries"));
    low.insert(QStringLiteral("outcome_unknown"), 1);
    p = ReplayPreview::fromJson(low);
    QVERIFY(p->isHighRisk()); // may already have acted downstream
    QCOMPARE(p->confirmPhrase(), QStringLiteral("replay 12"));
    low.insert(QStringLiteral("requires_approval"), true);
    low.insert(QStringLiteral("count"), 1);
    p = ReplayPreview::fromJson(low);
    QCOMPARE(p->actionLabel(), QStringLiteral("Request approval to replay 1 delivery"));
    // A risk word this console does not know is an error, as it is for the receiver: the
    // console does not guess a risk.
    low.insert(QStringLiteral("destinations"),
        QJsonArray { QJsonObject { { QStringLiteral("name"), QStringLiteral("crm") },
            { QStringLiteral("risk"), QStringLiteral("extreme") }, { QStringLiteral("count"), 1 } } });
    const auto unknownRisk = ReplayPreview::fromJson(low);
    QVERIFY(!unknownRisk);
    QVERIFY(unknownRisk.error().contains(QStringLiteral("extreme")));
}

void TstConsoleLogic::csvCellsAreQuotedAndDefused_data()
{
    QTest::addColumn<QString>("in");
    QTest::addColumn<QString>("out");
    QTest::newRow("plain") << "replay_requested"
                           << "replay_requested";
    QTest::newRow("comma") << "a,b"
                           << "\"a,b\"";
    QTest::newRow("quote") << "say \"hi\""
                           << "\"say \"\"hi\"\"\"";
    QTest::newRow("newline") << "a\nb"
                             << "\"a\nb\"";
    QTest::newRow("formula") << "=HYPERLINK(\"x\")"
                             << "\"'=HYPERLINK(\"\"x\"\")\"";
    QTest::newRow("at") << "@SUM(1)"
                        << "\"'@SUM(1)\"";
}

void TstConsoleLogic::csvCellsAreQuotedAndDefused()
{
    QFETCH(QString, in);
    QFETCH(QString, out);
    QCOMPARE(AuditController::csvField(in), out);
}

void TstConsoleLogic::durations_data()
{
    QTest::addColumn<qint64>("ms");
    QTest::addColumn<QString>("text");
    QTest::newRow("seconds") << qint64(4'900) << "4 s";
    QTest::newRow("minutes") << qint64(5 * 60'000) << "5 min";
    QTest::newRow("hours") << qint64(2 * 3'600'000 + 5 * 60'000) << "2 h 5 min";
    QTest::newRow("days") << qint64(3 * 86'400'000LL + 3'600'000) << "3 d 1 h";
    QTest::newRow("negative") << qint64(-120'000) << "-2 min";
}

void TstConsoleLogic::durations()
{
    QFETCH(qint64, ms);
    QFETCH(QString, text);
    QCOMPARE(TimeFormat::duration(ms), text);
}

void TstConsoleLogic::auditKeyIsPinnedOnFirstUsePerProfile()
{
    QTemporaryDir dir;
    const QString file = dir.filePath(QStringLiteral("s.ini"));
    {
        QSettings settings(file, QSettings::IniFormat);
        AuditTrustStore prod(settings, QStringLiteral("prod/eu"));
        QVERIFY(prod.pinnedKeyId().isEmpty());
        QCOMPARE(prod.checkKey(QStringLiteral("1111111111111111")), AuditTrustStore::Pin::PinnedNow);
        QCOMPARE(prod.checkKey(QStringLiteral("1111111111111111")), AuditTrustStore::Pin::Matches);
        QCOMPARE(prod.checkKey(QStringLiteral("2222222222222222")), AuditTrustStore::Pin::Different);
        QCOMPARE(prod.pinnedKeyId(), QStringLiteral("1111111111111111")); // a different key never re-pins
        // Another profile pins on its own.
        AuditTrustStore staging(settings, QStringLiteral("staging"));
        QCOMPARE(staging.checkKey(QStringLiteral("2222222222222222")), AuditTrustStore::Pin::PinnedNow);
    }
    QSettings settings(file, QSettings::IniFormat);
    AuditTrustStore prod(settings, QStringLiteral("prod/eu"));
    QCOMPARE(prod.checkKey(QStringLiteral("2222222222222222")), AuditTrustStore::Pin::Different);
    prod.forgetPin();
    QCOMPARE(prod.checkKey(QStringLiteral("2222222222222222")), AuditTrustStore::Pin::PinnedNow);
    // The profile's own group is not touched: no phantom profile appears.
    QCOMPARE(ProfileStore(settings).names(), QStringList());
}

void TstConsoleLogic::savedCheckpointsRoundTripOnce()
{
    QTemporaryDir dir;
    QSettings settings(dir.filePath(QStringLiteral("s.ini")), QSettings::IniFormat);
    AuditTrustStore store(settings, QStringLiteral("p"));
    const QString h1(64, u'a'), h2(64, u'b');
    QVERIFY(store.saveCheckpoint({ 9, h2, 2000, QStringLiteral("abcdabcdabcdabcd") }));
    QVERIFY(store.saveCheckpoint({ 4, h1, 1000, QString() }));
    QVERIFY(!store.saveCheckpoint({ 9, h2, 3000, QString() })); // once per seq
    const QList<audit::ChainAnchor> saved = store.savedCheckpoints();
    QCOMPARE(saved.size(), 2);
    QCOMPARE(saved[0].seq, qint64(4));
    QCOMPARE(saved[0].hash, h1);
    QCOMPARE(saved[1].seq, qint64(9));
    QCOMPARE(saved[1].atMs, qint64(2000));
    QCOMPARE(saved[1].keyId, QStringLiteral("abcdabcdabcdabcd"));
}

void TstConsoleLogic::chainStatusWording()
{
    audit::ChainReport intact;
    intact.chain.head.seq = 12;
    intact.anchors = { audit::AnchorResult {}, audit::AnchorResult {} };
    const audit::ChainAnchor signedCp { 12, QString(64, u'c'), 0, QStringLiteral("1a2b3c4d5e6f7a8b") };
    const QList<audit::ChainAnchor> saved { { 7, QString(64, u'd'), 0, QString() } };
    ChainStatusText t = describeChainStatus(intact, signedCp, saved, QString());
    QCOMPARE(t.chain, QStringLiteral("Chain intact to #12 · checkpoint #12 verified (key 1a2b3c4d5e6f7a8b)"));
    QVERIFY(t.chainGood && t.checkpointsGood);
    QVERIFY(t.checkpoints.startsWith(QStringLiteral("Nothing changed up to the saved checkpoint #7")));

    audit::ChainReport broken;
    broken.chain.ok = false;
    broken.chain.firstBadSeq = 5;
    broken.chain.problem
        = QStringLiteral("entry 5's hash does not match its contents (the entry was edited)");
    broken.anchors = { { audit::AnchorResult::State::Changed, 5, broken.chain.problem } };
    t = describeChainStatus(broken, std::nullopt, saved, QStringLiteral("no signed checkpoint: x"));
    QCOMPARE(t.chain, QStringLiteral("Chain broken at #5: ") + broken.chain.problem);
    QVERIFY(!t.chainGood && !t.checkpointsGood);
    QVERIFY(t.checkpoints.contains(QStringLiteral("first changed entry #5")));

    audit::ChainReport cut;
    cut.chain.head.seq = 3;
    cut.anchors = { { audit::AnchorResult::State::CutOff, 4, QStringLiteral("cut") } };
    t = describeChainStatus(cut, std::nullopt, saved, QStringLiteral("no signed checkpoint: x"));
    QCOMPARE(t.chain, QStringLiteral("Chain intact to #3 · no signed checkpoint: x"));
    QVERIFY(t.checkpoints.contains(QStringLiteral("the tail was cut off, first missing entry #4")));
}

void TstConsoleLogic::pauseEndsAreOfferedFromNow()
{
    const auto at = [](int day, int h, int m) {
        return QDateTime(QDate(2026, 12, day), QTime(h, m)).toMSecsSinceEpoch();
    };
    for (const auto &[now, six] : { std::pair { at(3, 5, 59), at(3, 6, 0) },
             std::pair { at(3, 6, 0), at(4, 6, 0) }, std::pair { at(3, 23, 30), at(4, 6, 0) } }) {
        const auto ends = DestinationsController::pauseEnds(now);
        QCOMPARE(ends.size(), 4);
        QVERIFY(!ends[0]); // until someone resumes it
        QCOMPARE(*ends[1], now + 3'600'000);
        QCOMPARE(*ends[2], now + 4 * 3'600'000);
        QCOMPARE(*ends[3], six); // the next 06:00, never one already past
    }
}

void TstConsoleLogic::countsReadAsWords()
{
    const QLocale before;
    QLocale::setDefault(QLocale(QLocale::English, QLocale::UnitedStates));
    const auto restore = qScopeGuard([before] { QLocale::setDefault(before); });
    // The incidents page's own sentence, through the English translation every console loads.
    const auto phrase = [](int n) {
        return QCoreApplication::translate(
            "redrive::ui::IncidentsController", "%Ln open incident(s), all acknowledged.", nullptr, n);
    };
    QCOMPARE(phrase(0), QStringLiteral("0 open incidents, all acknowledged."));
    QCOMPARE(phrase(1), QStringLiteral("1 open incident, all acknowledged."));
    QCOMPARE(phrase(3), QStringLiteral("3 open incidents, all acknowledged."));
    QCOMPARE(phrase(1204), QStringLiteral("1,204 open incidents, all acknowledged."));
}

void TstConsoleLogic::firstWindowFitsTheScreen_data()
{
    QTest::addColumn<QRect>("available");
    QTest::addColumn<QSize>("expected");
    QTest::newRow("large monitor: as preferred") << QRect(0, 0, 2560, 1400) << QSize(1400, 860);
    QTest::newRow("1366x768 laptop") << QRect(0, 0, 1366, 740) << QSize(1350, 692);
    QTest::newRow("1280x720") << QRect(0, 0, 1280, 720) << QSize(1264, 672);
    QTest::newRow("second screen at an offset") << QRect(1920, 0, 1280, 1024) << QSize(1264, 860);
    QTest::newRow("absurdly small") << QRect(0, 0, 10, 10) << QSize(1, 1);
}

void TstConsoleLogic::firstWindowFitsTheScreen()
{
    QFETCH(QRect, available);
    QFETCH(QSize, expected);
    const QRect r = firstWindowGeometry(QSize(1400, 860), available);
    QCOMPARE(r.size(), expected);
    if (expected.width() > 1)
        QVERIFY(available.contains(r)); // centred on that screen, not the first one
}

QTEST_MAIN(TstConsoleLogic)
#include "tst_consolelogic.moc"
