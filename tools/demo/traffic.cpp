// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
//
// redrive-demo-traffic: sends a live stream of realistic, correctly signed webhooks to a
// redrived ingest endpoint, with the messiness of real providers mixed in: redeliveries of
// events already sent (duplicates), late deliveries (stale timestamps) and requests signed with a
// secret the receiver no longer has (a rotation the provider finished before you did).
//
// Secrets come from the environment, as the receiver's do: DEMO_GITHUB_SECRET,
// DEMO_STRIPE_SECRET, DEMO_SHOPIFY_SECRET, DEMO_ACCOUNTS_SECRET (whsec_…).
#include "crypto/crypto.h"
#include "payloads.h"

#include <QCommandLineParser>
#include <QCoreApplication>
#include <QDateTime>
#include <QNetworkAccessManager>
#include <QNetworkReply>
#include <QNetworkRequest>
#include <QTimer>

#include <cstdio>
#include <deque>

using namespace redrive;

namespace {

struct Secrets {
    QByteArray github, stripe, shopify, accounts;
};

QByteArray requireEnv(const char *name)
{
    const QByteArray v = qgetenv(name);
    if (v.isEmpty()) {
        std::fprintf(stderr, "redrive-demo-traffic: environment variable %s is not set\n", name);
        std::exit(2);
    }
    return v;
}

void sign(demo::DemoEvent &e, const Secrets &s, qint64 ts, bool wrongSecret)
{
    const QByteArray junk = "not-the-configured-secret";
    if (e.scheme == u"github") {
        const QByteArray mac = crypto::hmacSha256(wrongSecret ? junk : s.github, e.body);
        e.headers.append({ "X-Hub-Signature-256", "sha256=" + mac.toHex() });
    } else if (e.scheme == u"stripe") {
        const QByteArray t = QByteArray::number(ts);
        const QByteArray mac = crypto::hmacSha256(wrongSecret ? junk : s.stripe, { t, ".", e.body });
        e.headers.append({ "Stripe-Signature", "t=" + t + ",v1=" + mac.toHex() });
    } else if (e.scheme == u"shopify") {
        const QByteArray mac = crypto::hmacSha256(wrongSecret ? junk : s.shopify, e.body);
        e.headers.append({ "X-Shopify-Hmac-Sha256", mac.toBase64() });
    } else {
        const QByteArray key
            = crypto::decodeBase64(QByteArrayView(s.accounts).sliced(6)).value_or(QByteArray());
        const QByteArray t = QByteArray::number(ts);
        const QByteArray mac = crypto::hmacSha256(wrongSecret ? junk : key, { e.id, ".", t, ".", e.body });
        e.headers.append({ "webhook-id", e.id });
        e.headers.append({ "webhook-timestamp", t });
        e.headers.append({ "webhook-signature", "v1," + mac.toBase64() });
    }
}

} // namespace

