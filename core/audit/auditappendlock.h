// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#pragma once

#include "storage/database.h"

namespace redrive::audit {

// Holds off audit appends by every process until released, for a write transaction that must
// read the head of the log and append to it from one snapshot (an evidence export signs the
// head, reads up to it, then records itself).
//
// On PostgreSQL this is a session-level advisory lock on the key appendAuditEntry takes per
// transaction. It is taken BEFORE the transaction begins, so a REPEATABLE READ snapshot taken
// afterwards already holds the newest entry; advisory locks are re-entrant within a session, so
// the holder still appends. On SQLite it does nothing: BEGIN IMMEDIATE already excludes writers.
//
// Declare it before the Transaction so the transaction ends (commit or rollback) first.
class AuditAppendLock final {
public:
    explicit AuditAppendLock(Db &db);
    ~AuditAppendLock();
    AuditAppendLock(const AuditAppendLock &) = delete;
    AuditAppendLock &operator=(const AuditAppendLock &) = delete;

    Result<> acquire();
    void release();

private:
    Db &m_db;
    bool m_held = false;
};

} // namespace redrive::audit
