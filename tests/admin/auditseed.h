// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#pragma once

#include "storage/database.h"

#include <QString>

namespace redrive::test {

// Appends `count` valid chained entries quickly (multi-row inserts, hashes computed here), for
// tamper tests on large logs. Returns false with *error on failure.
bool seedAuditChain(Db &db, int count, QString *error, qint64 startAtMs = 1'700'000'000'000);

// Removes the append-only triggers, as an attacker with database access would.
bool dropAuditTriggers(Db &db, QString *error);

// Replaces one entry's hash with the hash of its (possibly edited) contents.
bool rehashAuditEntry(Db &db, qint64 seq, QString *error);

} // namespace redrive::test
