// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#pragma once

#include "api/adminclient.h"
#include "consoleguitest.h"
#include "pgreceivers.h"
#include "realreceiver.h"

#include <optional>

namespace redrive::test {

inline constexpr int kReplyTimeoutMs = 300;
// An answer's bound: the reply timeout plus scheduling slack on a loaded 2-core machine. Without
// the receiver's reply timeout an answer would take the whole hang, or the console's own 15 s.
inline constexpr qint64 kAnswerBoundMs = kReplyTimeoutMs + 2'700;

// What the console says when the receiver answers 503 reply_timeout: to any request, and the
// sentence it adds when the request was an action.
inline const QString kReadWording
    = QStringLiteral("The receiver did not finish in time; its database may be hung.");
inline const QString kActionSentence
    = QStringLiteral(" This action may still be recorded: check the page before repeating it.");
// A page's whole line for an action whose outcome is unknown: `prefix` (e.g. "Pausing crm was
// not confirmed: ") then those words and that sentence.
inline QString unconfirmedLine(const QString &prefix)
{
    return prefix + kReadWording + kActionSentence;
}

struct Answer {
    QJsonDocument body;
    ui::ApiError error;
    qint64 ms = 0;
};

// Waits (bounded) for one reply's answer, keeping the event loop turning.
std::optional<Answer> await(ui::ApiReply *reply, int timeoutMs = 20'000);

// The console against a real redrived whose PostgreSQL hangs: a private cluster
// (tests/support/pg-harness.sh) whose processes are stopped with SIGSTOP, connections open, and
// the receiver configured with `[admin] reply_timeout = "300ms"`, so it answers every admin
// request 503 reply_timeout with Retry-After and "outcome": "unknown" instead of holding it.
// Suites call startHangingReceiver() from initTestCase, stopAll() from cleanupTestCase and
// thawAndReport() from cleanup, so a failed check never leaves the server stopped.
class HangFixture : public ConsoleGuiTest {
protected:
    // The cluster, then redrived on it; settings for the console.
    bool startHangingReceiver(QString *error);
    void stopAll();
    void thawAndReport();
    [[nodiscard]] bool freeze();
    void thaw();
    // A fresh console (the previous one closed) signed in as `person` on a new profile named
    // `profile`, through the connection dialog, on the cluster and the receiver's admin API.
    bool openConsole(const QString &profile, const QString &person);
    // Admin requests the receiver's workers have finished (the late ones included); /metrics is
    // answered on the I/O thread, without the database.
    [[nodiscard]] double finishedAdminRequests() const;
    // Triggers the window's Refresh action, as a person checking the page would.
    void refreshByHand();
    // No text on the main window (its own widgets, not the connection dialog's token field)
    // shows `token`.
    void verifyNoTokenShown(const QString &token);

    PrivatePgCluster m_cluster;
    RealReceiver m_receiver;
    SystemClock m_systemClock;

private:
    bool m_frozen = false;
};

} // namespace redrive::test