int main(int argc, char **argv)
{
    QCoreApplication app(argc, argv);
    QCoreApplication::setApplicationName(QStringLiteral("redrive-demo-traffic"));
    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral("Sends realistic signed webhooks to redrived."));
    parser.addHelpOption();
    QCommandLineOption urlOpt(QStringLiteral("url"), QStringLiteral("Ingest base URL."),
        QStringLiteral("url"), QStringLiteral("http://127.0.0.1:8080"));
    QCommandLineOption rateOpt(QStringLiteral("rate"), QStringLiteral("Events per second."),
        QStringLiteral("n"), QStringLiteral("4"));
    QCommandLineOption countOpt(QStringLiteral("count"),
        QStringLiteral("Stop after this many requests (0 = run until stopped)."), QStringLiteral("n"),
        QStringLiteral("0"));
    QCommandLineOption seedOpt(
        QStringLiteral("seed"), QStringLiteral("Random seed."), QStringLiteral("n"), QStringLiteral("0"));
    parser.addOptions({ urlOpt, rateOpt, countOpt, seedOpt });
    parser.process(app);

    bool ok = false;
    const double rate = parser.value(rateOpt).toDouble(&ok);
    if (!ok || rate <= 0 || rate > 10'000) {
        std::fprintf(stderr, "redrive-demo-traffic: --rate must be a number between 0 and 10000\n");
        return 2;
    }
    const qint64 maxCount = parser.value(countOpt).toLongLong(&ok);
    if (!ok || maxCount < 0) {
        std::fprintf(stderr, "redrive-demo-traffic: --count must be a non-negative integer\n");
        return 2;
    }
    const QUrl base(parser.value(urlOpt));
    if (!base.isValid() || (base.scheme() != u"http" && base.scheme() != u"https")) {
        std::fprintf(stderr, "redrive-demo-traffic: --url must be an http(s) URL\n");
        return 2;
    }
    const Secrets secrets { requireEnv("DEMO_GITHUB_SECRET"), requireEnv("DEMO_STRIPE_SECRET"),
        requireEnv("DEMO_SHOPIFY_SECRET"), requireEnv("DEMO_ACCOUNTS_SECRET") };
    const quint32 seed = parser.value(seedOpt).toUInt();
    QRandomGenerator rng = seed ? QRandomGenerator(seed) : QRandomGenerator::securelySeeded();

    QNetworkAccessManager nam;
    std::deque<demo::DemoEvent> recent; // kept for redeliveries
    qint64 sent = 0, okCount = 0, duplicates = 0, rejected = 0, failed = 0;

    auto post = [&](const demo::DemoEvent &e) {
        QUrl url = base;
        url.setPath(QStringLiteral("/hooks/") + e.source);
        QNetworkRequest request(url);
        for (const auto &[name, value] : e.headers)
            request.setRawHeader(name, value);
        request.setTransferTimeout(15'000);
        QNetworkReply *reply = nam.post(request, e.body);
        ++sent;
        QObject::connect(reply, &QNetworkReply::finished, reply, [&, reply] {
            const int status = reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt();
            const QByteArray answer = reply->readAll();
            if (status == 200 && answer.contains("\"duplicate\":true"))
                ++duplicates;
            else if (status == 200)
                ++okCount;
            else if (status >= 400 && status < 500)
                ++rejected;
            else
                ++failed;
            reply->deleteLater();
            if (maxCount > 0 && sent >= maxCount && okCount + duplicates + rejected + failed >= sent)
                QCoreApplication::quit();
        });
    };

    QTimer tick;
    tick.setInterval(static_cast<int>(1000.0 / rate));
    QObject::connect(&tick, &QTimer::timeout, &app, [&] {
        if (maxCount > 0 && sent >= maxCount) {
            tick.stop();
            return;
        }
        const qint64 now = QDateTime::currentSecsSinceEpoch();
        const int roll = static_cast<int>(rng.bounded(100));
        if (roll < 8 && !recent.empty()) {
            // A provider redelivering an event it already sent: same id, same body, fresh signature.
            demo::DemoEvent e = recent[rng.bounded(static_cast<quint32>(recent.size()))];
            e.headers.removeIf([](const auto &h) {
                const QByteArray n = h.first.toLower();
                return n == "x-hub-signature-256" || n == "stripe-signature" || n == "x-shopify-hmac-sha256"
                    || n == "webhook-id" || n == "webhook-timestamp" || n == "webhook-signature";
            });
            sign(e, secrets, now, false);
            post(e);
            return;
        }
        demo::DemoEvent e = demo::makeEvent(rng, now);
        const bool wrongSecret = roll >= 8 && roll < 11; // signed with a retired secret
        const bool stale = roll >= 11 && roll < 13; // delivered 10 minutes late
        sign(e, secrets, stale ? now - 600 : now, wrongSecret);
        post(e);
        if (!wrongSecret && !stale) {
            recent.push_back(e);
            if (recent.size() > 64)
                recent.pop_front();
        }
    });
    tick.start();

    QTimer report;
    report.setInterval(30'000);
    QObject::connect(&report, &QTimer::timeout, &app, [&] {
        std::fprintf(stderr,
            "redrive-demo-traffic: sent %lld, recorded %lld, duplicates %lld, rejected %lld, failed %lld\n",
            static_cast<long long>(sent), static_cast<long long>(okCount), static_cast<long long>(duplicates),
            static_cast<long long>(rejected), static_cast<long long>(failed));
    });
    report.start();
    return app.exec();
}
