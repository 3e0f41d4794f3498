// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#include "tst_signatures_json_cases.h"
#include "tst_signatures_support.h"

#include <QStringDecoder>
#include <QTest>

using namespace redrive;
using namespace redrive::signatures;
using namespace sigtest;

// The header parsers and the top-level JSON scanner on their own: these see hostile bytes
// first, so each rule gets a row.
class TstSignatureParsers : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void unixSeconds_data();
    void unixSeconds();
    void stripeHeader_data();
    void stripeHeader();
    void standardWebhooksList_data();
    void standardWebhooksList();
    void gitHubSignature_data();
    void gitHubSignature();
    void topLevelString_data();
    void topLevelString();
    void topLevelInteger_data();
    void topLevelInteger();
    void nestingIsBounded_data();
    void nestingIsBounded();
    void largeBodies();
};

namespace {

QByteArray hex32(char fill)
{
    return QByteArray(32, fill).toHex();
}

} // namespace

void TstSignatureParsers::unixSeconds_data()
{
    QTest::addColumn<QByteArray>("text");
    QTest::addColumn<qint64>("expected"); // -1: rejected
    QTest::newRow("zero") << QByteArray("0") << qint64(0);
    QTest::newRow("typical") << QByteArray("1614265330") << qint64(1614265330);
    QTest::newRow("leading zero") << QByteArray("01614265330") << qint64(1614265330);
    QTest::newRow("twelve digits") << QByteArray("999999999999") << qint64(999999999999);
    QTest::newRow("thirteen digits") << QByteArray("1000000000000") << qint64(-1);
    QTest::newRow("twenty digits") << QByteArray("12345678901234567890") << qint64(-1);
    QTest::newRow("empty") << QByteArray() << qint64(-1);
    QTest::newRow("negative") << QByteArray("-1") << qint64(-1);
    QTest::newRow("plus") << QByteArray("+1") << qint64(-1);
    QTest::newRow("leading space") << QByteArray(" 1") << qint64(-1);
    QTest::newRow("trailing space") << QByteArray("1 ") << qint64(-1);
    QTest::newRow("trailing letter") << QByteArray("1a") << qint64(-1);
    QTest::newRow("fraction") << QByteArray("1.0") << qint64(-1);
    QTest::newRow("arabic-indic digit") << QByteArray("\xd9\xa3") << qint64(-1);
    QTest::newRow("NUL") << QByteArray("1\0"
                                       "2",
        3) << qint64(-1);
}

void TstSignatureParsers::unixSeconds()
{
    QFETCH(QByteArray, text);
    QFETCH(qint64, expected);
    QCOMPARE(parseUnixSeconds(text).value_or(-1), expected);
}

void TstSignatureParsers::stripeHeader_data()
{
    QTest::addColumn<QByteArray>("header");
    QTest::addColumn<qint64>("timestamp"); // -1: nullopt expected
    QTest::addColumn<QList<QByteArray>>("v1");
    const QByteArray a = hex32('\xaa');
    const QByteArray b = hex32('\xbb');
    const QByteArray kat = QByteArray::fromHex(kStripeHeader.sliced(16));
    QTest::newRow("stripe package header") << kStripeHeader << kStripeTimestamp << QList<QByteArray> { kat };
    QTest::newRow("two v1 in order") << QByteArray("t=5,v1=" + a + ",v1=" + b) << qint64(5)
                                     << QList<QByteArray> { QByteArray(32, '\xaa'), QByteArray(32, '\xbb') };
    QTest::newRow("t after the signatures")
        << QByteArray("v1=" + a + ",t=7") << qint64(7) << QList<QByteArray> { QByteArray(32, '\xaa') };
    QTest::newRow("v0 and unknown keys ignored") << QByteArray("t=5,v0=" + b + ",x=1,=,,v1=" + a) << qint64(5)
                                                 << QList<QByteArray> { QByteArray(32, '\xaa') };
    QTest::newRow("upper-case hex") << QByteArray("t=5,v1=" + a.toUpper()) << qint64(5)
                                    << QList<QByteArray> { QByteArray(32, '\xaa') };
    QTest::newRow("malformed v1 skipped")
        << QByteArray("t=5,v1=zz" + a.sliced(2) + ",v1=" + b + ",v1=" + a.chopped(2)) << qint64(5)
        << QList<QByteArray> { QByteArray(32, '\xbb') };
    QTest::newRow("trailing comma") << QByteArray("t=5,v1=" + a + ",") << qint64(5)
                                    << QList<QByteArray> { QByteArray(32, '\xaa') };
    QTest::newRow("no v1") << QByteArray("t=5,v0=" + a) << qint64(-1) << QList<QByteArray> {};
    QTest::newRow("only malformed v1") << QByteArray("t=5,v1=abc") << qint64(-1) << QList<QByteArray> {};
    QTest::newRow("no t") << QByteArray("v1=" + a) << qint64(-1) << QList<QByteArray> {};
    QTest::newRow("t twice") << QByteArray("t=5,t=5,v1=" + a) << qint64(-1) << QList<QByteArray> {};
    QTest::newRow("t without value") << QByteArray("t,v1=" + a) << qint64(-1) << QList<QByteArray> {};
    QTest::newRow("t not numeric") << QByteArray("t=now,v1=" + a) << qint64(-1) << QList<QByteArray> {};
    QTest::newRow("space before key") << QByteArray("t=5, v1=" + a) << qint64(-1) << QList<QByteArray> {};
    QTest::newRow("empty") << QByteArray() << qint64(-1) << QList<QByteArray> {};
    QByteArray many = "t=9";
    for (int i = 0; i < 40; ++i)
        many += ",v1=" + a;
    QTest::newRow("at most 32 v1 kept") << many << qint64(9) << QList<QByteArray>(32, QByteArray(32, '\xaa'));
}

