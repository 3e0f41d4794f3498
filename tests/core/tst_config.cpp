// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#include "config/config.h"
#include "util/privatefile.h"

#include <QTemporaryDir>
#include <QTemporaryFile>
#include <QTest>

#include <unistd.h>

using namespace redrive;

#include "config_fixture.h"
#include "reconcile_config_fixture.h"

namespace {
std::optional<Config> reconcileConfig(const QByteArray &stripe, const QByteArray &github, ConfigError *error)
{
    QByteArray toml = kReconcileBase;
    toml.replace("%RECONCILE_STRIPE%", stripe);
    toml.replace("%RECONCILE_GITHUB%", github);
    return parseConfig(toml, QStringLiteral("test.toml"), error);
}
} // namespace

class TstConfig : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase() { qputenv("REDRIVE_TEST_SECRET", "rotated-secret"); }
    void parsesAValidConfig();
    void routesMatchGlobs();
    void circuitBreakerSettings();
    void redactPointersMarkTheirKeys();
    void notificationTargets();
    void badInputNamesTheKey_data();
    void badInputNamesTheKey();
    void writerConnectionsByEngine_data();
    void writerConnectionsByEngine();
    void secretsNeverAppearInErrors();
    void credentialsComeFromTheCredentialsDirectory();
    void credentialErrorsNameTheKey_data();
    void credentialErrorsNameTheKey();
    void durations_data();
    void durations();
    void globs_data();
    void globs();
    void privateFileRule_data();
    void privateFileRule();
    void groupReadableSecretOfAForeignGroupIsRefused();
    void reconcileSectionIsRead();
    void reconcileBadInputNamesTheKey_data();
    void reconcileBadInputNamesTheKey();
};

void TstConfig::parsesAValidConfig()
{
    ConfigError error;
    const auto cfg = parseConfig(kValid, QStringLiteral("test.toml"), &error);
    QVERIFY2(cfg, qPrintable(error.toString()));
    QCOMPARE(cfg->sources.size(), 2);
    const auto *gh = cfg->source(u"github");
    QVERIFY(gh);
    QVERIFY(gh->scheme == SchemeKind::GitHub);
    QCOMPARE(gh->secrets.size(), 2);
    QCOMPARE(gh->secrets[0].key, QByteArray("It is a Secret to Everybody"));
    QCOMPARE(gh->secrets[0].label, QStringLiteral("sources[0].secrets[0]"));
    QCOMPARE(gh->secrets[1].label, QStringLiteral("env:REDRIVE_TEST_SECRET"));
    QCOMPARE(gh->secrets[1].key, QByteArray("rotated-secret"));
    QCOMPARE(gh->toleranceSeconds, 300);
    QCOMPARE(gh->keys.size(), 3); // by name
    QCOMPARE(gh->keys[0].name, QStringLiteral("delivery"));
    QVERIFY(gh->keys[0].kind == BusinessKey::Kind::Header);
    QCOMPARE(gh->keys[0].header, QByteArray("X-GitHub-Delivery"));
    QCOMPARE(gh->keys[1].name, QStringLiteral("odd"));
    QCOMPARE(gh->keys[1].pointer, QByteArray("/a~1b/~0c"));
    QCOMPARE(gh->keys[2].name, QStringLiteral("pr"));
    QVERIFY(gh->keys[2].kind == BusinessKey::Kind::JsonPointer);
    QCOMPARE(gh->keys[2].pointer, QByteArray("/pull_request/number"));
    const auto *sw = cfg->source(u"sw");
    QVERIFY(sw->keys.isEmpty());
    QCOMPARE(sw->secrets[0].key.size(), 24); // whsec_ prefix stripped and base64-decoded
    const auto *f = cfg->destination(u"fulfillment");
    QVERIFY(f);
    QVERIFY(f->risk == Risk::High);
    QCOMPARE(f->retryScheduleMs, (QList<qint64> { 5'000, 300'000, 1'800'000 }));
    QVERIFY(f->successRef.kind == SuccessRef::Kind::JsonPointer);
    QCOMPARE(f->successRef.name, QStringLiteral("/id"));
    QCOMPARE(f->orderingKeyPointer, QStringLiteral("/customer/id"));
    QVERIFY(f->signingSecret);
    QCOMPARE(f->signingSecret->key.size(), 24);
    QVERIFY(cfg->server.adminListen);
    QCOMPARE(cfg->server.adminListen->port, quint16(8081));
}

