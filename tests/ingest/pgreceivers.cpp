// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#include "pgreceivers.h"

#include "daemonprocess.h"
#include "signers.h"

#include <QCoreApplication>
#include <QElapsedTimer>
#include <QFile>
#include <QRegularExpression>

#include <algorithm>

namespace redrive::test {
namespace {

QString harnessScript()
{
    return qEnvironmentVariable("REDRIVE_SOURCE_DIR") + QStringLiteral("/tests/support/pg-harness.sh");
}

void raiseTo(std::atomic<qint64> &target, qint64 value)
{
    qint64 seen = target.load();
    while (value > seen && !target.compare_exchange_weak(seen, value)) { }
}

} // namespace

PrivatePgCluster::~PrivatePgCluster()
{
    if (m_started) {
        QString ignored;
        harness(QStringLiteral("stop"), &ignored);
    }
}

bool PrivatePgCluster::harness(const QString &command, QString *error)
{
    QProcess p;
    p.start(QStringLiteral("bash"), { harnessScript(), command, m_dir });
    if (!p.waitForFinished(120'000) || p.exitStatus() != QProcess::NormalExit || p.exitCode() != 0) {
        *error = QStringLiteral("pg-harness.sh %1 failed: %2")
                     .arg(command, QString::fromUtf8(p.readAllStandardError()));
        return false;
    }
    return true;
}

bool PrivatePgCluster::start(QString *error)
{
    m_dir = QStringLiteral("/tmp/redrive-private-pg-%1").arg(QCoreApplication::applicationPid());
    if (!harness(QStringLiteral("start"), error))
        return false;
    m_started = true;
    QFile f(m_dir + QStringLiteral("/url"));
    if (!f.open(QIODevice::ReadOnly)) {
        *error = QStringLiteral("no url file in %1").arg(m_dir);
        return false;
    }
    m_url = QString::fromUtf8(f.readAll()).trimmed();
    return true;
}

bool PrivatePgCluster::restartFast(QString *error)
{
    return harness(QStringLiteral("restart"), error);
}

bool PrivatePgCluster::halt(QString *error)
{
    return harness(QStringLiteral("halt"), error);
}

bool PrivatePgCluster::resume(QString *error)
{
    return harness(QStringLiteral("resume"), error);
}

bool PrivatePgCluster::freeze(QString *error)
{
    return harness(QStringLiteral("freeze"), error);
}

bool PrivatePgCluster::thaw(QString *error)
{
    return harness(QStringLiteral("thaw"), error);
}

bool writeReceiverConfig(ReceiverProcess &r, const QString &dir, const QString &storageUrl,
    const QByteArray &sinkUrl, const QByteArray &deliveryExtra, QString *error, const QByteArray &serverExtra)
{
    const QList<quint16> ports = freePorts(2);
    if (ports.size() != 2) {
        *error = QStringLiteral("no free loopback ports");
        return false;
    }
    r.ingestPort = ports[0];
    r.adminPort = ports[1];
    r.configPath = dir + QStringLiteral("/redrived-%1.toml").arg(r.name);
    r.logPath = dir + QStringLiteral("/redrived-%1.log").arg(r.name);
    QByteArray t;
    t += "[server]\nlisten = \"127.0.0.1:" + QByteArray::number(r.ingestPort) + "\"\n";
    t += "admin_listen = \"127.0.0.1:" + QByteArray::number(r.adminPort) + "\"\nread_timeout = \"5s\"\n"
        + serverExtra + "\n";
    t += "[storage]\nurl = \"" + storageUrl.toUtf8() + "\"\n\n";
    t += "[delivery]\npoll_interval = \"50ms\"\n" + deliveryExtra + "\n";
    t += "[[sources]]\nname = \"gh\"\nscheme = \"github\"\nsecrets = [\"" + kPgLoadSecret + "\"]\n\n";
    t += "[[destinations]]\nname = \"sink\"\nurl = \"" + sinkUrl
        + "\"\nmax_attempts = 8\ntimeout_ms = 2000\nconcurrency = 8\nallow_private = true\n\n";
    t += "[[routes]]\nsource = \"gh\"\ndestinations = [\"sink\"]\n";
    QFile f(r.configPath);
    if (!f.open(QIODevice::WriteOnly | QIODevice::Truncate, QFileDevice::ReadOwner | QFileDevice::WriteOwner)
        || f.write(t) != t.size()) {
        *error = QStringLiteral("cannot write %1").arg(r.configPath);
        return false;
    }
    return r.ingestPort != 0 && r.adminPort != 0;
}

bool startReceiver(ReceiverProcess &r, QString *error)
{
    r.process.setStandardErrorFile(r.logPath, QIODevice::Append);
    r.process.start(redrivedPath(),
        { QStringLiteral("--config"), r.configPath, QStringLiteral("--log-level"), QStringLiteral("info") });
    if (!waitHealthy(r.process, r.ingestPort, 20'000)) {
        *error = QStringLiteral("redrived %1 did not become healthy (see %2)").arg(r.name, r.logPath);
        return false;
    }
    return true;
}

QString migrateAndCreateToken(const ReceiverProcess &r, QString *error)
{
    QByteArray out, err;
    if (runRedrived({ QStringLiteral("--config"), r.configPath, QStringLiteral("migrate") }, &out, &err)
        != 0) {
        *error = QStringLiteral("migrate failed: %1").arg(QString::fromUtf8(err));
        return {};
    }
    out.clear();
    const int rc = runRedrived(
        { QStringLiteral("--config"), r.configPath, QStringLiteral("token"), QStringLiteral("create"),
            QStringLiteral("--name"), QStringLiteral("restart"), QStringLiteral("--owner"),
            QStringLiteral("tests"), QStringLiteral("--role"), QStringLiteral("support") },
        &out, &err);
    static const QRegularExpression pattern(QStringLiteral("rdt_[A-Za-z0-9_-]+"));
    const auto match = pattern.match(QString::fromUtf8(out));
    if (rc != 0 || !match.hasMatch()) {
        *error = QStringLiteral("token create failed: %1").arg(QString::fromUtf8(err));
        return {};
    }
    return match.captured();
}

std::optional<RawResponse> adminGet(quint16 port, const QByteArray &path, const QByteArray &token)
{
    QList<std::pair<QByteArray, QByteArray>> headers;
    if (!token.isEmpty())
        headers.append({ QByteArrayLiteral("Authorization"), "Bearer " + token });
    return roundTrip(port, buildRequest("GET", path, headers, {}, true), 15'000);
}

double metricValue(const QByteArray &exposition, const QByteArray &sample)
{
    const QByteArray prefix = sample + ' ';
    for (const QByteArray &line : exposition.split('\n')) {
        if (line.startsWith(prefix))
            return line.mid(sample.size() + 1).trimmed().toDouble();
    }
    return -1;
}

int countLogLines(const QString &path, const QByteArray &needle)
{
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly))
        return -1;
    int n = 0;
    for (const QByteArray &line : f.readAll().split('\n'))
        n += line.contains(needle) ? 1 : 0;
    return n;
}

QByteArray logLinesWith(const QString &path, const QList<QByteArray> &needles)
{
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly))
        return "(no log at " + path.toUtf8() + ")";
    QByteArray out;
    for (const QByteArray &line : f.readAll().split('\n')) {
        if (std::any_of(
                needles.begin(), needles.end(), [&](const QByteArray &n) { return line.contains(n); }))
            out += line + '\n';
    }
    return out;
}

