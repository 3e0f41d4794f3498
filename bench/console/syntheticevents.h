// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#pragma once

#include "domain/types.h"
#include "storage/database.h"

#include <QList>
#include <QString>

// The benchmark's events, defined once as formulas of the event number x (1..N): the database
// fixture is generated from them inside the engine, and the in-memory baseline model from the
// same formulas in C++, so both sides hold the same rows.
namespace redrive::bench {

inline constexpr qint64 kBaseMs = 1'760'000'000'000;

struct SyntheticRow {
    qint64 id;
    qint64 receivedAt;
    quint8 source;
    quint8 type;
    quint8 status; // index into statusValues()
    quint8 attempts;
    quint8 lastFailure; // index into categoryValues(), 0 = none
    quint8 downstream; // int(DownstreamState)
    QString providerId;
    QString downstreamRef;
};

const QStringList &sourceNames();
const QStringList &typeNames();
const QList<EventStatus> &statusValues();
const QList<Stored<FailureCategory>> &categoryValues();
SyntheticRow syntheticRow(qint64 x);

// Creates (or reuses, when it already holds `rows` events) the fixture: events, one delivery
// per routed event and one attempt per attempted delivery, in one transaction.
bool ensureFixture(Db &db, qint64 rows, QString *error, double *secondsSpent);

} // namespace redrive::bench
