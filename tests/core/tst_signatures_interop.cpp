// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#include "tst_signatures_support.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QSet>
#include <QTest>

using namespace redrive;
using namespace redrive::signatures;
using namespace sigtest;

// Requests signed by the providers' own npm packages (tests/node/generate-vectors.mjs, run by
// the node_generate_vectors fixture), with the configuration that should accept them. Every
// one must verify with the expected id, type and secret, and a one-byte change to any of them
// must not.
class TstSignaturesInterop : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase();
    void acceptsEveryIndependentlySignedRequest_data() { addRows(); }
    void acceptsEveryIndependentlySignedRequest();
    void rejectsEveryOneByteChange_data() { addRows(); }
    void rejectsEveryOneByteChange();

private:
    void addRows() const;
    struct Loaded {
        const SourceConfig *source = nullptr;
        Headers headers;
        QByteArray body;
        QJsonObject expect;
    };
    [[nodiscard]] Loaded load(int index) const;

    std::optional<Config> m_config;
    QJsonArray m_requests;
    qint64 m_now = 0;
};

void TstSignaturesInterop::initTestCase()
{
    const QString path = qEnvironmentVariable("REDRIVE_SIGNED_REQUESTS");
    QVERIFY2(!path.isEmpty(), "REDRIVE_SIGNED_REQUESTS is not set (CTest sets it)");
    QFile file(path);
    QVERIFY2(file.open(QIODevice::ReadOnly), qPrintable(path + QStringLiteral(": ") + file.errorString()));
    QJsonParseError error;
    const QJsonObject root = QJsonDocument::fromJson(file.readAll(), &error).object();
    QVERIFY2(error.error == QJsonParseError::NoError, qPrintable(error.errorString()));
    m_now = root.value(u"now").toInteger();
    m_requests = root.value(u"requests").toArray();
    QVERIFY2(m_requests.size() >= 1000, "the generator must produce at least 1,000 requests");

    // The secrets go through the real configuration path ("whsec_" decoding included).
    ConfigError configError;
    m_config = parseConfig(
        root.value(u"config").toString().toUtf8(), QStringLiteral("interop.toml"), &configError);
    QVERIFY2(m_config, qPrintable(configError.toString()));

    // Every scheme is represented, and so are the body kinds the generator promises.
    QSet<SchemeKind> schemes;
    bool empty = false, large = false, crlf = false, nonAscii = false;
    for (int i = 0; i < m_requests.size(); ++i) {
        const Loaded r = load(i);
        QVERIFY2(r.source, "a request names an unknown source");
        schemes.insert(r.source->scheme);
        empty |= r.body.isEmpty();
        large |= r.body.size() > 512 * 1024;
        crlf |= r.body.contains("\r\n");
        nonAscii |= r.body.contains("\xf0\x9f"); // an emoji's first UTF-8 bytes
    }
    QCOMPARE(schemes.size(), 5);
    QVERIFY(empty && large && crlf && nonAscii);
}

void TstSignaturesInterop::addRows() const
{
    QTest::addColumn<int>("index");
    for (int i = 0; i < m_requests.size(); ++i) {
        const QByteArray source = m_requests[i].toObject().value(u"source").toString().toUtf8();
        QTest::addRow("%s #%d", source.constData(), i) << i;
    }
}

TstSignaturesInterop::Loaded TstSignaturesInterop::load(int index) const
{
    const QJsonObject request = m_requests[index].toObject();
    Loaded out;
    out.source = m_config ? m_config->source(request.value(u"source").toString()) : nullptr;
    for (const QJsonValue &pair : request.value(u"headers").toArray()) {
        const QJsonArray field = pair.toArray();
        out.headers.add(field[0].toString().toUtf8(), field[1].toString().toUtf8());
    }
    out.body = QByteArray::fromBase64(request.value(u"body_b64").toString().toLatin1());
    out.expect = request.value(u"expect").toObject();
    return out;
}

void TstSignaturesInterop::acceptsEveryIndependentlySignedRequest()
{
    QFETCH(int, index);
    const Loaded r = load(index);
    QVERIFY(r.source);
    const Verification v = verify(*r.source, r.headers, r.body, m_now);
    QVERIFY2(v.ok(), qPrintable(v.reason + QStringLiteral(": ") + v.detail));
    QCOMPARE(v.providerEventId, r.expect.value(u"id").toString());
    QCOMPARE(v.eventType, r.expect.value(u"type").toString());
    QCOMPARE(v.weakId, r.expect.value(u"weak").toBool());
    QCOMPARE(v.secretIndex, r.expect.value(u"secret_index").toInt());
    QCOMPARE(v.secretLabel, r.source->secrets[v.secretIndex].label);
    if (r.expect.contains(u"occurred_at_ms"))
        QCOMPARE(v.occurredAtMs.value_or(-1), r.expect.value(u"occurred_at_ms").toInteger());
}

void TstSignaturesInterop::rejectsEveryOneByteChange()
{
    QFETCH(int, index);
    Loaded r = load(index);
    QVERIFY(r.source);
    if (r.body.isEmpty()) {
        r.body = "x";
    } else {
        // A position spread over the body, so large bodies are changed far from the start too.
        const qsizetype at
            = static_cast<qsizetype>((quint64(index) * 2654435761ULL) % quint64(r.body.size()));
        r.body[at] = static_cast<char>(r.body[at] ^ 0x20);
    }
    const Verification v = verify(*r.source, r.headers, r.body, m_now);
    QVERIFY2(v.verdict == Verdict::BadSignature, qPrintable(v.reason));
}

QTEST_GUILESS_MAIN(TstSignaturesInterop)
#include "tst_signatures_interop.moc"
