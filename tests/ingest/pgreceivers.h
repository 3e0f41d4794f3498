// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#pragma once

// What tst_dbrestart and tst_tworeceivers share: a private PostgreSQL cluster that a test may
// restart and stop (never the suite's shared server), real redrived processes on it with a
// loopback sink, and provider-like client threads that send signed events at least once and
// record every answer (status, Retry-After, how long it took).

#include "rawhttp.h"

#include <QByteArray>
#include <QList>
#include <QProcess>
#include <QString>
#include <QTemporaryDir>

#include <atomic>
#include <memory>
#include <optional>
#include <thread>
#include <vector>

namespace redrive::test {

inline const QByteArray kPgLoadSecret = "pg-receivers-secret";

// pg-harness.sh on a directory of this test's own.
class PrivatePgCluster final {
public:
    ~PrivatePgCluster();
    bool start(QString *error);
    bool restartFast(QString *error); // pg_ctl restart -m fast
    bool halt(QString *error); // pg_ctl stop -m fast
    bool resume(QString *error);
    bool freeze(QString *error); // SIGSTOP: hangs with its connections open
    bool thaw(QString *error);
    [[nodiscard]] QString url() const { return m_url; }

private:
    bool harness(const QString &command, QString *error);
    QString m_dir;
    QString m_url;
    bool m_started = false;
};

// One redrived process with its config in `dir`; stderr goes to dir/redrived-NAME.log.
struct ReceiverProcess {
    QString name;
    QString configPath;
    QString logPath;
    quint16 ingestPort = 0;
    quint16 adminPort = 0;
    QProcess process;
};

// Writes the config (github source "gh" routed to destination "sink" at `sinkUrl`).
bool writeReceiverConfig(ReceiverProcess &r, const QString &dir, const QString &storageUrl,
    const QByteArray &sinkUrl, const QByteArray &deliveryExtra, QString *error,
    const QByteArray &serverExtra = {});
bool startReceiver(ReceiverProcess &r, QString *error);
// `redrived … migrate` then `token create` (role support); the token on success.
QString migrateAndCreateToken(const ReceiverProcess &r, QString *error);
// GET on the admin listener, fresh connection, bounded.
std::optional<RawResponse> adminGet(quint16 port, const QByteArray &path, const QByteArray &token = {});
// The value of one sample line ("name{labels} value") in a Prometheus text, or -1.
double metricValue(const QByteArray &exposition, const QByteArray &sample);
// Lines of a log file containing `needle`.
int countLogLines(const QString &path, const QByteArray &needle);
// The lines of the log at `path` that contain any of `needles`, for a failure message.
QByteArray logLinesWith(const QString &path, const QList<QByteArray> &needles);

// Provider-like load: `clients` threads, each sending its own sequence of events (ids
// "<prefix><client>-<n>") until stopNew is set, finishing the event in hand first. Every event
// is resent until a 200 comes back; with `sendToAll` each event is also sent (concurrently
// duplicated) to every other port. A port that does not answer is skipped for the retry.
class ProviderLoad final {
public:
    ProviderLoad(QList<quint16> ports, int clients, bool sendToAll, QByteArray prefix, int pauseMs);
    ~ProviderLoad();
    void start();
    void stopAndJoin();
    void giveUp();

    std::atomic<int> acked { 0 };
    std::atomic<int> answered503 { 0 };
    std::atomic<int> missingRetryAfter { 0 };
    std::atomic<int> otherStatus { 0 };
    std::atomic<int> noAnswer { 0 };
    std::atomic<int> duplicates { 0 };
    std::atomic<qint64> maxLatencyMs { 0 };
    // After stopAndJoin(): every id answered 200.
    [[nodiscard]] QList<QByteArray> ackedIds() const;

private:
    void run(int client);
    QList<quint16> m_ports;
    int m_clients;
    bool m_sendToAll;
    QByteArray m_prefix;
    int m_pauseMs;
    std::atomic<bool> m_stopNew { false };
    std::atomic<bool> m_giveUp { false };
    std::vector<std::thread> m_threads;
    std::vector<QList<QByteArray>> m_acked; // per client, written by that client only
};

// Lets `load` run until `count` more events were acknowledged by `r` (bounded by `timeoutMs`,
// noticing an exit of the receiver); the elapsed ms, or -1.
qint64 waitForAcks(ProviderLoad &load, ReceiverProcess &r, int count, int timeoutMs);

} // namespace redrive::test