ProviderLoad::ProviderLoad(QList<quint16> ports, int clients, bool sendToAll, QByteArray prefix, int pauseMs)
    : m_ports(std::move(ports))
    , m_clients(clients)
    , m_sendToAll(sendToAll)
    , m_prefix(std::move(prefix))
    , m_pauseMs(pauseMs)
    , m_acked(static_cast<std::size_t>(clients))
{ }

ProviderLoad::~ProviderLoad()
{
    giveUp();
    stopAndJoin();
}

void ProviderLoad::start()
{
    for (int c = 0; c < m_clients; ++c)
        m_threads.emplace_back([this, c] { run(c); });
}

void ProviderLoad::stopAndJoin()
{
    m_stopNew = true;
    for (auto &t : m_threads) {
        if (t.joinable())
            t.join();
    }
    m_threads.clear();
}

void ProviderLoad::giveUp()
{
    m_giveUp = true;
}

QList<QByteArray> ProviderLoad::ackedIds() const
{
    QList<QByteArray> all;
    for (const auto &ids : m_acked)
        all += ids;
    return all;
}

void ProviderLoad::run(int client)
{
    const qsizetype n = m_ports.size();
    std::vector<RawConnection> conns(static_cast<std::size_t>(n));
    // 1 = 200, 0 = another answer, -1 = no answer (receiver gone or connection cut).
    auto sendTo = [&](qsizetype i, const QByteArray &request) -> int {
        RawConnection &conn = conns[static_cast<std::size_t>(i)];
        if (!conn.isOpen() && !conn.connect(m_ports.at(i), 500)) {
            conn.close();
            noAnswer.fetch_add(1);
            return -1;
        }
        QElapsedTimer took;
        took.start();
        auto r = conn.send(request) ? conn.readResponse(20'000) : std::nullopt;
        raiseTo(maxLatencyMs, took.elapsed());
        if (!r) {
            conn.close();
            noAnswer.fetch_add(1);
            return -1;
        }
        if (r->header("Connection") == "close")
            conn.close();
        if (r->status == 200) {
            if (r->body.contains("\"duplicate\":true"))
                duplicates.fetch_add(1);
            return 1;
        }
        if (r->status == 503) {
            answered503.fetch_add(1);
            if (r->header("Retry-After").isEmpty())
                missingRetryAfter.fetch_add(1);
        } else {
            otherStatus.fetch_add(1);
        }
        return 0;
    };
    for (int seq = 0; !m_stopNew.load() && !m_giveUp.load(); ++seq) {
        const QByteArray id = m_prefix + QByteArray::number(client) + '-' + QByteArray::number(seq);
        const QByteArray body
            = "{\"action\":\"created\",\"id\":\"" + id + "\"}"; // unique: github dedupes by body
        const QByteArray request
            = buildRequest("POST", "/hooks/gh", signGitHub(kPgLoadSecret, body, id, "charge"), body);
        bool ok = false;
        qsizetype next = (client + seq) % n;
        if (m_sendToAll && n > 1) {
            // The provider's duplicate: the same event at every receiver at about the same time.
            std::vector<std::thread> extra;
            std::atomic<bool> extraOk { false };
            for (qsizetype k = 1; k < n; ++k) {
                const qsizetype i = (next + k) % n;
                extra.emplace_back([&, i] {
                    RawConnection once;
                    if (!once.connect(m_ports.at(i), 500) || !once.send(request))
                        return;
                    if (auto r = once.readResponse(20'000); r && r->status == 200)
                        extraOk = true;
                });
            }
            ok = sendTo(next, request) == 1;
            for (auto &t : extra)
                t.join();
            ok = ok || extraOk.load();
        }
        // At least once: resend until a 200 comes back, moving on to the next receiver when
        // one does not answer (the provider's load balancer does the same).
        while (!ok && !m_giveUp.load()) {
            const int r = sendTo(next, request);
            ok = r == 1;
            if (r == -1)
                next = (next + 1) % n;
            if (!ok)
                std::this_thread::sleep_for(std::chrono::milliseconds(20)); // a provider's backoff
        }
        if (!ok)
            break;
        m_acked[static_cast<std::size_t>(client)].append(id);
        acked.fetch_add(1);
        if (m_pauseMs > 0)
            std::this_thread::sleep_for(std::chrono::milliseconds(m_pauseMs)); // the provider's pace
    }
}

qint64 waitForAcks(ProviderLoad &load, ReceiverProcess &r, int count, int timeoutMs)
{
    const int target = load.acked.load() + count;
    QElapsedTimer t;
    t.start();
    while (load.acked.load() < target && t.elapsed() < timeoutMs && r.process.state() == QProcess::Running)
        r.process.waitForFinished(5); // a bounded pause that also notices an exit
    return load.acked.load() >= target ? t.elapsed() : -1;
}

} // namespace redrive::test
