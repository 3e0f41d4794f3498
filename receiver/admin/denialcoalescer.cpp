// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#include "denialcoalescer.h"

#include "util/clock.h"

#include <QJsonArray>

namespace redrive::admin {

bool DenialCoalescer::admit(const Denial &denial, qint64 nowMs)
{
    const qint64 minute = nowMs / kWindowMs;
    std::lock_guard lock(m_mutex);
    auto it = m_windows.find(denial.tokenId);
    if (it != m_windows.end() && it->minute == minute) {
        ++it->further;
        it->last = denial;
        if (!it->attempted.contains(denial.attempted) && it->attempted.size() < kMaxActionsListed)
            it->attempted.append(denial.attempted);
        return false;
    }
    if (it != m_windows.end() && it->further > 0)
        m_closed.append(*it); // an older minute nobody flushed yet: keep its tally
    Window w;
    w.minute = minute;
    w.last = denial;
    m_windows.insert(denial.tokenId, w);
    return true;
}

QList<audit::AuditRecord> DenialCoalescer::takeClosed(qint64 nowMs, bool all)
{
    const qint64 minute = nowMs / kWindowMs;
    QList<audit::AuditRecord> out;
    std::lock_guard lock(m_mutex);
    for (const Window &w : std::as_const(m_closed))
        out.append(recordFor(w));
    m_closed.clear();
    m_windows.removeIf([&](QHash<qint64, Window>::iterator it) {
        if (!all && it->minute >= minute)
            return false;
        if (it->further > 0)
            out.append(recordFor(*it));
        return true;
    });
    return out;
}

bool DenialCoalescer::hasPending()
{
    std::lock_guard lock(m_mutex);
    if (!m_closed.isEmpty())
        return true;
    for (const Window &w : std::as_const(m_windows)) {
        if (w.further > 0)
            return true;
    }
    return false;
}

audit::AuditRecord DenialCoalescer::recordFor(const Window &w)
{
    const QJsonObject details {
        { QStringLiteral("count"), w.further },
        { QStringLiteral("coalesced"), true },
        { QStringLiteral("window_start"), isoUtc(w.minute * kWindowMs) },
        { QStringLiteral("window_end"), isoUtc((w.minute + 1) * kWindowMs) },
        { QStringLiteral("attempted"), QJsonArray::fromStringList(w.attempted) },
        { QStringLiteral("actor_owner"), w.last.owner },
        { QStringLiteral("why"),
            QStringLiteral("further refusals of this token in the minute after the first entry") },
    };
    return audit::AuditRecord { w.last.actor, w.last.role, QStringLiteral("permission_denied"), w.last.target,
        QString(), details };
}

} // namespace redrive::admin
