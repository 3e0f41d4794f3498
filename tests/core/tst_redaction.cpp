// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
// Redaction by JSON pointer (core/privacy/redaction.h): which values a redacted copy replaces,
// that every other byte is as received, and what bodies it refuses to guess about.
#include "privacy/redaction.h"

#include <QJsonDocument>
#include <QJsonObject>
#include <QTest>

using namespace redrive::privacy;

class TstRedaction : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void redacts_data();
    void redacts();
    void matchedPathsInConfigOrder();
    void redactedCopyParsesAndKeepsTheRest();
    void values();
    void scrubsEchoes();
};

void TstRedaction::redacts_data()
{
    QTest::addColumn<QByteArray>("body");
    QTest::addColumn<QList<QByteArray>>("pointers");
    QTest::addColumn<QByteArray>("expected"); // empty: nothing redacted

    const QList<QByteArray> email { "/data/object/customer_email" };
    QTest::newRow("a string, layout kept")
        << QByteArray(R"({"data": {"object": {"id":"ch_1",  "customer_email" : "ana@example.com" }}})")
        << email << QByteArray(R"({"data": {"object": {"id":"ch_1",  "customer_email" : "[redacted]" }}})");
    QTest::newRow("a subtree") << QByteArray(
        R"({"billing":{"name":"Ana","address":{"line1":"1 Main St","city":"Lyon"}},"amount":12})")
                               << QList<QByteArray> { "/billing" }
                               << QByteArray(R"({"billing":"[redacted]","amount":12})");
    QTest::newRow("a number") << QByteArray(R"({"card":{"last4":4242,"exp":12}})")
                              << QList<QByteArray> { "/card/last4" }
                              << QByteArray(R"({"card":{"last4":"[redacted]","exp":12}})");
    QTest::newRow("an array element")
        << QByteArray(R"({"emails":["a@x.io","b@x.io","c@x.io"]})") << QList<QByteArray> { "/emails/1" }
        << QByteArray(R"({"emails":["a@x.io","[redacted]","c@x.io"]})");
    QTest::newRow("a duplicated member, both copies")
        << QByteArray(R"({"email":"a@x.io","email":"b@x.io"})") << QList<QByteArray> { "/email" }
        << QByteArray(R"({"email":"[redacted]","email":"[redacted]"})");
    QTest::newRow("an escaped member name")
        << QByteArray(R"({"e\u006dail":"a@x.io"})") << QList<QByteArray> { "/email" }
        << QByteArray(R"({"e\u006dail":"[redacted]"})");
    QTest::newRow("pointer escapes ~0 ~1")
        << QByteArray(R"({"a/b":{"c~d":"secret"}})") << QList<QByteArray> { "/a~1b/c~0d" }
        << QByteArray(R"({"a/b":{"c~d":"[redacted]"}})");
    QTest::newRow("strings holding braces and quotes are skipped whole")
        << QByteArray(R"({"note":"a } \" { ] [ , :","email":"a@x.io"})") << QList<QByteArray> { "/email" }
        << QByteArray(R"({"note":"a } \" { ] [ , :","email":"[redacted]"})");
    QTest::newRow("a pointer under another is covered by it")
        << QByteArray(R"({"c":{"email":"a@x.io","name":"Ana"},"z":1})")
        << QList<QByteArray> { "/c/email", "/c" } << QByteArray(R"({"c":"[redacted]","z":1})");
    QTest::newRow("null, true and nested arrays")
        << QByteArray(R"({"a":[[1,2],{"b":null}],"t":true,"s":"x"})") << QList<QByteArray> { "/a/1/b", "/t" }
        << QByteArray(R"({"a":[[1,2],{"b":"[redacted]"}],"t":"[redacted]","s":"x"})");
    QTest::newRow("absent path") << QByteArray(R"({"data":{}})") << email << QByteArray();
    QTest::newRow("an index past the end")
        << QByteArray(R"({"e":[1]})") << QList<QByteArray> { "/e/3" } << QByteArray();
    QTest::newRow("not an index") << QByteArray(R"({"e":[1]})") << QList<QByteArray> { "/e/01" }
                                  << QByteArray();
    QTest::newRow("not JSON") << QByteArray("email=a@x.io") << QList<QByteArray> { "/email" } << QByteArray();
    QTest::newRow("truncated JSON") << QByteArray(R"({"x":"abc)") << QList<QByteArray> { "/email" }
                                    << QByteArray();
    QTest::newRow("a member without a colon")
        << QByteArray(R"({"x" 1, "email":"a"})") << QList<QByteArray> { "/email" } << QByteArray();
    QTest::newRow("empty body") << QByteArray() << email << QByteArray();
    QTest::newRow("no pointers") << QByteArray(R"({"a":1})") << QList<QByteArray> {} << QByteArray();
}

