// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#include "timedpause.h"

#include "audit/auditlog.h"
#include "storage/duewakeup.h"
#include "storage/sqlrow.h"
#include "util/clock.h"

#include <QSqlQuery>

namespace redrive::delivery {

Result<QList<EndedPause>> resumeEndedPauses(Db &db, qint64 nowMs)
{
    const auto due = selectRow(db,
        QStringLiteral("SELECT 1 FROM destination_state WHERE paused = 1 AND paused_until <= ? LIMIT 1"),
        { nowMs }, [](const QSqlQuery &) { return true; });
    if (!due)
        return Failure(due.error());
    if (!*due)
        return QList<EndedPause> {};
    return withTransaction(db, [&]() -> Result<QList<EndedPause>> {
        auto lifted = selectRows(db,
            QStringLiteral(
                "UPDATE destination_state SET paused = 0, paused_until = NULL, changed_by = 'redrive', "
                "changed_at = ?, reason = 'the pause ended' WHERE paused = 1 AND paused_until <= ? "
                "RETURNING name, paused_until"),
            { nowMs, nowMs }, [](const QSqlQuery &q) {
                EndedPause p;
                readColumns(q, p.destination, p.untilMs);
                return p;
            });
        if (!lifted)
            return Failure(lifted.error());
        const QList<EndedPause> ended = std::move(*lifted);
        if (!ended.isEmpty()) {
            if (auto notified = notifyDeliveriesDue(db); !notified)
                return Failure(notified.error());
        }
        // The audit entries last: appending holds the chain's lock until the commit.
        for (const EndedPause &p : std::as_const(ended)) {
            const audit::AuditRecord record { QLatin1String(audit::kSystemActor),
                QLatin1String(audit::kSystemRole), QStringLiteral("destination_resumed"),
                QStringLiteral("destination:%1").arg(p.destination), QStringLiteral("the pause ended"),
                QJsonObject { { QStringLiteral("was_paused"), true },
                    { QStringLiteral("until"), isoUtc(p.untilMs) } } };
            if (auto appended = audit::appendAuditEntry(db, record, nowMs); !appended)
                return Failure(appended.error());
        }
        return ended;
    });
}

} // namespace redrive::delivery
