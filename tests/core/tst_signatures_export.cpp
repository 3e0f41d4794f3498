// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#include "tst_signatures_support.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRandomGenerator>
#include <QTest>

using namespace redrive;
using namespace redrive::signatures;
using namespace sigtest;

// The outgoing direction: Redrive signs, the reference `standardwebhooks` npm package verifies.
// This test writes what signStandardWebhooks produced; tests/node/verify-standardwebhooks.mjs
// (CTest node_verify_standardwebhooks) checks each item and fails on the first it rejects.
class TstSignaturesExport : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void writesSignaturesForTheReferenceVerifier();
};

namespace {

constexpr qint64 kNow = 1'700'000'000;

QByteArray randomBytes(QRandomGenerator &rng, int size)
{
    QByteArray out(size, Qt::Uninitialized);
    for (char &c : out)
        c = static_cast<char>(rng.bounded(256));
    return out;
}

QByteArray randomToken(QRandomGenerator &rng, int size)
{
    static const char alphabet[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-";
    QByteArray out;
    for (int i = 0; i < size; ++i)
        out += alphabet[rng.bounded(int(sizeof alphabet) - 1)];
    return out;
}

// Valid UTF-8 only: the reference verifier turns the payload into a JS string before signing.
QByteArray randomBody(QRandomGenerator &rng, int index)
{
    static const QByteArray words[] = { "caf\xc3\xa9", "\xe4\xb8\xad\xe6\x96\x87", "\xf0\x9f\x98\x80", "\r\n",
        "\"quoted\"", "\\", "{", "}", "plain", "\xe2\x80\xa8", " " };
    switch (index % 6) {
    case 0:
        return {};
    case 1: {
        QByteArray out = "{\"type\":\"invoice.paid\",\"id\":\"" + randomToken(rng, 12) + "\"}";
        return out;
    }
    default: {
        // A couple of bodies near 1 MiB, the rest small.
        const int size = (index == 7 || index == 203) ? 1024 * 1024 - 64 : rng.bounded(1, 4096);
        QByteArray out;
        while (out.size() < size)
            out += words[rng.bounded(int(std::size(words)))];
        return out;
    }
    }
}

} // namespace

void TstSignaturesExport::writesSignaturesForTheReferenceVerifier()
{
    const QString path = qEnvironmentVariable("REDRIVE_SW_EXPORT");
    QVERIFY2(!path.isEmpty(), "REDRIVE_SW_EXPORT is not set (CTest sets it)");
    QRandomGenerator rng(20240601);
    QJsonArray items;
    for (int i = 0; i < 300; ++i) {
        const QByteArray key = randomBytes(rng, rng.bounded(24, 65));
        const QByteArray id = "msg_" + randomToken(rng, rng.bounded(1, 40));
        const qint64 timestamp = kNow + rng.bounded(-300, 301);
        const QByteArray body = randomBody(rng, i);
        const QByteArray signature = signStandardWebhooks(key, id, timestamp, body);
        QVERIFY(signature.startsWith("v1,"));
        QCOMPARE(signature.size(), 3 + 44);

        // Our own verifier agrees before the reference one is asked.
        const Headers headers = makeHeaders({ { "webhook-id", id },
            { "webhook-timestamp", QByteArray::number(timestamp) }, { "webhook-signature", signature } });
        const Verification v = verify(makeSource(SchemeKind::StandardWebhooks, { key }), headers, body, kNow);
        QVERIFY2(v.ok(), qPrintable(v.detail));

        items.append(QJsonObject {
            { QStringLiteral("secret"), QString::fromLatin1("whsec_" + key.toBase64()) },
            { QStringLiteral("id"), QString::fromLatin1(id) },
            { QStringLiteral("timestamp"), timestamp },
            { QStringLiteral("body_b64"), QString::fromLatin1(body.toBase64()) },
            { QStringLiteral("signature"), QString::fromLatin1(signature) },
        });
    }
    QFile file(path);
    QVERIFY2(file.open(QIODevice::WriteOnly | QIODevice::Truncate), qPrintable(file.errorString()));
    const QByteArray json
        = QJsonDocument(QJsonObject { { QStringLiteral("now"), kNow }, { QStringLiteral("items"), items } })
              .toJson(QJsonDocument::Compact);
    QCOMPARE(file.write(json), json.size());
    QVERIFY(file.flush());
}

QTEST_GUILESS_MAIN(TstSignaturesExport)
#include "tst_signatures_export.moc"