void TstSignatureParsers::stripeHeader()
{
    QFETCH(QByteArray, header);
    QFETCH(qint64, timestamp);
    QFETCH(QList<QByteArray>, v1);
    const auto parsed = parseStripeSignatureHeader(header);
    QCOMPARE(parsed.has_value(), timestamp >= 0);
    if (parsed) {
        QCOMPARE(parsed->timestamp, timestamp);
        QCOMPARE(parsed->v1, v1);
    }
}

void TstSignatureParsers::standardWebhooksList_data()
{
    QTest::addColumn<QByteArray>("header");
    QTest::addColumn<QList<QByteArray>>("macs");
    const QByteArray kat = QByteArray::fromBase64(kSwSignature.sliced(3));
    const QByteArray other = QByteArray(32, '\x11');
    const QByteArray otherB64 = other.toBase64();
    QTest::newRow("published vector") << kSwSignature << QList<QByteArray> { kat };
    QTest::newRow("two, in order") << QByteArray("v1," + otherB64 + " " + kSwSignature)
                                   << QList<QByteArray> { other, kat };
    QTest::newRow("extra spaces") << QByteArray("  v1," + otherB64 + "   " + kSwSignature + " ")
                                  << QList<QByteArray> { other, kat };
    QTest::newRow("v1a and v2 skipped")
        << QByteArray("v1a," + otherB64 + " v2," + otherB64 + " " + kSwSignature)
        << QList<QByteArray> { kat };
    QTest::newRow("undecodable skipped")
        << QByteArray("v1,!!!! v1," + otherB64.chopped(4) + " " + kSwSignature) << QList<QByteArray> { kat };
    QTest::newRow("no comma") << QByteArray("v1") << QList<QByteArray> {};
    QTest::newRow("empty value") << QByteArray("v1,") << QList<QByteArray> {};
    QTest::newRow("comma-separated is one entry")
        << QByteArray("v1," + otherB64 + "," + kSwSignature) << QList<QByteArray> {};
    QTest::newRow("tab is not a separator")
        << QByteArray("v1," + otherB64 + "\t" + kSwSignature) << QList<QByteArray> {};
    QTest::newRow("empty") << QByteArray() << QList<QByteArray> {};
    QByteArray many;
    for (int i = 0; i < 40; ++i)
        many += "v1," + otherB64 + " ";
    QTest::newRow("at most 32 entries") << many << QList<QByteArray>(32, other);
}

void TstSignatureParsers::standardWebhooksList()
{
    QFETCH(QByteArray, header);
    QFETCH(QList<QByteArray>, macs);
    QCOMPARE(parseStandardWebhooksSignatures(header), macs);
}

void TstSignatureParsers::gitHubSignature_data()
{
    QTest::addColumn<QByteArray>("header");
    QTest::addColumn<QByteArray>("mac"); // empty: nullopt expected
    QTest::newRow("documented example") << kGhSignature << QByteArray::fromHex(kGhSignature.sliced(7));
    QTest::newRow("upper-case hex") << QByteArray("sha256=" + hex32('\xab').toUpper())
                                    << QByteArray(32, '\xab');
    QTest::newRow("upper-case prefix") << QByteArray("SHA256=" + hex32('\xab')) << QByteArray();
    QTest::newRow("sha1") << QByteArray("sha1=0123456789012345678901234567890123456789") << QByteArray();
    QTest::newRow("one digit short") << kGhSignature.chopped(1) << QByteArray();
    QTest::newRow("one digit long") << QByteArray(kGhSignature + "0") << QByteArray();
    QTest::newRow("trailing space") << QByteArray(kGhSignature + " ") << QByteArray();
    QTest::newRow("non-hex digit") << QByteArray(kGhSignature.chopped(1) + "g") << QByteArray();
    QTest::newRow("no prefix") << QByteArray(kGhSignature.sliced(7) + "1234567") << QByteArray();
    QTest::newRow("empty") << QByteArray() << QByteArray();
}

