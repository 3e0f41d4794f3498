// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
// Signature fields are never served (GET events/{id}), exported (evidence bundles) or shown (the
// console's event detail, read through core/query) — not even from a row stored before they
// stopped being stored (issue 13, item 1) — and a refused signature tells the sender nothing of
// how many secrets the source has (issue 29, 5b). On SQLite and PostgreSQL.

#include "adminfixture.h"
#include "ingestharness.h"
#include "query/eventdetail.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QSqlQuery>
#include <QTest>

using namespace redrive;
using namespace redrive::test;

namespace {

const QString kStoredHeaders = QStringLiteral(
    R"([["X-GitHub-Delivery","d-77"],["X-Hub-Signature-256","sha256=5eed5eed"],)"
    R"(["X-Shopify-Hmac-Sha256","c2lnbmF0dXJl"],["X-Acme-Mac","ac3eac3e"],["Authorization","Bearer t0k3n"]])");

QStringList headerNames(const QJsonArray &headers)
{
    QStringList names;
    for (const QJsonValue &pair : headers)
        names.append(pair.toArray().at(0).toString().toLower());
    return names;
}

} // namespace

class TstSignatureHeaders final : public QObject {
    Q_OBJECT

private:
    std::unique_ptr<AdminFixture> f;
    qint64 m_event = 0;

private Q_SLOTS:
    void initTestCase()
    {
        QString error;
        f = AdminFixture::create(&error, [](Config &c) {
            SourceConfig acme;
            acme.name = QStringLiteral("acme");
            acme.scheme = SchemeKind::HmacSha256;
            acme.hmac.signatureHeader = QByteArrayLiteral("X-Acme-Mac");
            acme.hmac.idHeader = QByteArrayLiteral("X-Event-Id");
            acme.secrets.append(Secret { QStringLiteral("secrets[0]"), QByteArrayLiteral("k") });
            c.sources.append(acme);
        });
        QVERIFY2(f, qPrintable(error));
        QVERIFY2(f->startApi(&error), qPrintable(error));
        m_event = f->insertEvent(QStringLiteral("acme"), QStringLiteral("push"), QStringLiteral("d-77"));
        QSqlQuery q(f->db().handle());
        q.prepare(QStringLiteral("UPDATE events SET headers = ? WHERE id = ?"));
        q.addBindValue(kStoredHeaders);
        q.addBindValue(m_event);
        QVERIFY2(q.exec(), qPrintable(sqlErrorText(q)));
    }
    void cleanupTestCase() { f.reset(); }

    void notServed()
    {
        const QString support = f->token(QStringLiteral("sam"), Role::Support);
        const auto r = f->call("GET", "events/" + QByteArray::number(m_event), support);
        QCOMPARE(r.status, 200);
        const QStringList names = headerNames(r.json.value(QLatin1String("headers")).toArray());
        QCOMPARE(
            names, (QStringList { QStringLiteral("x-github-delivery"), QStringLiteral("authorization") }));
        QVERIFY(!r.body.contains("5eed5eed"));
        QVERIFY(!r.body.contains("ac3eac3e"));
        QVERIFY(!r.body.contains("t0k3n"));
    }

    void notExported()
    {
        const QString auditor = f->token(QStringLiteral("ada"), Role::Auditor);
        const auto r = f->call("GET", "events/" + QByteArray::number(m_event) + "/evidence", auditor);
        QCOMPARE(r.status, 200);
        QVERIFY(r.body.contains("X-GitHub-Delivery"));
        for (const char *leak :
            { "X-Hub-Signature-256", "5eed5eed", "X-Shopify-Hmac-Sha256", "c2lnbmF0dXJl" })
            QVERIFY2(!r.body.contains(leak), leak);
    }

    // The same forged request to a source with one secret and to one with three (mid-rotation)
    // gets the same 401, byte for byte: the count would tell the sender a rotation is going on.
    // Both are kept as rejections for support, with the same words.
    void unauthorizedIsTheSameWhateverTheSecretCount()
    {
        QString error;
        auto h = IngestHarness::create({}, &error, QByteArrayLiteral(R"(
[[sources]]
name = "one"
scheme = "github"
secrets = ["current-secret"]

[[sources]]
name = "three"
scheme = "github"
secrets = ["next-secret", "current-secret", "previous-secret"]
)"));
        QVERIFY2(h, qPrintable(error));
        const QByteArray body = QByteArrayLiteral("{\"action\":\"opened\"}");
        const HeaderList forged = signGitHub("a-guessed-secret", body, "delivery-1", "issues");
        const auto one = h->post("one", forged, body);
        const auto three = h->post("three", forged, body);
        QVERIFY(one && three);
        QCOMPARE(one->status, 401);
        QCOMPARE(three->status, 401);
        QCOMPARE(three->body, one->body);
        QVERIFY2(!one->body.contains('1') && !three->body.contains('3'), one->body.constData());
        QTRY_COMPARE(h->scalar(QStringLiteral("SELECT COUNT(*) FROM rejections")).toInt(), 2);
        QCOMPARE(h->scalar(QStringLiteral("SELECT COUNT(DISTINCT detail) FROM rejections WHERE reason = "
                                          "'bad_signature'"))
                     .toInt(),
            1);
    }

    // The console's header view and evidence exports read this.
    void notShown()
    {
        QString error;
        const auto detail = fetchEventDetail(f->db(), m_event);
        QVERIFY2(detail && *detail, qPrintable(detail.error()));
        const QStringList names = headerNames(QJsonDocument::fromJson((*detail)->headersJson).array());
        QVERIFY(names.contains(QStringLiteral("x-github-delivery")));
        QVERIFY(!names.contains(QStringLiteral("x-hub-signature-256")));
        QVERIFY(!names.contains(QStringLiteral("x-shopify-hmac-sha256")));
        QVERIFY(!(*detail)->headersJson.contains("t0k3n"));
    }
};

QTEST_GUILESS_MAIN(TstSignatureHeaders)
#include "tst_signatureheaders.moc"
