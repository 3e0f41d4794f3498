// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#include "crypto/crypto.h"
#include "deliveryrules/outgoingheaders.h"
#include "deliveryrules/responsecapture.h"

#include <QTest>

using namespace redrive;
using namespace redrive::delivery;

class TstResponseCapture final : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void excerptIsBoundedValidUtf8()
    {
        const QByteArray body = QString(QStringLiteral("\u00e9")).repeated(5000).toUtf8(); // 2 bytes each
        const QString excerpt = responseExcerpt(body, 4095);
        QCOMPARE(excerpt.toUtf8().size(), 4094); // cut before the split character
        QCOMPARE(excerpt.toUtf8(), body.left(4094));
        QCOMPARE(responseExcerpt("short", 4096), QStringLiteral("short"));
        QCOMPARE(responseExcerpt("short", 0), QString());
    }

    void invalidUtf8BecomesReplacement()
    {
        const QByteArray body("ok\xff\xfe end", 8);
        const QString excerpt = responseExcerpt(body, 100);
        QVERIFY(excerpt.startsWith(QStringLiteral("ok")));
        QVERIFY(excerpt.contains(QChar(0xFFFD)));
        QVERIFY(excerpt.endsWith(QStringLiteral(" end")));
        // Still bounded in bytes after replacement (U+FFFD is 3 bytes).
        const QByteArray bad(100, '\xff');
        QVERIFY(responseExcerpt(bad, 10).toUtf8().size() <= 10);
    }

    void jsonSecretsAreRedacted()
    {
        const QByteArray body
            = "{\"id\":\"ord_1\",\"access_token\":\"abc123\",\"nested\":{\"password\":\"pw\",\"ok\":1},\"list\":[{\"secret\":\"s\"}]}";
        const QString excerpt = responseExcerpt(body, 4096);
        QVERIFY(!excerpt.contains(QStringLiteral("abc123")));
        QVERIFY(!excerpt.contains(QStringLiteral("\"pw\"")));
        QVERIFY(!excerpt.contains(QStringLiteral("\"s\"")));
        QVERIFY(excerpt.contains(QStringLiteral("ord_1")));
        QCOMPARE(excerpt.count(QStringLiteral("[redacted]")), 3);
        // A body without secrets is kept byte for byte.
        const QByteArray plain = "{ \"id\": \"x\" }";
        QCOMPARE(responseExcerpt(plain, 4096), QString::fromUtf8(plain));
    }

    void selectedHeaders()
    {
        Headers h;
        h.add("Content-Type", "application/json");
        h.add("Set-Cookie", "session=abc");
        h.add("X-Request-Id", "req-9");
        h.add("X-Ref", "ref-1");
        h.add("X-Other", "dropped");
        h.add("Retry-After", "30");
        const Headers kept = selectResponseHeaders(h, "x-ref");
        QCOMPARE(kept.value("Content-Type"), QByteArrayView("application/json"));
        QCOMPARE(kept.value("X-Request-Id"), QByteArrayView("req-9"));
        QCOMPARE(kept.value("X-Ref"), QByteArrayView("ref-1"));
        QCOMPARE(kept.value("Retry-After"), QByteArrayView("30"));
        QVERIFY(!kept.contains("X-Other"));
        QVERIFY(!kept.contains("Set-Cookie"));
        QVERIFY(!kept.toJson().contains("abc"));
    }

    void downstreamRef()
    {
        Headers h;
        h.add("X-Ref", " ref-77 ");
        QCOMPARE(downstreamReference({ SuccessRef::Kind::Header, QStringLiteral("x-ref") }, h, {}),
            QStringLiteral("ref-77"));
        QVERIFY(!downstreamReference({ SuccessRef::Kind::Header, QStringLiteral("X-Missing") }, h, {}));
        const QByteArray body = "{\"data\":{\"id\":12345,\"name\":\"n\"}}";
        QCOMPARE(downstreamReference({ SuccessRef::Kind::JsonPointer, QStringLiteral("/data/id") }, {}, body),
            QStringLiteral("12345"));
        QVERIFY(!downstreamReference(
            { SuccessRef::Kind::JsonPointer, QStringLiteral("/data") }, {}, body)); // object
        QVERIFY(!downstreamReference({ SuccessRef::Kind::JsonPointer, QStringLiteral("/nope") }, {}, body));
        QVERIFY(
            !downstreamReference({ SuccessRef::Kind::JsonPointer, QStringLiteral("/id") }, {}, "not json"));
        QVERIFY(!downstreamReference({}, h, body));
    }

    void orderingKey()
    {
        DestinationConfig d;
        QVERIFY(!orderingKeyFor(d, "{\"customer\":{\"id\":\"c1\"}}"));
        d.orderingKeyPointer = QStringLiteral("/customer/id");
        QCOMPARE(orderingKeyFor(d, "{\"customer\":{\"id\":\"c1\"}}"), QStringLiteral("c1"));
        QCOMPARE(orderingKeyFor(d, "{\"customer\":{\"id\":7}}"), QStringLiteral("7"));
        QVERIFY(!orderingKeyFor(d, "{\"customer\":{}}"));
        QVERIFY(!orderingKeyFor(d, "garbage"));
    }

    void outgoingHeadersAndSignature()
    {
        OutgoingMessage m;
        m.idempotencyKey = "idem_1_fulfillment";
        m.contentType = "application/json; charset=utf-8";
        const QByteArray body = "{\"id\":\"evt_1\"}";
        m.body = body;
        m.timestampSeconds = 1'700'000'000;
        m.signingSecret = Secret { QStringLiteral("env:X"), QByteArray("0123456789abcdef0123456789abcdef") };
        m.deliveryId = 9;
        m.attemptNumber = 3;
        const Headers h = composeOutgoingHeaders(m);
        QCOMPARE(h.value("Content-Type"), QByteArrayView("application/json; charset=utf-8"));
        QCOMPARE(h.value("Idempotency-Key"), QByteArrayView("idem_1_fulfillment"));
        QCOMPARE(h.value("webhook-id"), QByteArrayView("idem_1_fulfillment"));
        QCOMPARE(h.value("webhook-timestamp"), QByteArrayView("1700000000"));
        QCOMPARE(h.value("X-Redrive-Attempt"), QByteArrayView("3"));
        // Standard Webhooks: v1,<base64 HMAC-SHA256(key, id.timestamp.body)>, computed independently here.
        const QByteArray expected = "v1,"
            + crypto::hmacSha256(m.signingSecret->key, { m.idempotencyKey, ".", "1700000000", ".", body })
                  .toBase64();
        QCOMPARE(h.value("webhook-signature"), QByteArrayView(expected));

        m.signingSecret.reset();
        m.contentType.clear();
        const Headers unsigned_ = composeOutgoingHeaders(m);
        QVERIFY(!unsigned_.contains("webhook-signature"));
        QVERIFY(!unsigned_.contains("Content-Type"));
        QVERIFY(unsigned_.contains("webhook-timestamp"));

        // Stored values cannot smuggle header lines.
        m.contentType = "text/plain\r\nX-Injected: 1";
        m.idempotencyKey = "key\r\nX-Injected: 2";
        const Headers injected = composeOutgoingHeaders(m);
        QVERIFY(!injected.contains("Content-Type"));
        for (const auto &[name, value] : injected.fields()) {
            QVERIFY2(!value.contains('\r') && !value.contains('\n'), name.constData());
        }
        QCOMPARE(injected.value("webhook-id"), injected.value("Idempotency-Key"));
    }
};

QTEST_GUILESS_MAIN(TstResponseCapture)
#include "tst_responsecapture.moc"