void TstSignatureParsers::gitHubSignature()
{
    QFETCH(QByteArray, header);
    QFETCH(QByteArray, mac);
    const auto parsed = parseGitHubSignature(header);
    QCOMPARE(parsed.has_value(), !mac.isEmpty());
    if (parsed)
        QCOMPARE(*parsed, mac);
}

void TstSignatureParsers::topLevelString_data()
{
    QTest::addColumn<QByteArray>("json");
    QTest::addColumn<QByteArray>("key");
    QTest::addColumn<bool>("found");
    QTest::addColumn<QString>("expected");
    for (const auto &c : kJsonStringCases) {
        QTest::newRow(c.name) << QByteArray(c.json) << QByteArray(c.key) << (c.expected != nullptr)
                              << (c.expected ? QStringDecoder(
                                      QStringDecoder::Utf8, QStringDecoder::Flag::ConvertInitialBom)
                                                   .decode(QByteArrayView(c.expected))
                                             : QString());
    }
}

void TstSignatureParsers::topLevelString()
{
    QFETCH(QByteArray, json);
    QFETCH(QByteArray, key);
    QFETCH(bool, found);
    QFETCH(QString, expected);
    const auto value = topLevelJsonString(json, key);
    QCOMPARE(value.has_value(), found);
    if (value)
        QCOMPARE(*value, expected);
}

void TstSignatureParsers::topLevelInteger_data()
{
    QTest::addColumn<QByteArray>("json");
    QTest::addColumn<bool>("found");
    QTest::addColumn<qint64>("expected");
    for (const auto &c : kJsonIntegerCases)
        QTest::newRow(c.name) << QByteArray(c.json) << c.found << qint64(c.expected);
}

void TstSignatureParsers::topLevelInteger()
{
    QFETCH(QByteArray, json);
    QFETCH(bool, found);
    QFETCH(qint64, expected);
    const auto value = topLevelJsonInteger(json, "created");
    QCOMPARE(value.has_value(), found);
    if (value)
        QCOMPARE(*value, expected);
}

void TstSignatureParsers::nestingIsBounded_data()
{
    QTest::addColumn<int>("depth");
    QTest::addColumn<bool>("found");
    QTest::newRow("500 levels") << 500 << true;
    QTest::newRow("511 levels, the limit") << 511 << true;
    QTest::newRow("512 levels") << 512 << false;
    QTest::newRow("100000 levels") << 100'000 << false;
}

void TstSignatureParsers::nestingIsBounded()
{
    QFETCH(int, depth);
    QFETCH(bool, found);
    // {"x":[[[...{"y":1}...]]],"id":"deep"}: `depth` containers below the root object.
    QByteArray json = "{\"x\":";
    for (int i = 0; i < depth - 1; ++i)
        json += (i % 2 == 0) ? "[" : "{\"k\":";
    json += "{\"y\":1}";
    for (int i = depth - 2; i >= 0; --i)
        json += (i % 2 == 0) ? "]" : "}";
    json += ",\"id\":\"deep\"}";
    QCOMPARE(topLevelJsonString(json, "id").has_value(), found);
    // Unbalanced hostile nesting is refused without exhausting anything.
    QVERIFY(!topLevelJsonString(QByteArray(depth, '['), "id"));
}

void TstSignatureParsers::largeBodies()
{
    // One MiB of nested data with the member last: found, and the scan stays linear.
    QByteArray json = "{\"data\":[";
    while (json.size() < 1024 * 1024)
        json += "{\"id\":\"inner\",\"s\":\"\\\"quoted\\\" \\u00e9\",\"n\":[1,2.5,-3e2,true,null]},";
    json.chop(1);
    json += "],\"type\":\"bulk\",\"id\":\"evt_big\",\"created\":1700000000}";
    QCOMPARE(topLevelJsonString(json, "id").value_or(QString()), QStringLiteral("evt_big"));
    QCOMPARE(topLevelJsonString(json, "type").value_or(QString()), QStringLiteral("bulk"));
    QCOMPARE(topLevelJsonInteger(json, "created").value_or(0), qint64(1'700'000'000));
    json.chop(1);
    QVERIFY(!topLevelJsonString(json, "id"));
}

QTEST_GUILESS_MAIN(TstSignatureParsers)
#include "tst_signatures_parsers.moc"
