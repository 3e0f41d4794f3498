// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
// Migration 5 on SQLite and PostgreSQL: signature fields leave the rows stored before it (events
// and rejections, the fixed schemes' fields and a generic source's configured one), and the first
// event of each body gets the body digest that the new unique key dedupes on.

#include "crypto/crypto.h"
#include "storage/schema.h"
#include "testdb.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QSqlQuery>
#include <QTest>

using namespace redrive;
using namespace redrive::test;

namespace {

const QByteArray kBody = "{\"action\":\"opened\",\"number\":7}";

QList<QByteArray> headerNames(const QString &json)
{
    QList<QByteArray> names;
    for (const QJsonValue &pair : QJsonDocument::fromJson(json.toUtf8()).array())
        names.append(pair.toArray().at(0).toString().toLatin1().toLower());
    return names;
}

} // namespace

class TstSignatureMigration final : public QObject {
    Q_OBJECT

private:
    std::unique_ptr<TestDatabase> m_database;
    std::unique_ptr<Db> m_db;

    bool insertEvent(const QString &source, const QString &id, const QByteArray &headers, QString *error)
    {
        QSqlQuery q(m_db->handle());
        q.prepare(QStringLiteral(
            "INSERT INTO events (source, provider_event_id, event_type, received_at, last_seen_at, body, "
            "body_sha256, body_size, headers, verified_by) VALUES (?, ?, 'issues', 1, 1, ?, ?, ?, ?, ?)"));
        q.addBindValue(source);
        q.addBindValue(id);
        q.addBindValue(kBody);
        q.addBindValue(QString::fromLatin1(crypto::sha256Hex(kBody)));
        q.addBindValue(kBody.size());
        q.addBindValue(QString::fromLatin1(headers));
        q.addBindValue(QStringLiteral("secrets[0]"));
        if (!q.exec()) {
            *error = sqlErrorText(q);
            return false;
        }
        return true;
    }

    QVariant scalar(const QString &sql, const QVariantList &binds = {})
    {
        QSqlQuery q(m_db->handle());
        q.prepare(sql);
        for (const QVariant &b : binds)
            q.addBindValue(b);
        return q.exec() && q.next() ? q.value(0) : QVariant();
    }

private Q_SLOTS:
    void init()
    {
        QString error;
        m_database = TestDatabase::create(&error, false);
        QVERIFY2(m_database, qPrintable(error));
        m_db = m_database->open();
        QVERIFY(m_db);
        auto migrated = migrateTo(*m_db, 4);
        QVERIFY2(migrated, qPrintable(migrated.error()));
    }
    void cleanup()
    {
        m_db.reset();
        m_database.reset();
    }

    void stripsSignaturesAndSeedsBodyDedupe()
    {
        QString error;
        QVERIFY2(insertEvent(QStringLiteral("gh"), QStringLiteral("d-1"),
                     R"([["X-GitHub-Delivery","d-1"],["X-Hub-Signature-256","sha256=ab12"],)"
                     R"(["x-hub-signature","sha1=cd34"],["User-Agent","GitHub-Hookshot/1"]])",
                     &error),
            qPrintable(error));
        // The same body again under another id, from before the body was a key.
        QVERIFY2(insertEvent(QStringLiteral("gh"), QStringLiteral("d-2"),
                     R"([["X-GitHub-Delivery","d-2"],["X-Hub-Signature-256","sha256=ab12"]])", &error),
            qPrintable(error));
        QVERIFY2(
            insertEvent(QStringLiteral("acme"), QStringLiteral("a-1"),
                R"([["X-Acme-Mac","00ff"],["webhook-signature","v1,xyz"],["X-Event-Id","a-1"]])", &error),
            qPrintable(error));
        QVERIFY2(insertEvent(QStringLiteral("shop"), QStringLiteral("s-1"),
                     R"([["X-Shopify-Hmac-Sha256","b64=="],["Stripe-Signature","t=1,v1=aa"]])", &error),
            qPrintable(error));
        QVERIFY(m_db->exec(QStringLiteral(
            "INSERT INTO rejections (source, reason, status_code, headers, received_at) VALUES "
            "('gh', 'missing_id', 400, '[[\"X-Hub-Signature-256\",\"sha256=ab12\"],[\"X-GitHub-Event\",\"push\"]]', 1)")));

        MigrateOptions options;
        options.signatureHeaders = { QByteArrayLiteral("X-Acme-Mac") };
        const auto migrated = migrate(*m_db, options);
        QVERIFY2(migrated, qPrintable(migrated.error()));
        QCOMPARE(migrated->fromVersion, 4);
        QCOMPARE(migrated->toVersion, kSchemaVersion);
        QVERIFY(kSchemaVersion >= 5);

        auto names = [&](const char *table, const QString &where) {
            return headerNames(
                scalar(QStringLiteral("SELECT headers FROM %1 WHERE %2").arg(QLatin1String(table), where))
                    .toString());
        };
        QCOMPARE(names("events", QStringLiteral("provider_event_id = 'd-1'")),
            (QList<QByteArray> { "x-github-delivery", "user-agent" }));
        QCOMPARE(names("events", QStringLiteral("provider_event_id = 'd-2'")),
            QList<QByteArray> { "x-github-delivery" });
        QCOMPARE(
            names("events", QStringLiteral("provider_event_id = 'a-1'")), QList<QByteArray> { "x-event-id" });
        QCOMPARE(names("events", QStringLiteral("provider_event_id = 's-1'")), QList<QByteArray> {});
        QCOMPARE(names("rejections", QStringLiteral("reason = 'missing_id'")),
            QList<QByteArray> { "x-github-event" });
        QCOMPARE(scalar(QStringLiteral("SELECT verified_by FROM events WHERE provider_event_id = 'd-1'"))
                     .toString(),
            QStringLiteral("secrets[0]"));

        // The first event of each (source, body) carries the digest; later copies do not.
        const QString sha = QString::fromLatin1(crypto::sha256Hex(kBody));
        QCOMPARE(scalar(QStringLiteral("SELECT dedupe_sha256 FROM events WHERE provider_event_id = 'd-1'"))
                     .toString(),
            sha);
        QVERIFY(scalar(QStringLiteral("SELECT dedupe_sha256 FROM events WHERE provider_event_id = 'd-2'"))
                    .isNull());
        QCOMPARE(scalar(QStringLiteral("SELECT dedupe_sha256 FROM events WHERE provider_event_id = 'a-1'"))
                     .toString(),
            sha);

        // And the database enforces it: a third gh event with that digest is refused.
        QSqlQuery q(m_db->handle());
        q.prepare(QStringLiteral(
            "INSERT INTO events (source, provider_event_id, received_at, last_seen_at, body, body_sha256, "
            "body_size, dedupe_sha256) VALUES ('gh', 'd-3', 1, 1, ?, ?, 1, ?)"));
        q.addBindValue(kBody);
        q.addBindValue(sha);
        q.addBindValue(sha);
        QVERIFY(!q.exec());
        // Rows without a digest never collide.
        QVERIFY(m_db->exec(
            QStringLiteral("UPDATE events SET dedupe_sha256 = NULL WHERE provider_event_id = 'a-1'")));
    }
};

QTEST_GUILESS_MAIN(TstSignatureMigration)
#include "tst_signaturemigration.moc"
