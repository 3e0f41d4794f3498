// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#pragma once

#include "storage/database.h"

#include <QList>
#include <QString>

// A pause with an end (POST destinations/{name}/pause {"until"}) is lifted by the delivery engine
// once that time has passed, as if someone had resumed the destination: destination_state shows it
// resumed by "redrive", the audit log has a destination_resumed entry with the system as actor,
// and every engine on the database is woken for the deliveries it held.
namespace redrive::delivery {

struct EndedPause {
    QString destination;
    qint64 untilMs = 0;
};

// Lifts every pause whose end is at or before `nowMs`, in one transaction with one audit entry per
// destination. A cheap read decides first, so calling it every second writes nothing while no
// pause ends. Several receivers on one PostgreSQL lift each pause once: the UPDATE re-checks its
// condition on the row it locked, so the second receiver finds the destination resumed already.
Result<QList<EndedPause>> resumeEndedPauses(Db &db, qint64 nowMs);

} // namespace redrive::delivery
