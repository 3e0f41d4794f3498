// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
// Schema validation through the whole ingest path on SQLite and PostgreSQL: a body that fails
// its source's JSON Schema is quarantined (200, stored and deduplicated, status invalid, no
// deliveries, its errors with JSON pointers) or refused (422 invalid_payload, kept as a
// rejection), as the rule says; other types and valid bodies are routed as before.

#include "ingestfixture.h"
#include "ingestharness.h"
#include "storage/eventvalidation.h"
#include "validation/schemavalidator.h"

#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QTest>

using namespace redrive;
using namespace redrive::test;

namespace {

const QByteArray kInvoiceSchema = R"({
  "type": "object",
  "required": ["id", "amount"],
  "properties": { "id": {"type": "string"}, "amount": {"type": "integer", "minimum": 0} }
})";

const QByteArray kOrderSchema = R"({"type": "object", "required": ["order_id"]})";

QByteArray sourcesToml(const QString &dir)
{
    return R"(
[[sources]]
name = "inv"
scheme = "github"
secrets = ["It is a Secret to Everybody"]
[[sources.schemas]]
event_types = ["invoice.*"]
schema = ")"
        + dir.toUtf8() + R"(/invoice.json"
[[sources.schemas]]
event_types = ["order.*"]
schema = ")"
        + dir.toUtf8() + R"(/order.json"
on_invalid = "reject"

[[routes]]
source = "inv"
destinations = ["crm"]
)";
}

} // namespace

class TstValidation final : public QObject {
    Q_OBJECT

private:
    QTemporaryDir m_dir;
    std::unique_ptr<IngestHarness> h;