void TstRedaction::redacts()
{
    QFETCH(QByteArray, body);
    QFETCH(QList<QByteArray>, pointers);
    QFETCH(QByteArray, expected);
    const auto r = redact(body, pointers);
    if (expected.isEmpty()) {
        QVERIFY2(!r, r ? r->body.constData() : "");
        return;
    }
    QVERIFY(r);
    QCOMPARE(r->body, expected);
}

void TstRedaction::matchedPathsInConfigOrder()
{
    const QByteArray body = R"({"b":1,"a":2})";
    const auto r = redact(body, { "/a", "/missing", "/b" });
    QVERIFY(r);
    QCOMPARE(r->paths, (QStringList { QStringLiteral("/a"), QStringLiteral("/b") }));
}

// A realistic Stripe body: the copy is valid JSON, the redacted values are gone and every other
// value is unchanged.
void TstRedaction::redactedCopyParsesAndKeepsTheRest()
{
    const QByteArray body = R"({
  "id": "evt_1",
  "type": "charge.succeeded",
  "data": {
    "object": {
      "id": "ch_1",
      "amount": 2000,
      "customer_email": "ana@example.com",
      "billing_details": {"name": "Ana Lima", "phone": "+33 6 12 34 56 78", "address": {"city": "Lyon"}},
      "metadata": {"order_id": "1042"}
    }
  }
})";
    const auto r = redact(body, { "/data/object/customer_email", "/data/object/billing_details", "/nope" });
    QVERIFY(r);
    QJsonParseError error;
    const QJsonDocument doc = QJsonDocument::fromJson(r->body, &error);
    QCOMPARE(error.error, QJsonParseError::NoError);
    const QJsonObject object = doc.object()[u"data"].toObject()[u"object"].toObject();
    QCOMPARE(object[u"customer_email"].toString(), QStringLiteral("[redacted]"));
    QCOMPARE(object[u"billing_details"].toString(), QStringLiteral("[redacted]"));
    QCOMPARE(object[u"amount"].toInt(), 2000);
    QCOMPARE(object[u"metadata"].toObject()[u"order_id"].toString(), QStringLiteral("1042"));
    for (const char *gone : { "ana@example.com", "Ana Lima", "+33 6 12", "Lyon" })
        QVERIFY2(!r->body.contains(gone), gone);
    QVERIFY(r->body.startsWith("{\n  \"id\": \"evt_1\",\n"));
}

void TstRedaction::values()
{
    const QByteArray body
        = R"({"c":{"email":"ana\u0040example.com","name":"Ana","zip":69001,"tags":["vip-gold"]}})";
    QStringList v = redactedValues(body, { "/c" });
    v.sort();
    QCOMPARE(v,
        (QStringList {
            QStringLiteral("69001"), QStringLiteral("ana@example.com"), QStringLiteral("vip-gold") }));
    QCOMPARE(redactedValues(body, { "/c/name" }, 4), QStringList());
    QCOMPARE(redactedValues(body, { "/c/name" }, 3), QStringList { QStringLiteral("Ana") });
}

void TstRedaction::scrubsEchoes()
{
    const QString excerpt
        = QStringLiteral(R"x({"error":"customer ana@example.com already exists (ana@example.com)"})x");
    QCOMPARE(scrub(excerpt, { QStringLiteral("ana@example.com") }),
        QStringLiteral(R"x({"error":"customer [redacted] already exists ([redacted])"})x"));
    QCOMPARE(scrub(excerpt, {}), excerpt);
}

QTEST_GUILESS_MAIN(TstRedaction)
#include "tst_redaction.moc"
