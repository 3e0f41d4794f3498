// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#include "replicacontroller.h"

#include "common/localeformat.h"
#include "common/plaintooltip.h"
#include "common/timeformat.h"
#include "common/warningbanner.h"
#include "connection/session.h"

#include <QLabel>
#include <QTimer>

namespace redrive::ui {
namespace {

constexpr int kPollMs = 200; // while a page waits for the standby
constexpr int kOverduePollMs = 2'000; // after the wait limit, until the change arrives

QString lagText(const ReplicaState &s)
{
    return s.lagMs ? LocaleFormat::duration(*s.lagMs) : ReplicaController::tr("an unknown time");
}

} // namespace

ReplicaController::ReplicaController(Session *session, WarningBanner *banner, QLabel *status, QObject *parent)
    : QObject(parent)
    , m_session(session)
    , m_banner(banner)
    , m_status(status)
    , m_pollTimer(new QTimer(this))
{
    m_pollTimer->setSingleShot(true);
    connect(m_pollTimer, &QTimer::timeout, this, &ReplicaController::poll);
}

ReplicaController::~ReplicaController()
{
    if (m_session->replica() == this)
        m_session->setReplica(nullptr);
    m_banner->showWarnings({});
    m_status->clear();
    m_status->setToolTip(QString());
    m_status->hide();
}

QString ReplicaController::statusFor(const ReplicaState &s, bool waiting)
{
    if (waiting)
        return tr("Replica: waiting for the replica to show your change…");
    if (!s.standby)
        return QString();
    if (s.replayPaused)
        return tr("Replica: replay paused · %1 behind").arg(lagText(s));
    if (!s.streaming)
        return tr("Replica: not streaming from the primary · last change replayed %1 ago").arg(lagText(s));
    if (s.caughtUp)
        return tr("Replica: caught up");
    return tr("Replica: %1 behind").arg(lagText(s));
}

QStringList ReplicaController::warningsFor(
    const ReplicaState &s, int thresholdSeconds, std::optional<qint64> overdueForMs)
{
    QStringList out;
    if (overdueForMs)
        out.append(tr("Your last change has not reached this standby after %1: the pages may "
                      "not show it yet. They refresh when it arrives.")
                       .arg(LocaleFormat::duration(*overdueForMs)));
    if (!s.standby || s.caughtUp)
        return out;
    // Unknown lag (nothing replayed since the standby started) is not caught up either.
    if (!s.lagMs || *s.lagMs > qint64(thresholdSeconds) * 1000) {
        QString line = tr("This database is a standby %1 behind the primary (warning above %2): "
                          "the pages show the state of %1 ago. Actions still go to the primary.")
                           .arg(lagText(s), LocaleFormat::duration(qint64(thresholdSeconds) * 1000));
        if (s.replayPaused)
            line += tr(" Replay is paused on the standby (pg_wal_replay_resume() resumes it).");
        else if (!s.streaming)
            line += tr(" It is not streaming from the primary.");
        out.append(line);
    }
    return out;
}

void ReplicaController::refresh()
{
    if (m_session->profile().databaseKind != ConnectionProfile::DatabaseKind::Postgres)
        return;
    if (!m_gate.enter())
        return;
    m_session->stats()->submit(
        this, &m_generation, [](Db &db) { return fetchReplicaState(db); },
        [this](Result<ReplicaState> state) {
            if (m_gate.leave()) {
                refresh();
                return;
            }
            m_stateError = state.error();
            m_state = std::move(state).toOptional();
            show();
            Q_EMIT refreshed();
        });
}

void ReplicaController::show()
{
    const ReplicaState state = m_state.value_or(ReplicaState {});
    const bool standby = state.standby || !m_stateError.isEmpty();
    QString text = statusFor(state, waiting());
    if (!m_stateError.isEmpty() && !waiting())
        text = tr("Replica: state unknown");
    m_status->setText(text);
    m_status->setToolTip(plainToolTip(m_stateError.isEmpty()
            ? (state.standby ? tr("A hot standby, replayed up to WAL position %1.").arg(state.replayLsn)
                             : QString())
            : tr("The standby's state could not be read: ") + m_stateError));
    m_status->setVisible(standby || waiting());
    std::optional<qint64> overdue;
    if (m_overdue)
        overdue = m_waitClock.elapsed();
    m_banner->showWarnings(warningsFor(state, m_session->profile().replicaLagWarnSeconds, overdue));
}

void ReplicaController::expect(const QString &lsn)
{
    if (m_session->profile().databaseKind != ConnectionProfile::DatabaseKind::Postgres)
        return;
    const auto position = parseWalPosition(lsn);
    if (!position)
        return; // not a WAL position: nothing honest to wait for
    if (waiting() && *position <= m_awaitedPosition)
        return;
    const bool was = waiting();
    m_awaited = lsn;
    m_awaitedPosition = *position;
    if (!was) {
        m_overdue = false;
        m_waitClock.start();
        m_deadline.setRemainingTime(m_waitLimitMs);
        Q_EMIT waitingChanged(true);
    }
    show();
    if (!m_polling) {
        m_pollTimer->stop();
        poll();
    }
}

void ReplicaController::afterReplayed(QObject *context, std::function<void()> then)
{
    if (!waiting() || m_overdue) {
        then();
        return;
    }
    m_pending.append({ QPointer<QObject>(context), std::move(then) });
}

void ReplicaController::poll()
{
    if (!waiting())
        return;
    m_polling = true;
    const QString lsn = m_awaited;
    const quint64 position = m_awaitedPosition;
    m_session->stats()->submit(
        this, nullptr, [lsn](Db &db) { return replicaHasReplayed(db, lsn); },
        // A failed read counts as not yet replayed: the next poll asks again.
        [this, position](const Result<bool> &replayed) {
            m_polling = false;
            if (replayed.value_or(false) && position == m_awaitedPosition) {
                reached();
                return;
            }
            if (!replayed.value_or(false) && !m_overdue && m_deadline.hasExpired()) {
                // Bounded: the pages show what the standby has, and the banner says what is missing.
                m_overdue = true;
                runPending();
                show();
            }
            m_pollTimer->start(m_overdue ? kOverduePollMs : kPollMs);
        });
}

void ReplicaController::reached()
{
    m_awaited.clear();
    m_awaitedPosition = 0;
    m_overdue = false;
    Q_EMIT waitingChanged(false);
    runPending();
    show();
    Q_EMIT replayed();
    refresh();
}

void ReplicaController::runPending()
{
    const auto pending = std::exchange(m_pending, {});
    for (const auto &[context, then] : pending) {
        if (context)
            then();
    }
}

void afterReplicaShows(Session *session, QObject *context, std::function<void()> then)
{
    if (ReplicaController *replica = session ? session->replica() : nullptr)
        replica->afterReplayed(context, std::move(then));
    else
        then();
}

} // namespace redrive::ui