    std::optional<RawResponse> post(
        const QByteArray &delivery, const QByteArray &type, const QByteArray &body)
    {
        return h->post("inv", signGitHub(kGitHubSecret, body, delivery, type), body);
    }
    qint64 eventId(const QString &providerId)
    {
        return h
            ->scalar(QStringLiteral("SELECT id FROM events WHERE source = 'inv' AND provider_event_id = ?"),
                { providerId })
            .toLongLong();
    }
    QString statusOf(qint64 id)
    {
        return h->scalar(QStringLiteral("SELECT status FROM event_status WHERE event_id = ?"), { id })
            .toString();
    }
    qint64 deliveriesOf(qint64 id)
    {
        return h->scalar(QStringLiteral("SELECT COUNT(*) FROM deliveries WHERE event_id = ?"), { id })
            .toLongLong();
    }

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY(m_dir.isValid());
        for (const auto &[name, content] :
            { std::pair { "invoice.json", kInvoiceSchema }, std::pair { "order.json", kOrderSchema } }) {
            QFile f(m_dir.filePath(QLatin1String(name)));
            QVERIFY(f.open(QIODevice::WriteOnly));
            f.write(content);
        }
    }
    void init()
    {
        QString error;
        h = IngestHarness::create({}, &error, sourcesToml(m_dir.path()));
        QVERIFY2(h, qPrintable(error));
    }
    void cleanup() { h.reset(); }

    void invalidEventIsQuarantined()
    {
        const QByteArray body = R"({"id":"in_1","amount":-5,"brand_new_field":true})";
        const auto r = post("d-1", "invoice.paid", body);
        QVERIFY(r);
        QCOMPARE(r->status, 200); // acknowledged: the provider must not retry
        QCOMPARE(
            QJsonDocument::fromJson(r->body).object().value(QLatin1String("duplicate")).toBool(true), false);
        const qint64 id = eventId(QStringLiteral("d-1"));
        QVERIFY(id > 0);
        QCOMPARE(statusOf(id), QStringLiteral("invalid"));
        QCOMPARE(deliveriesOf(id), 0);
        const auto stored = fetchValidationErrors(*h->reader, id);
        QVERIFY2(stored && stored->has_value(), qPrintable(stored.error()));
        const auto errors = validation::validationErrorsFromJson(**stored);
        QVERIFY(!errors.isEmpty());
        QVERIFY(errors.size() <= validation::kMaxValidationErrors);
        bool amount = false;
        for (const auto &e : errors)
            amount = amount || e.pointer == u"/amount";
        QVERIFY2(amount, stored->value().constData());
        QCOMPARE(h->metric("redrive_ingest_invalid_total{source=\"inv\"}"), 1.0);

        // The provider's retry is a duplicate like any other: counted, not stored twice, no deliveries.
        const auto again = post("d-1", "invoice.paid", body);
        QVERIFY(again);
        QCOMPARE(again->status, 200);
        QCOMPARE(
            QJsonDocument::fromJson(again->body).object().value(QLatin1String("duplicate")).toBool(), true);
        QCOMPARE(h->scalar(QStringLiteral("SELECT COUNT(*) FROM events WHERE source = 'inv'")).toInt(), 1);
        QCOMPARE(h->scalar(QStringLiteral("SELECT seen_count FROM events WHERE id = ?"), { id }).toInt(), 2);
        QCOMPARE(h->scalar(QStringLiteral("SELECT COUNT(*) FROM event_validation")).toInt(), 1);
        QCOMPARE(deliveriesOf(id), 0);
        QCOMPARE(statusOf(id), QStringLiteral("invalid"));
    }

    void validAndUncheckedEventsAreRouted()
    {
        // Unknown extra fields never fail a schema that does not forbid them.
        const auto valid = post("d-2", "invoice.paid", R"({"id":"in_2","amount":5,"extra":{"a":[1]}})");
        QVERIFY(valid);
        QCOMPARE(valid->status, 200);
        const qint64 id = eventId(QStringLiteral("d-2"));
        QCOMPARE(statusOf(id), QStringLiteral("pending"));
        QCOMPARE(deliveriesOf(id), 1);
        // No rule for this type: not validated, even a body no schema would accept.
        const auto unchecked = post("d-3", "customer.created", R"(["not", "an", "object"])");
        QVERIFY(unchecked);
        QCOMPARE(unchecked->status, 200);
        QCOMPARE(deliveriesOf(eventId(QStringLiteral("d-3"))), 1);
        QCOMPARE(h->scalar(QStringLiteral("SELECT COUNT(*) FROM event_validation")).toInt(), 0);
        QCOMPARE(h->metric("redrive_ingest_invalid_total{source=\"inv\"}"), 0.0);
    }

    void rejectAnswers422AndKeepsARejection()
    {
        const auto r = post("d-4", "order.created", R"({"id":"o_1"})");
        QVERIFY(r);
        QCOMPARE(r->status, 422);
        QCOMPARE(QJsonDocument::fromJson(r->body).object().value(QLatin1String("error")).toString(),
            QStringLiteral("invalid_payload"));
        QCOMPARE(eventId(QStringLiteral("d-4")), 0); // not stored
        QTRY_COMPARE(
            h->scalar(QStringLiteral("SELECT COUNT(*) FROM rejections WHERE reason = 'invalid_payload'"))
                .toInt(),
            1);
        const QVariantMap row = h->row(QStringLiteral("SELECT source, status_code, detail FROM rejections"));
        QCOMPARE(row.value(QStringLiteral("source")).toString(), QStringLiteral("inv"));
        QCOMPARE(row.value(QStringLiteral("status_code")).toInt(), 422);
        QVERIFY2(row.value(QStringLiteral("detail")).toString().contains(QLatin1String("order_id")),
            qPrintable(row.value(QStringLiteral("detail")).toString()));
        QCOMPARE(h->metric("redrive_ingest_rejected_total{reason=\"invalid_payload\"}"), 1.0);
        QCOMPARE(h->metric("redrive_ingest_invalid_total{source=\"inv\"}"), 1.0);
    }
};

QTEST_GUILESS_MAIN(TstValidation)
#include "tst_validation.moc"
