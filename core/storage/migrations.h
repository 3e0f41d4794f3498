// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#pragma once

#include "storage/schema.h"

#include <cstddef>
#include <span>

// The schema's history, for schema.cpp's runner: every migration in order, each a list of
// statements written once for both engines (the {{TOKENS}} schema.cpp renders) and, where SQL
// alone cannot do it, code run after them in the same transaction. A released migration is
// never edited; a change is a new one at the end (and kSchemaVersion moves with it).
namespace redrive::storage {

struct Migration {
    int version = 0;
    const char *description = nullptr;
    const char *const *statements = nullptr;
    std::size_t count = 0;
    // Work SQL alone cannot do, run after the statements in the same transaction.
    Result<> (*code)(Db &db, const MigrateOptions &options) = nullptr;
};

// Versions 1 to kSchemaVersion, in order.
std::span<const Migration> migrations();

} // namespace redrive::storage
