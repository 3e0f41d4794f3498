// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#pragma once

#include "storage/database.h"

#include <QList>
#include <QString>

#include <optional>

// Reconciliation runs (reconcile_runs, migration 13) as the console reads them: one row per run
// of a source's `[sources.reconcile]`.
namespace redrive::reconcile {

inline const QString kStatusRunning = QStringLiteral("running");
inline const QString kStatusOk = QStringLiteral("ok");
inline const QString kStatusFailed = QStringLiteral("failed");

struct Run {
    qint64 id = 0;
    QString source;
    QString provider; // stripe | github
    qint64 startedAtMs = 0;
    std::optional<qint64> finishedAtMs;
    QString status; // running | ok | failed
    qint64 checked = 0; // listed by the provider inside the lookback
    qint64 missing = 0; // listed but never stored for the source
    qint64 recovered = 0; // Stripe: recorded now; GitHub: redelivery asked
    QString error; // why it failed; never the credential
    QString requestedBy; // token name for a run asked through the API, empty for the schedule
    QString owner; // the receiver running it
};

// Newest first; `source` empty = every source; ids below `beforeId` when set. At most `limit`.
Result<QList<Run>> listRuns(Db &db, const QString &source, std::optional<qint64> beforeId, int limit);

// The newest run of each source (the console's "last run" per source), by source name.
Result<QList<Run>> lastRunPerSource(Db &db);

} // namespace redrive::reconcile
