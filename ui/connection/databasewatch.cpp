// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#include "databasewatch.h"

#include "common/dbexecutor.h"
#include "common/timeformat.h"
#include "common/warningbanner.h"
#include "connection/session.h"
#include "util/clock.h"

#include <QTimer>

#include <algorithm>

namespace redrive::ui {

DatabaseWatch::DatabaseWatch(Session *session, WarningBanner *banner, const Clock &clock, QObject *parent)
    : QObject(parent)
    , m_session(session)
    , m_banner(banner)
    , m_clock(clock)
    , m_timer(new QTimer(this))
{
    m_timer->setSingleShot(true);
    connect(m_timer, &QTimer::timeout, this, &DatabaseWatch::attempt);
    for (DbExecutor *executor : { session->events(), session->stats() }) {
        if (executor)
            connect(executor, &DbExecutor::connectionLost, this, &DatabaseWatch::noteLost);
    }
}

DatabaseWatch::~DatabaseWatch()
{
    m_banner->showWarnings({});
}

QString DatabaseWatch::warningFor(qint64 sinceMs, const QString &reason, int nextAttemptMs)
{
    const QString since = TimeFormat::display(sinceMs);
    const QString next = TimeFormat::duration(std::max(nextAttemptMs, 1'000));
    if (reason.isEmpty())
        return tr("The database cannot be reached since %1. The pages show what was read before then and "
                  "may be out of date (stale). The console reconnects by itself: next attempt in %2.")
            .arg(since, next);
    return tr("The database cannot be reached since %1 (%3). The pages show what was read before then and "
              "may be out of date (stale). The console reconnects by itself: next attempt in %2.")
        .arg(since, next, reason);
}

void DatabaseWatch::noteLost(const QString &reason)
{
    m_reason = reason;
    if (down()) {
        show();
        return;
    }
    m_downSince = m_clock.nowMs();
    m_delayMs = kFirstRetryMs;
    if (m_outstanding == 0)
        m_timer->start(m_delayMs);
    show();
    Q_EMIT lost();
}

void DatabaseWatch::attempt()
{
    if (!down() || m_outstanding > 0)
        return;
    ++m_attempts;
    m_attemptError.clear();
    // Both connections: a restart broke the one that has not noticed yet as well.
    for (DbExecutor *executor : { m_session->events(), m_session->stats() }) {
        if (!executor)
            continue;
        ++m_outstanding;
        executor->reconnect(this, [this](const QString &error) { attemptDone(error); });
    }
    if (m_outstanding == 0)
        m_timer->start(m_delayMs);
}

void DatabaseWatch::attemptDone(const QString &error)
{
    if (!error.isEmpty())
        m_attemptError = error;
    if (--m_outstanding > 0)
        return;
    if (!m_attemptError.isEmpty()) {
        m_reason = m_attemptError;
        m_delayMs = std::min(m_delayMs * 2, kMaxRetryMs);
        m_timer->start(m_delayMs);
        show();
        return;
    }
    const qint64 downFor = m_clock.nowMs() - m_downSince.value_or(m_clock.nowMs());
    m_downSince.reset();
    m_reason.clear();
    m_delayMs = kFirstRetryMs;
    show();
    Q_EMIT recovered(downFor);
}

void DatabaseWatch::show()
{
    if (!m_downSince) {
        m_banner->showWarnings({});
        return;
    }
    const int next = m_timer->isActive() ? m_timer->remainingTime() : m_delayMs;
    m_banner->showWarnings({ warningFor(*m_downSince, m_reason, next) });
}

} // namespace redrive::ui
