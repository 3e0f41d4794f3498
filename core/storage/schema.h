// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#pragma once

#include "storage/database.h"

#include <QByteArray>
#include <QList>

namespace redrive {

// The schema version this build reads and writes. The console refuses databases that are older
// (run `redrived migrate`) or newer (upgrade the console) with a message saying which.
inline constexpr int kSchemaVersion = 8;

// Highest applied migration, 0 for an empty database, -1 when it cannot be read.
int schemaVersion(Db &db, QString *error = nullptr);

// What a migration needs from the configuration.
struct MigrateOptions {
    // Generic (hmac-sha256) sources' signature header names: removed from stored rows along with
    // the fixed schemes' ones (Headers::isSignature).
    QList<QByteArray> signatureHeaders;
};

// Applies every missing migration, each in its own transaction. On PostgreSQL an advisory lock
// serialises concurrent `migrate` runs from several receivers.
bool migrate(Db &db, QString *error, int *fromVersion = nullptr, int *toVersion = nullptr,
    const MigrateOptions &options = {});

// Applies the missing migrations up to targetVersion only (upgrade tests start from an old schema).
bool migrateTo(Db &db, int targetVersion, QString *error, int *fromVersion = nullptr,
    int *toVersion = nullptr, const MigrateOptions &options = {});

} // namespace redrive