// [[notifications]]: each target is read with its defaults and becomes the internal destination
// notify:<name> (its url, secret, allow_private, timeout; concurrency 2), which no route may name.
void TstConfig::notificationTargets()
{
    const QByteArray toml = QByteArray(kValid)
        + "[[notifications]]\nname = \"ops\"\nurl = \"https://hooks.example.com/redrive\"\n"
          "signing_secret = \"env:REDRIVE_TEST_SECRET\"\nkinds = [\"incident.opened\", \"circuit.opened\"]\n"
          "console_profile = \"prod\"\ntimeout_ms = 3000\n"
          "[[notifications]]\nname = \"chat\"\nurl = \"http://127.0.0.1:9/slack\"\nformat = \"slack\"\n"
          "kinds = [\"replay.pending_approval\"]\nallow_private = true\n";
    ConfigError error;
    const auto cfg = parseConfig(toml, QStringLiteral("test.toml"), &error);
    QVERIFY2(cfg, qPrintable(error.toString()));
    QCOMPARE(cfg->notifications.size(), 2);
    const NotificationConfig &ops = cfg->notifications[0];
    QVERIFY(ops.format == NotificationConfig::Format::Json);
    QVERIFY(ops.signingSecret);
    QCOMPARE(ops.signingSecret->label, QStringLiteral("env:REDRIVE_TEST_SECRET"));
    QCOMPARE(ops.signingSecret->key, QByteArray("rotated-secret"));
    QCOMPARE(
        ops.kinds, (QStringList { QStringLiteral("incident.opened"), QStringLiteral("circuit.opened") }));
    QVERIFY(ops.wants(u"incident.opened"));
    QVERIFY(!ops.wants(u"incident.grew"));
    QVERIFY(!ops.allowPrivate);
    QCOMPARE(ops.consoleProfile, QStringLiteral("prod"));
    const NotificationConfig &chat = cfg->notifications[1];
    QVERIFY(chat.format == NotificationConfig::Format::Slack);
    QVERIFY(!chat.signingSecret);
    QVERIFY(chat.allowPrivate);
    QCOMPARE(chat.timeoutMs, 10'000);

    const DestinationConfig *internal = cfg->destination(u"notify:ops");
    QVERIFY(internal);
    QCOMPARE(internal->url, QUrl(QStringLiteral("https://hooks.example.com/redrive")));
    QCOMPARE(internal->concurrency, 2);
    QCOMPARE(internal->timeoutMs, 3000);
    QVERIFY(internal->signingSecret);
    QCOMPARE(internal->signingSecret->key, QByteArray("rotated-secret"));
    QVERIFY(!internal->allowPrivate);
    QVERIFY(cfg->destination(u"notify:chat")->allowPrivate);
    QCOMPARE(cfg->destinations.size(), 4);
    // Routes know nothing of them.
    QCOMPARE(cfg->routeDestinations(u"github", u"push"),
        (QStringList { QStringLiteral("fulfillment"), QStringLiteral("crm") }));
}

void TstConfig::routesMatchGlobs()
{
    ConfigError error;
    const auto cfg = parseConfig(kValid, QStringLiteral("test.toml"), &error);
    QVERIFY(cfg);
    QCOMPARE(cfg->routeDestinations(u"github", u"push"),
        (QStringList { QStringLiteral("fulfillment"), QStringLiteral("crm") }));
    QCOMPARE(cfg->routeDestinations(u"github", u"issues"),
        (QStringList { QStringLiteral("crm"), QStringLiteral("fulfillment") }));
    QCOMPARE(cfg->routeDestinations(u"sw", u"push"), QStringList());
}

void TstConfig::badInputNamesTheKey_data()
{
    QTest::addColumn<QByteArray>("toml");
    QTest::addColumn<QString>("key");
    QTest::addColumn<QString>("reasonPart");

    const QByteArray storage = "[storage]\nurl = \"sqlite:///tmp/x.db\"\n";
    QTest::newRow("syntax") << QByteArray("[server\n") << QString() << QStringLiteral("test.toml:1");
    QTest::newRow("no storage") << QByteArray("[server]\nlisten = \"127.0.0.1:1\"\n")
                                << QStringLiteral("storage.url") << QStringLiteral("required");
    QTest::newRow("unknown top") << storage + "[surver]\n"
                                 << QStringLiteral("surver") << QStringLiteral("unknown key");
    QTest::newRow("unknown key") << storage + "[server]\nlisten_port = 1\n"
                                 << QStringLiteral("server.listen_port") << QStringLiteral("unknown key");
    QTest::newRow("bad listen") << storage + "[server]\nlisten = \"8080\"\n"
                                << QStringLiteral("server.listen") << QStringLiteral("HOST:PORT");
    QTest::newRow("body type") << storage + "[server]\nmax_body_bytes = \"big\"\n"
                               << QStringLiteral("server.max_body_bytes") << QStringLiteral("integer");
    QTest::newRow("body range") << storage + "[server]\nmax_body_bytes = 0\n"
                                << QStringLiteral("server.max_body_bytes") << QStringLiteral("between");
    QTest::newRow("public admin without tls")
        << storage + "[server]\nadmin_listen = \"0.0.0.0:8081\"\n"
        << QStringLiteral("server.admin_listen") << QStringLiteral("loopback");
    QTest::newRow("tls half") << storage + "[server]\ntls_cert = \"/x.pem\"\n"
                              << QStringLiteral("server.tls_key") << QStringLiteral("together");
    QTest::newRow("bad url") << QByteArray("[storage]\nurl = \"mysql://x\"\n")
                             << QStringLiteral("storage.url") << QStringLiteral("sqlite://");
    QTest::newRow("bad scheme") << storage
            + "[[sources]]\nname = \"a\"\nscheme = \"slack\"\nsecrets = [\"x\"]\n"
                                << QStringLiteral("sources[0].scheme") << QStringLiteral("one of");
    QTest::newRow("no secrets") << storage + "[[sources]]\nname = \"a\"\nscheme = \"github\"\nsecrets = []\n"
                                << QStringLiteral("sources[0].secrets") << QStringLiteral("at least one");
    QTest::newRow("missing env") << storage
            + "[[sources]]\nname = \"a\"\nscheme = \"github\"\nsecrets = [\"env:REDRIVE_NOT_SET_ANYWHERE\"]\n"
                                 << QStringLiteral("sources[0].secrets[0]")
                                 << QStringLiteral("REDRIVE_NOT_SET_ANYWHERE is not set");
    QTest::newRow("missing file") << storage
            + "[[sources]]\nname = \"a\"\nscheme = \"github\"\nsecrets = [\"file:/nonexistent/secret\"]\n"
                                  << QStringLiteral("sources[0].secrets[0]")
                                  << QStringLiteral("cannot read secret file");
    QTest::newRow("whsec") << storage
            + "[[sources]]\nname = \"a\"\nscheme = \"standard-webhooks\"\nsecrets = [\"plain\"]\n"
                           << QStringLiteral("sources[0].secrets[0]") << QStringLiteral("whsec_");
    QTest::newRow("dup source") << storage
            + "[[sources]]\nname = \"a\"\nscheme = \"github\"\nsecrets = [\"x\"]\n[[sources]]\nname = \"a\"\nscheme = \"github\"\nsecrets = [\"x\"]\n"
                                << QStringLiteral("sources[1].name") << QStringLiteral("duplicate");
    QTest::newRow("hmac option elsewhere")
        << storage
            + "[[sources]]\nname = \"a\"\nscheme = \"github\"\nsecrets = [\"x\"]\nsignature_header = \"X\"\n"
        << QStringLiteral("sources[0].scheme") << QStringLiteral("only to scheme");
    const QByteArray destination
        = storage + "[[destinations]]\nname = \"crm\"\nurl = \"https://crm.internal/h\"\n";
    QTest::newRow("circuit not a table")
        << destination + "circuit = 5\n"
        << QStringLiteral("destinations[0].circuit") << QStringLiteral("must be a table");
    QTest::newRow("circuit failures zero")
        << destination + "circuit = { failures = 0 }\n"
        << QStringLiteral("destinations[0].circuit.failures") << QStringLiteral("between 1 and 10000");
    QTest::newRow("circuit within not a duration")
        << destination + "circuit = { within = \"soon\" }\n"
        << QStringLiteral("destinations[0].circuit.within") << QStringLiteral("must be a duration");
    QTest::newRow("circuit probe too often")
        << destination + "circuit = { probe_every = \"100ms\" }\n"
        << QStringLiteral("destinations[0].circuit.probe_every") << QStringLiteral("between 1000 ms");
    QTest::newRow("circuit unknown key")
        << destination + "circuit = { failures = 3, probes = 1 }\n"
        << QStringLiteral("destinations[0].circuit.probes") << QStringLiteral("unknown key");
    const QByteArray source = storage + "[[sources]]\nname = \"a\"\nscheme = \"github\"\nsecrets = [\"x\"]\n";
    QTest::newRow("keys not a table") << source + "keys = [\"json:/id\"]\n"
                                      << QStringLiteral("sources[0].keys") << QStringLiteral("table");
    QTest::newRow("redact not a list")
        << source + "redact = \"/email\"\n"
        << QStringLiteral("sources[0].redact") << QStringLiteral("array of JSON pointers");
    QTest::newRow("redact not a string")
        << source + "redact = [\"/email\", 3]\n"
        << QStringLiteral("sources[0].redact[1]") << QStringLiteral("must be a string");
    QTest::newRow("redact pointer without slash")
        << source + "redact = [\"data/email\"]\n"
        << QStringLiteral("sources[0].redact[0]") << QStringLiteral("RFC 6901");
    QTest::newRow("redact the whole body")
        << source + "redact = [\"\"]\n"
        << QStringLiteral("sources[0].redact[0]") << QStringLiteral("RFC 6901");
    QTest::newRow("redact bad escape")
        << source + "redact = [\"/a~2\"]\n"
        << QStringLiteral("sources[0].redact[0]") << QStringLiteral("RFC 6901");
    QTest::newRow("redact listed twice")
        << source + "redact = [\"/email\", \"/email\"]\n"
        << QStringLiteral("sources[0].redact[1]") << QStringLiteral("listed twice");
    {
        QByteArray many = source + "redact = [";
        for (int i = 0; i < 33; ++i)
            many += (i ? ", \"/f" : "\"/f") + QByteArray::number(i) + '"';
        QTest::newRow("redact too many")
            << many + "]\n"
            << QStringLiteral("sources[0].redact") << QStringLiteral("more than 32");
    }
    QTest::newRow("allowed_ips not a list")
        << source + "allowed_ips = \"10.0.0.0/8\"\n"
        << QStringLiteral("sources[0].allowed_ips") << QStringLiteral("array of strings");
    QTest::newRow("allowed_ips not an address")
        << source + "allowed_ips = [\"10.0.0.0/8\", \"github.com\"]\n"
        << QStringLiteral("sources[0].allowed_ips[1]")
        << QStringLiteral("\"github.com\" is not an IPv4 or IPv6 address");
    QTest::newRow("allowed_ips short ipv4")
        << source + "allowed_ips = [\"10.1/16\"]\n"
        << QStringLiteral("sources[0].allowed_ips[0]") << QStringLiteral("\"10.1/16\" is not");
    QTest::newRow("allowed_ips ipv4 prefix too long")
        << source + "allowed_ips = [\"10.0.0.0/33\"]\n"
        << QStringLiteral("sources[0].allowed_ips[0]") << QStringLiteral("from 0 to 32");
    QTest::newRow("allowed_ips ipv6 prefix too long")
        << source + "allowed_ips = [\"2001:db8::/129\"]\n"
        << QStringLiteral("sources[0].allowed_ips[0]") << QStringLiteral("from 0 to 128");
    QTest::newRow("allowed_ips prefix not a number")
        << source + "allowed_ips = [\"10.0.0.0/8x\"]\n"
        << QStringLiteral("sources[0].allowed_ips[0]") << QStringLiteral("prefix length");
    QTest::newRow("allowed_ips host bits") << source + "allowed_ips = [\"192.30.252.1/22\"]\n"
                                           << QStringLiteral("sources[0].allowed_ips[0]")
                                           << QStringLiteral("host bits set; the range is 192.30.252.0/22");
    QTest::newRow("allowed_ips ipv6 host bits")
        << source + "allowed_ips = [\"2a0a:a440::1/29\"]\n"
        << QStringLiteral("sources[0].allowed_ips[0]") << QStringLiteral("the range is 2a0a:a440::/29");
    QTest::newRow("trusted_proxies not an address")
        << storage + "[server]\ntrusted_proxies = [\"127.0.0.1/32\", \"proxy.internal\"]\n"
        << QStringLiteral("server.trusted_proxies[1]") << QStringLiteral("\"proxy.internal\" is not");
    QTest::newRow("trusted_proxies zone id")
        << storage + "[server]\ntrusted_proxies = [\"fe80::1%eth0\"]\n"
        << QStringLiteral("server.trusted_proxies[0]") << QStringLiteral("zone id");
    QTest::newRow("key pointer without slash")
        << source + "keys = { order = \"json:data/id\" }\n"
        << QStringLiteral("sources[0].keys.order") << QStringLiteral("RFC 6901");
    QTest::newRow("key pointer bad escape")
        << source + "keys = { order = \"json:/a~2b\" }\n"
        << QStringLiteral("sources[0].keys.order") << QStringLiteral("RFC 6901");
    QTest::newRow("key pointer trailing tilde")
        << source + "keys = { order = \"json:/a~\" }\n"
        << QStringLiteral("sources[0].keys.order") << QStringLiteral("RFC 6901");
    QTest::newRow("key prefix") << source + "keys = { order = \"body:/id\" }\n"
                                << QStringLiteral("sources[0].keys.order") << QStringLiteral("header:NAME");
    QTest::newRow("key not a string") << source + "keys = { order = 12 }\n"
                                      << QStringLiteral("sources[0].keys.order") << QStringLiteral("string");
    QTest::newRow("key header name") << source + "keys = { shop = \"header:X Shop\" }\n"
                                     << QStringLiteral("sources[0].keys.shop")
                                     << QStringLiteral("not a header name");
    QTest::newRow("key header credential")
        << source + "keys = { who = \"header:Authorization\" }\n"
        << QStringLiteral("sources[0].keys.who") << QStringLiteral("credential");
    QTest::newRow("key header signature")
        << source + "keys = { sig = \"header:X-Hub-Signature-256\" }\n"
        << QStringLiteral("sources[0].keys.sig") << QStringLiteral("signature");
    QTest::newRow("key name") << source + "keys = { \"order id\" = \"json:/id\" }\n"
                              << QStringLiteral("sources[0].keys.order id") << QStringLiteral("key name");
    QTest::newRow("dest url") << storage + "[[destinations]]\nname = \"d\"\nurl = \"ftp://x/\"\n"
                              << QStringLiteral("destinations[0].url") << QStringLiteral("http");
    QTest::newRow("dest risk") << storage
            + "[[destinations]]\nname = \"d\"\nurl = \"http://x/\"\nrisk = \"medium\"\n"
                               << QStringLiteral("destinations[0].risk") << QStringLiteral("low");
    QTest::newRow("schedule") << storage
            + "[[destinations]]\nname = \"d\"\nurl = \"http://x/\"\nretry_schedule = [\"5s\", \"soon\"]\n"
                              << QStringLiteral("destinations[0].retry_schedule[1]")
                              << QStringLiteral("duration");
    QTest::newRow("success_ref") << storage
            + "[[destinations]]\nname = \"d\"\nurl = \"http://x/\"\nsuccess_ref = \"body:id\"\n"
                                 << QStringLiteral("destinations[0].success_ref")
                                 << QStringLiteral("header:");
    const QByteArray target = storage + "[[notifications]]\nname = \"ops\"\nurl = \"http://x/\"\n";
    const QByteArray slackTarget = target + "format = \"slack\"\n";
    QTest::newRow("notify no kinds") << slackTarget << QStringLiteral("notifications[0].kinds")
                                     << QStringLiteral("is required");
    QTest::newRow("notify empty kinds")
        << slackTarget + "kinds = []\n"
        << QStringLiteral("notifications[0].kinds") << QStringLiteral("incident.opened");
    QTest::newRow("notify unknown kind")
        << slackTarget + "kinds = [\"incident.opened\", \"incident.closed\"]\n"
        << QStringLiteral("notifications[0].kinds[1]")
        << QStringLiteral("unknown kind \"incident.closed\"; one of");
    QTest::newRow("notify kind twice")
        << slackTarget + "kinds = [\"replay.halted\", \"replay.halted\"]\n"
        << QStringLiteral("notifications[0].kinds[1]") << QStringLiteral("twice");
    QTest::newRow("notify kinds type") << slackTarget + "kinds = \"incident.opened\"\n"
                                       << QStringLiteral("notifications[0].kinds") << QStringLiteral("array");
    QTest::newRow("notify format") << target + "format = \"teams\"\nkinds = [\"replay.halted\"]\n"
                                   << QStringLiteral("notifications[0].format")
                                   << QStringLiteral("\"json\" or \"slack\"");
    QTest::newRow("notify json needs secret") << target + "kinds = [\"replay.halted\"]\n"
                                              << QStringLiteral("notifications[0].signing_secret")
                                              << QStringLiteral("required for format \"json\"");
    QTest::newRow("notify secret missing env")
        << target + "kinds = [\"replay.halted\"]\nsigning_secret = \"env:REDRIVE_TEST_NO_SUCH_VAR\"\n"
        << QStringLiteral("notifications[0].signing_secret") << QStringLiteral("REDRIVE_TEST_NO_SUCH_VAR");
    QTest::newRow("notify url") << storage
            + "[[notifications]]\nname = \"ops\"\nurl = \"ftp://x/\"\nformat = \"slack\"\nkinds = [\"replay.halted\"]\n"
                                << QStringLiteral("notifications[0].url") << QStringLiteral("http");
    QTest::newRow("notify url credentials")
        << storage
            + "[[notifications]]\nname = \"ops\"\nurl = \"https://u:p@x/\"\nformat = \"slack\"\nkinds = [\"replay.halted\"]\n"
        << QStringLiteral("notifications[0].url") << QStringLiteral("credentials");
    QTest::newRow("notify no url") << storage
            + "[[notifications]]\nname = \"ops\"\nformat = \"slack\"\nkinds = [\"replay.halted\"]\n"
                                   << QStringLiteral("notifications[0].url") << QStringLiteral("is required");
    QTest::newRow("notify name") << storage
            + "[[notifications]]\nname = \"ops team\"\nurl = \"http://x/\"\nformat = \"slack\"\nkinds = [\"replay.halted\"]\n"
                                 << QStringLiteral("notifications[0].name")
                                 << QStringLiteral("1-64 characters");
    QTest::newRow("notify dup name") << slackTarget + "kinds = [\"replay.halted\"]\n"
            + slackTarget.mid(storage.size()) + "kinds = [\"replay.halted\"]\n"
                                     << QStringLiteral("notifications[1].name")
                                     << QStringLiteral("duplicate");
    QTest::newRow("notify allow_private")
        << slackTarget + "kinds = [\"replay.halted\"]\nallow_private = \"yes\"\n"
        << QStringLiteral("notifications[0].allow_private") << QStringLiteral("true or false");
    QTest::newRow("notify profile") << slackTarget
            + "kinds = [\"replay.halted\"]\nconsole_profile = \"a b\"\n"
                                    << QStringLiteral("notifications[0].console_profile")
                                    << QStringLiteral("1-64 characters");
    QTest::newRow("notify timeout") << slackTarget + "kinds = [\"replay.halted\"]\ntimeout_ms = 1\n"
                                    << QStringLiteral("notifications[0].timeout_ms")
                                    << QStringLiteral("between");
    QTest::newRow("notify unknown key")
        << slackTarget + "kinds = [\"replay.halted\"]\nchannel = \"#ops\"\n"
        << QStringLiteral("notifications[0].channel") << QStringLiteral("unknown key");
    QTest::newRow("notify not tables")
        << "notifications = \"ops\"\n" + storage << QStringLiteral("notifications")
        << QStringLiteral("array of tables");
    QTest::newRow("reserved source") << storage
            + "[[sources]]\nname = \"redrive\"\nscheme = \"github\"\nsecrets = [\"x\"]\n"
                                     << QStringLiteral("sources[0].name") << QStringLiteral("reserved");
    QTest::newRow("route source") << storage + "[[routes]]\nsource = \"nope\"\ndestinations = [\"d\"]\n"
                                  << QStringLiteral("routes[0].source") << QStringLiteral("no source");
    QTest::newRow("route dest") << storage
            + "[[sources]]\nname = \"a\"\nscheme = \"github\"\nsecrets = [\"x\"]\n[[routes]]\nsource = \"a\"\ndestinations = [\"nope\"]\n"
                                << QStringLiteral("routes[0].destinations[0]")
                                << QStringLiteral("no destination");
    QTest::newRow("jitter") << storage + "[delivery]\njitter = 2.0\n"
                            << QStringLiteral("delivery.jitter") << QStringLiteral("between");
    QTest::newRow("reply timeout short")
        << storage + "[server]\nreply_timeout = \"50ms\"\n"
        << QStringLiteral("server.reply_timeout") << QStringLiteral("between");
    QTest::newRow("reply timeout word")
        << storage + "[server]\nreply_timeout = \"later\"\n"
        << QStringLiteral("server.reply_timeout") << QStringLiteral("duration");
    QTest::newRow("admin reply timeout")
        << storage + "[admin]\nreply_timeout = \"20m\"\n"
        << QStringLiteral("admin.reply_timeout") << QStringLiteral("between");
    QTest::newRow("ttl") << storage + "[admin]\napproval_ttl = \"forever\"\n"
                         << QStringLiteral("admin.approval_ttl") << QStringLiteral("duration");
    QTest::newRow("incident threshold")
        << storage + "[incidents]\ngrow_threshold = 0\n"
        << QStringLiteral("incidents.grow_threshold") << QStringLiteral("between 1");
    QTest::newRow("incident threshold type")
        << storage + "[incidents]\ngrow_threshold = \"ten\"\n"
        << QStringLiteral("incidents.grow_threshold") << QStringLiteral("integer");
    QTest::newRow("incident interval")
        << storage + "[incidents]\ncheck_interval = \"100ms\"\n"
        << QStringLiteral("incidents.check_interval") << QStringLiteral("between");
    QTest::newRow("incident unknown key")
        << storage + "[incidents]\nthreshold = 5\n"
        << QStringLiteral("incidents.threshold") << QStringLiteral("unknown");
    QTest::newRow("writers on sqlite")
        << storage + "writer_connections = 2\n"
        << QStringLiteral("storage.writer_connections") << QStringLiteral("must be 1 with SQLite");
    QTest::newRow("writers range") << QByteArray(
        "[storage]\nurl = \"postgresql://u@h/db\"\nwriter_connections = 0\n")
                                   << QStringLiteral("storage.writer_connections")
                                   << QStringLiteral("between 1 and 32");
    QTest::newRow("writers type") << QByteArray(
        "[storage]\nurl = \"postgresql://u@h/db\"\nwriter_connections = \"4\"\n")
                                  << QStringLiteral("storage.writer_connections")
                                  << QStringLiteral("integer");
}

void TstConfig::writerConnectionsByEngine_data()
{
    QTest::addColumn<QByteArray>("toml");
    QTest::addColumn<int>("connections");
    QTest::newRow("sqlite default") << QByteArray("[storage]\nurl = \"sqlite:///tmp/x.db\"\n") << 1;
    QTest::newRow("sqlite 1") << QByteArray(
        "[storage]\nurl = \"sqlite:///tmp/x.db\"\nwriter_connections = 1\n")
                              << 1;
    QTest::newRow("postgres default") << QByteArray("[storage]\nurl = \"postgresql://u@h/db\"\n")
                                      << StorageConfig::kDefaultPostgresWriterConnections;
    QTest::newRow("postgres 1") << QByteArray(
        "[storage]\nurl = \"postgresql://u@h/db\"\nwriter_connections = 1\n")
                                << 1;
    QTest::newRow("postgres 8") << QByteArray(
        "[storage]\nurl = \"postgres://u@h/db\"\nwriter_connections = 8\n")
                                << 8;
}

void TstConfig::writerConnectionsByEngine()
{
    QFETCH(QByteArray, toml);
    QFETCH(int, connections);
    ConfigError error;
    const auto cfg = parseConfig(toml, QStringLiteral("test.toml"), &error);
    QVERIFY2(cfg, qPrintable(error.toString()));
    QCOMPARE(cfg->storage.writerConnections, connections);
}

void TstConfig::circuitBreakerSettings()
{
    const QByteArray base = "[storage]\nurl = \"sqlite:///tmp/x.db\"\n"
                            "[[destinations]]\nname = \"none\"\nurl = \"https://a.internal/h\"\n"
                            "[[destinations]]\nname = \"inline\"\nurl = \"https://b.internal/h\"\n"
                            "circuit = { failures = 3, within = \"2m\", probe_every = \"10s\" }\n"
                            "[[destinations]]\nname = \"table\"\nurl = \"https://c.internal/h\"\n"
                            "[destinations.circuit]\n";
    ConfigError error;
    const auto config = parseConfig(base, QStringLiteral("test.toml"), &error);
    QVERIFY2(config, qPrintable(error.toString()));
    QVERIFY(!config->destination(QStringLiteral("none"))->circuit);
    const auto inlined = config->destination(QStringLiteral("inline"))->circuit;
    QVERIFY(inlined);
    QCOMPARE(inlined->failures, 3);
    QCOMPARE(inlined->withinMs, 120'000);
    QCOMPARE(inlined->probeEveryMs, 10'000);
    // An empty table is a breaker with the defaults.
    const auto defaults = config->destination(QStringLiteral("table"))->circuit;
    QVERIFY(defaults);
    QCOMPARE(defaults->failures, 5);
    QCOMPARE(defaults->withinMs, 60'000);
    QCOMPARE(defaults->probeEveryMs, 30'000);
}

// `redact` keeps its pointers in order; a key read at or under one of them is marked redacted,
// one merely sharing a prefix of the name is not.
void TstConfig::redactPointersMarkTheirKeys()
{
    const QByteArray text
        = "[storage]\nurl = \"sqlite:///tmp/x.db\"\n"
          "[[sources]]\nname = \"stripe\"\nscheme = \"stripe\"\nsecrets = [\"x\"]\n"
          "keys = { email = \"json:/data/object/customer_email\", city = "
          "\"json:/data/object/billing/address/city\", other = \"json:/data/object/customer_emails\", "
          "shop = \"header:X-Shop\" }\n"
          "redact = [\"/data/object/customer_email\", \"/data/object/billing\"]\n";
    ConfigError error;
    const auto config = parseConfig(text, QStringLiteral("test.toml"), &error);
    QVERIFY2(config, qPrintable(error.toString()));
    const SourceConfig *source = config->source(QStringLiteral("stripe"));
    QVERIFY(source);
    QCOMPARE(source->redact, (QList<QByteArray> { "/data/object/customer_email", "/data/object/billing" }));
    QHash<QString, bool> redacted;
    for (const BusinessKey &key : source->keys)
        redacted.insert(key.name, key.redacted);
    QCOMPARE(redacted.value(QStringLiteral("email")), true);
    QCOMPARE(redacted.value(QStringLiteral("city")), true);
    QCOMPARE(redacted.value(QStringLiteral("other")), false);
    QCOMPARE(redacted.value(QStringLiteral("shop")), false);
}

void TstConfig::badInputNamesTheKey()
{
    QFETCH(QByteArray, toml);
    QFETCH(QString, key);
    QFETCH(QString, reasonPart);
    ConfigError error;
    QVERIFY(!parseConfig(toml, QStringLiteral("test.toml"), &error));
    QCOMPARE(error.key, key);
    QVERIFY2(error.reason.contains(reasonPart), qPrintable(error.reason));
}

void TstConfig::secretsNeverAppearInErrors()
{
    // A literal secret that fails validation must not be echoed back.
    const QByteArray toml = "[storage]\nurl = \"sqlite:///tmp/x.db\"\n[[sources]]\nname = \"a\"\n"
                            "scheme = \"standard-webhooks\"\nsecrets = [\"hunter2-very-secret\"]\n";
    ConfigError error;
    QVERIFY(!parseConfig(toml, QStringLiteral("test.toml"), &error));
    QVERIFY(!error.toString().contains(QLatin1String("hunter2")));
}

namespace {

// Sets CREDENTIALS_DIRECTORY for one scope, as systemd does for a unit with LoadCredential=.
class CredentialsDirectory final {
public:
    explicit CredentialsDirectory(const QByteArray &path)
        : m_previous(qgetenv("CREDENTIALS_DIRECTORY"))
        , m_wasSet(qEnvironmentVariableIsSet("CREDENTIALS_DIRECTORY"))
    {
        if (path.isNull())
            qunsetenv("CREDENTIALS_DIRECTORY");
        else
            qputenv("CREDENTIALS_DIRECTORY", path);
    }
    ~CredentialsDirectory()
    {
        if (m_wasSet)
            qputenv("CREDENTIALS_DIRECTORY", m_previous);
        else
            qunsetenv("CREDENTIALS_DIRECTORY");
    }
    CredentialsDirectory(const CredentialsDirectory &) = delete;
    CredentialsDirectory &operator=(const CredentialsDirectory &) = delete;

private:
    QByteArray m_previous;
    bool m_wasSet;
};

bool writeFile(const QString &path, const QByteArray &content)
{
    QFile f(path);
    return f.open(QIODevice::WriteOnly) && f.write(content) == content.size();
}

const QByteArray kCredentialConfig = "[storage]\nurl = \"sqlite:///tmp/x.db\"\n[[sources]]\nname = \"a\"\n"
                                     "scheme = \"github\"\nsecrets = [\"credential:github-secret\"]\n"
                                     "[[destinations]]\nname = \"d\"\nurl = \"http://x/\"\n"
                                     "signing_secret = \"credential:signing\"\n";

} // namespace

void TstConfig::credentialsComeFromTheCredentialsDirectory()
{
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    QVERIFY(writeFile(dir.filePath(QStringLiteral("github-secret")), "from-systemd\n"));
    QVERIFY(writeFile(dir.filePath(QStringLiteral("signing")), "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw"));
    const CredentialsDirectory env(QFile::encodeName(dir.path()));
    ConfigError error;
    const auto cfg = parseConfig(kCredentialConfig, QStringLiteral("test.toml"), &error);
    QVERIFY2(cfg, qPrintable(error.toString()));
    const SourceConfig *source = cfg->source(u"a");
    QVERIFY(source);
    QCOMPARE(source->secrets.size(), 1);
    QCOMPARE(source->secrets[0].key, QByteArray("from-systemd")); // the trailing newline is not part of it
    QCOMPARE(source->secrets[0].label, QStringLiteral("credential:github-secret"));
    const DestinationConfig *destination = cfg->destination(u"d");
    QVERIFY(destination && destination->signingSecret);
    QCOMPARE(destination->signingSecret->label, QStringLiteral("credential:signing"));
    QCOMPARE(destination->signingSecret->key.size(), 24); // whsec_ decoded as for env: and file:
}

void TstConfig::credentialErrorsNameTheKey_data()
{
    QTest::addColumn<QByteArray>("toml");
    QTest::addColumn<bool>("setDirectory");
    QTest::addColumn<QString>("key");
    QTest::addColumn<QString>("reasonPart");
    const QByteArray storage = "[storage]\nurl = \"sqlite:///tmp/x.db\"\n";
    const QByteArray source = storage + "[[sources]]\nname = \"a\"\nscheme = \"github\"\n";
    QTest::newRow("no CREDENTIALS_DIRECTORY")
        << QByteArray(source + "secrets = [\"credential:github-secret\"]\n") << false
        << QStringLiteral("sources[0].secrets[0]") << QStringLiteral("$CREDENTIALS_DIRECTORY");
    QTest::newRow("credential not loaded")
        << QByteArray(source + "secrets = [\"credential:not-loaded\"]\n") << true
        << QStringLiteral("sources[0].secrets[0]") << QStringLiteral("not-loaded");
    QTest::newRow("empty credential")
        << QByteArray(source + "secrets = [\"x\", \"credential:empty\"]\n") << true
        << QStringLiteral("sources[0].secrets[1]") << QStringLiteral("is empty");
    QTest::newRow("no name") << QByteArray(source + "secrets = [\"credential:\"]\n") << true
                             << QStringLiteral("sources[0].secrets[0]") << QStringLiteral("credential name");
    QTest::newRow("path escape") << QByteArray(source + "secrets = [\"credential:../etc/shadow\"]\n") << true
                                 << QStringLiteral("sources[0].secrets[0]") << QStringLiteral("without '/'");
    QTest::newRow("signing secret") << QByteArray(storage
        + "[[destinations]]\nname = \"d\"\nurl = \"http://x/\"\n"
          "signing_secret = \"credential:absent\"\n")
                                    << true << QStringLiteral("destinations[0].signing_secret")
                                    << QStringLiteral("absent");
}

void TstConfig::credentialErrorsNameTheKey()
{
    QFETCH(QByteArray, toml);
    QFETCH(bool, setDirectory);
    QFETCH(QString, key);
    QFETCH(QString, reasonPart);
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    QVERIFY(writeFile(dir.filePath(QStringLiteral("empty")), "\n"));
    QVERIFY(writeFile(dir.filePath(QStringLiteral("github-secret")), "TOPSECRET-credential-value"));
    const CredentialsDirectory env(setDirectory ? QFile::encodeName(dir.path()) : QByteArray());
    ConfigError error;
    QVERIFY(!parseConfig(toml, QStringLiteral("test.toml"), &error));
    QCOMPARE(error.key, key);
    QVERIFY2(error.reason.contains(reasonPart), qPrintable(error.reason));
    QVERIFY(!error.toString().contains(QLatin1String("TOPSECRET")));
}

void TstConfig::durations_data()
{
    QTest::addColumn<QString>("text");
    QTest::addColumn<qint64>("ms");
    QTest::newRow("ms") << QStringLiteral("500ms") << qint64(500);
    QTest::newRow("s") << QStringLiteral("5s") << qint64(5000);
    QTest::newRow("m") << QStringLiteral("5m") << qint64(300'000);
    QTest::newRow("h") << QStringLiteral("2h") << qint64(7'200'000);
    QTest::newRow("d") << QStringLiteral("90d") << qint64(7'776'000'000);
    QTest::newRow("no unit") << QStringLiteral("5") << qint64(-1);
    QTest::newRow("neg") << QStringLiteral("-5s") << qint64(-1);
    QTest::newRow("word") << QStringLiteral("soon") << qint64(-1);
    QTest::newRow("huge") << QStringLiteral("99999999999999d") << qint64(-1);
}

void TstConfig::durations()
{
    QFETCH(QString, text);
    QFETCH(qint64, ms);
    const auto parsed = parseDuration(text);
    QCOMPARE(parsed.value_or(-1), ms);
}

void TstConfig::globs_data()
{
    QTest::addColumn<QString>("pattern");
    QTest::addColumn<QString>("text");
    QTest::addColumn<bool>("matches");
    QTest::newRow("exact") << QStringLiteral("push") << QStringLiteral("push") << true;
    QTest::newRow("prefix star") << QStringLiteral("pull_request.*") << QStringLiteral("pull_request.opened")
                                 << true;
    QTest::newRow("star no dot") << QStringLiteral("pull_request.*") << QStringLiteral("pull_request")
                                 << false;
    QTest::newRow("all") << QStringLiteral("*") << QStringLiteral("anything.at.all") << true;
    QTest::newRow("question") << QStringLiteral("order.?") << QStringLiteral("order.x") << true;
    QTest::newRow("middle") << QStringLiteral("a*c") << QStringLiteral("abbbc") << true;
    QTest::newRow("middle miss") << QStringLiteral("a*c") << QStringLiteral("abbbd") << false;
    QTest::newRow("backtrack") << QStringLiteral("*ab*ab") << QStringLiteral("xabyabab") << true;
}

void TstConfig::globs()
{
    QFETCH(QString, pattern);
    QFETCH(QString, text);
    QFETCH(bool, matches);
    QCOMPARE(globMatches(pattern, text), matches);
}

// The rule for the config file and file: secrets (core/util/privatefile.h), as a table: the
// packaged layout (0640, group = the service's) passes; others never; a foreign group never.
void TstConfig::privateFileRule_data()
{
    QTest::addColumn<uint>("mode");
    QTest::addColumn<uint>("fileGid");
    QTest::addColumn<QString>("problem"); // part of the message, empty = accepted
    constexpr uint own = 998, other = 100;
    QTest::newRow("0600") << 0100600u << other << QString();
    QTest::newRow("0400") << 0100400u << other << QString();
    QTest::newRow("0640 own group (packaged)") << 0100640u << own << QString();
    QTest::newRow("0660 own group") << 0100660u << own << QString();
    QTest::newRow("0640 foreign group") << 0100640u << other << QStringLiteral("gid 100, mode 0640");
    QTest::newRow("0620 foreign group") << 0100620u << other << QStringLiteral("gid 100, mode 0620");
    QTest::newRow("0644 own group") << 0100644u << own << QStringLiteral("other users (mode 0644)");
    QTest::newRow("0604") << 0100604u << own << QStringLiteral("other users (mode 0604)");
    QTest::newRow("0602") << 0100602u << own << QStringLiteral("other users (mode 0602)");
    QTest::newRow("0601 (execute only)") << 0100601u << own << QString();
}

void TstConfig::privateFileRule()
{
    QFETCH(uint, mode);
    QFETCH(uint, fileGid);
    QFETCH(QString, problem);
    const QString got = privateModeProblem(static_cast<mode_t>(mode), fileGid, 998);
    if (problem.isEmpty())
        QVERIFY2(got.isEmpty(), qPrintable(got));
    else
        QVERIFY2(got.contains(problem), qPrintable(got));
}

// With a real file: a group-readable secret whose group is not ours names the file and its mode.
// Changing a file's group to one we are not in needs root; elsewhere the table above covers it.
void TstConfig::groupReadableSecretOfAForeignGroupIsRefused()
{
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString path = dir.filePath(QStringLiteral("secret"));
    {
        QFile f(path);
        QVERIFY(f.open(
            QIODevice::WriteOnly, QFileDevice::ReadOwner | QFileDevice::WriteOwner | QFileDevice::ReadGroup));
        f.write("s3cret-value\n");
    }
    QVERIFY2(privateFileProblem(path, QStringLiteral("secret file")).isEmpty(),
        qPrintable(privateFileProblem(path, QStringLiteral("secret file"))));
    if (::geteuid() != 0)
        QSKIP("chgrp to a group this process is not in needs root; privateFileRule covers the rule");
    const gid_t foreign = ::getegid() + 4242;
    QVERIFY(::chown(QFile::encodeName(path).constData(), static_cast<uid_t>(-1), foreign) == 0);
    const QByteArray toml = "[storage]\nurl = \"sqlite:///tmp/x.db\"\n[[sources]]\nname = \"a\"\n"
                            "scheme = \"github\"\nsecrets = [\"file:"
        + QFile::encodeName(path) + "\"]\n";
    ConfigError error;
    QVERIFY(!parseConfig(toml, QStringLiteral("t.toml"), &error));
    QCOMPARE(error.key, QStringLiteral("sources[0].secrets[0]"));
    QVERIFY2(error.reason.startsWith(
                 QStringLiteral("secret file %1 is accessible by its group (gid %2, mode 0640)")
                     .arg(path)
                     .arg(foreign)),
        qPrintable(error.reason));
    QVERIFY(!error.reason.contains(QLatin1String("s3cret")));
}

QTEST_GUILESS_MAIN(TstConfig)
#include "tst_config.moc"

void TstConfig::reconcileSectionIsRead()
{
    qputenv("REDRIVE_TEST_STRIPE_KEY", "sk_test_reconcile_key");
    ConfigError error;
    const auto cfg = reconcileConfig(
        "[sources.reconcile]\nprovider = \"stripe\"\ncredential = \"env:REDRIVE_TEST_STRIPE_KEY\"\n"
        "every = \"0\"\nlookback = \"24h\"\n",
        "[sources.reconcile]\nprovider = \"github\"\napi_url = \"http://127.0.0.1:9/api/v3/\"\n"
        "credential = \"ghp_literal\"\nhook = \"repos/acme/shop/hooks/123\"\n",
        &error);
    QVERIFY2(cfg, qPrintable(error.toString()));
    const auto &stripe = cfg->source(u"stripe")->reconcile;
    QVERIFY(stripe);
    QVERIFY(stripe->provider == ReconcileConfig::Provider::Stripe);
    QCOMPARE(stripe->apiUrl, QUrl(QStringLiteral("https://api.stripe.com")));
    QCOMPARE(stripe->credential.key, QByteArray("sk_test_reconcile_key"));
    QCOMPARE(stripe->credential.label, QStringLiteral("env:REDRIVE_TEST_STRIPE_KEY"));
    QCOMPARE(stripe->everyMs, 0);
    QCOMPARE(stripe->lookbackMs, 24LL * 3600 * 1000);
    const auto &gh = cfg->source(u"gh")->reconcile;
    QVERIFY(gh);
    QVERIFY(gh->provider == ReconcileConfig::Provider::GitHub);
    QCOMPARE(gh->apiUrl, QUrl(QStringLiteral("http://127.0.0.1:9/api/v3"))); // trailing '/' dropped
    QCOMPARE(gh->hook, QStringLiteral("repos/acme/shop/hooks/123"));
    QCOMPARE(gh->everyMs, 15LL * 60 * 1000); // the default
    QCOMPARE(gh->lookbackMs, 72LL * 3600 * 1000);
    // A literal credential is labelled by its position, never by its value.
    QCOMPARE(gh->credential.label, QStringLiteral("sources[1].reconcile.credential"));
}

void TstConfig::reconcileBadInputNamesTheKey_data()
{
    QTest::addColumn<QByteArray>("stripe");
    QTest::addColumn<QByteArray>("github");
    QTest::addColumn<QString>("key");
    QTest::addColumn<QString>("reason");
    const QByteArray ok = "[sources.reconcile]\nprovider = \"stripe\"\ncredential = \"sk_secret_value\"\n";
    QTest::newRow("unknown provider")
        << QByteArray("[sources.reconcile]\nprovider = \"paypal\"\ncredential = \"x\"\n") << QByteArray()
        << "sources[0].reconcile.provider"
        << "stripe";
    QTest::newRow("provider of another scheme") << QByteArray(
        "[sources.reconcile]\nprovider = \"github\"\ncredential = \"x\"\nhook = \"repos/a/b/hooks/1\"\n")
                                                << QByteArray() << "sources[0].reconcile.provider"
                                                << "scheme";
    QTest::newRow("no credential") << QByteArray("[sources.reconcile]\nprovider = \"stripe\"\n")
                                   << QByteArray() << "sources[0].reconcile.credential"
                                   << "required";
    QTest::newRow("missing env") << QByteArray(
        "[sources.reconcile]\nprovider = \"stripe\"\ncredential = \"env:REDRIVE_NOT_SET_EVER\"\n")
                                 << QByteArray() << "sources[0].reconcile.credential"
                                 << "REDRIVE_NOT_SET_EVER";
    QTest::newRow("plain http to a remote host") << QByteArray(ok + "api_url = \"http://api.stripe.com\"\n")
                                                 << QByteArray() << "sources[0].reconcile.api_url"
                                                 << "loopback";
    QTest::newRow("not a URL") << QByteArray(ok + "api_url = \"ftp://x\"\n") << QByteArray()
                               << "sources[0].reconcile.api_url"
                               << "https";
    QTest::newRow("query in the URL") << QByteArray(ok + "api_url = \"https://api.stripe.com/?a=1\"\n")
                                      << QByteArray() << "sources[0].reconcile.api_url"
                                      << "query";
    QTest::newRow("bad every") << QByteArray(ok + "every = \"soon\"\n") << QByteArray()
                               << "sources[0].reconcile.every"
                               << "duration";
    QTest::newRow("bad lookback") << QByteArray(ok + "lookback = \"90d\"\n") << QByteArray()
                                  << "sources[0].reconcile.lookback"
                                  << "between";
    QTest::newRow("hook on stripe") << QByteArray(ok + "hook = \"repos/a/b/hooks/1\"\n") << QByteArray()
                                    << "sources[0].reconcile.hook"
                                    << "github";
    QTest::newRow("unknown key") << QByteArray(ok + "evry = \"1m\"\n") << QByteArray()
                                 << "sources[0].reconcile.evry"
                                 << "unknown";
    QTest::newRow("github without hook")
        << QByteArray() << QByteArray("[sources.reconcile]\nprovider = \"github\"\ncredential = \"x\"\n")
        << "sources[1].reconcile.hook"
        << "required";
    QTest::newRow("hook climbing out")
        << QByteArray()
        << QByteArray(
               "[sources.reconcile]\nprovider = \"github\"\ncredential = \"x\"\nhook = \"repos/../../x\"\n")
        << "sources[1].reconcile.hook"
        << "segments";
    QTest::newRow("not a table") << QByteArray() << QByteArray("reconcile = \"yes\"\n")
                                 << "sources[1].reconcile"
                                 << "table";
}

void TstConfig::reconcileBadInputNamesTheKey()
{
    QFETCH(QByteArray, stripe);
    QFETCH(QByteArray, github);
    QFETCH(QString, key);
    QFETCH(QString, reason);
    ConfigError error;
    QVERIFY(!reconcileConfig(stripe, github, &error));
    QCOMPARE(error.key, key);
    QVERIFY2(error.reason.contains(reason, Qt::CaseInsensitive), qPrintable(error.reason));
    // The credential's value never appears in a message.
    QVERIFY(!error.toString().contains(QLatin1String("sk_secret_value")));
}
