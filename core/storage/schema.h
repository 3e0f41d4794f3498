// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#pragma once

#include "storage/database.h"

#include <QByteArray>
#include <QList>

namespace redrive {

// The schema version this build reads and writes. The console refuses databases that are older
// (run `redrived migrate`) or newer (upgrade the console) with a message saying which.
inline constexpr int kSchemaVersion = 17;

// Highest applied migration, 0 for an empty database.
Result<int> schemaVersion(Db &db);

// What a migration needs from the configuration.
struct MigrateOptions {
    // Generic (hmac-sha256) sources' signature header names: removed from stored rows along with
    // the fixed schemes' ones (Headers::isSignature).
    QList<QByteArray> signatureHeaders;
};

// The schema versions before and after a migrate run (equal when there was nothing to do).
struct SchemaMigration {
    int fromVersion = 0;
    int toVersion = 0;
};

// Applies every missing migration, each in its own transaction. On PostgreSQL an advisory lock
// serialises concurrent `migrate` runs from several receivers.
Result<SchemaMigration> migrate(Db &db, const MigrateOptions &options = {});

// Applies the missing migrations up to targetVersion only (upgrade tests start from an old schema).
Result<SchemaMigration> migrateTo(Db &db, int targetVersion, const MigrateOptions &options = {});

} // namespace redrive
