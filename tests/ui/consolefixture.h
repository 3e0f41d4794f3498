// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#pragma once

#include "storage/database.h"

#include <QByteArray>
#include <QString>

#include <optional>

namespace redrive::test {

// Writes receiver rows straight into a migrated database with SQL, the way the receiver would
// leave them, so console tests do not depend on the receiver being built.
class ConsoleFixture final {
public:
    explicit ConsoleFixture(Db &db)
        : m_db(db)
    { }

    struct EventSpec {
        QString source = QStringLiteral("github");
        QString providerId;
        QString type = QStringLiteral("push");
        QString status = QStringLiteral("pending");
        qint64 receivedAt = 1'700'000'000'000;
        QByteArray body = QByteArrayLiteral("{\"action\":\"opened\",\"number\":7}");
        QByteArray headers = QByteArrayLiteral(
            "[[\"Content-Type\",\"application/json\"],[\"Authorization\",\"[redacted]\"]]");
        QString verifiedBy = QStringLiteral("env:GITHUB_WEBHOOK_SECRET");
        std::optional<qint64> clockSkewMs = 120;
        int seenCount = 1;
        QString origin = QStringLiteral("webhook"); // or "reconciled"
    };
    struct DeliverySpec {
        QString destination = QStringLiteral("fulfillment");
        QString status = QStringLiteral("pending");
        int attemptCount = 0;
        std::optional<qint64> nextAttemptAt;
        QString lastCategory;
        QString lastError;
        bool outcomeUnknown = false;
        QString downstreamRef;
        std::optional<qint64> deadAt;
        std::optional<qint64> succeededAt;
        qint64 createdAt = 1'700'000'000'000;
    };
    struct AttemptSpec {
        int number = 1;
        QString trigger = QStringLiteral("automatic");
        qint64 startedAt = 1'700'000'000'000;
        int durationMs = 120;
        std::optional<int> statusCode;
        QString category = QStringLiteral("success");
        QString explanation = QStringLiteral("HTTP 200: success");
        bool outcomeUnknown = false;
        QString responseExcerpt;
    };

    qint64 addEvent(const EventSpec &spec);
    qint64 addDelivery(qint64 eventId, const DeliverySpec &spec);
    void addAttempt(qint64 deliveryId, const AttemptSpec &spec);
    void addNote(qint64 eventId, const QString &author, const QString &body, qint64 at);
    void addAudit(qint64 seq, const QString &actor, const QString &action, const QString &target,
        const QString &reason, qint64 at);
    void addRejection(const QString &source, const QString &reason, int statusCode, qint64 at,
        const QString &detail = QStringLiteral("signature did not match any configured secret"));
    // A receiver_instances row as a running receiver keeps it.
    void addReceiver(const QString &instanceId, const QString &host, qint64 pid, qint64 heartbeatAt,
        const QString &durability, bool powerLossDurable);

    // A reconcile_runs row as a receiver leaves it: running (no finishedAt), ok or failed.
    struct RunSpec {
        QString source = QStringLiteral("stripe");
        QString provider = QStringLiteral("stripe");
        qint64 startedAt = 1'700'000'000'000;
        std::optional<qint64> finishedAt;
        QString status = QStringLiteral("ok");
        qint64 checked = 0;
        qint64 missing = 0;
        qint64 recovered = 0;
        QString error;
        QString requestedBy;
    };
    qint64 addReconcileRun(const RunSpec &spec);
    // The canonical scenario the GUI tests read: one event per downstream state, and one healthy
    // receiver ("web-1", pid 4242, synchronous=FULL, heartbeat at base + 50 s).
    struct Scenario {
        qint64 succeeded = 0; // succeeded with reference "ORD-1001"
        qint64 failed = 0; // dead-lettered (http_permanent 410)
        qint64 unknown = 0; // retrying, last attempt timed out after sending
        qint64 pending = 0; // not attempted yet
        qint64 noRoute = 0;
    };
    Scenario addScenario(qint64 baseMs);

    // `count` plain events (with one delivery each) after everything else, ids ascending.
    void addBulk(int count, qint64 baseMs, const QString &source = QStringLiteral("bulk"));

    [[nodiscard]] QString lastError() const { return m_error; }

private:
    bool run(QSqlQuery &q);
    Db &m_db;
    QString m_error;
};

} // namespace redrive::test
