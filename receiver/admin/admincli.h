// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#pragma once

#include "config/config.h"
#include "util/clock.h"

#include <QStringList>
#include <QTextStream>

// `redrived token …` and `redrived audit …`. Each returns the process exit code and writes only
// to the given streams, so redrived's main stays a dispatcher and tests run them in-process.
//   0  success (audit verify: the chain is intact)
//   1  the operation failed (no such token, duplicate name; audit verify: the chain is broken —
//      stderr names the first bad entry)
//   2  usage or environment error (bad arguments, database or key file unreadable)
namespace redrive::admin {

// create --name NAME --owner PERSON --role ROLE [--expires 90d]  → prints the token once on stdout
// revoke --name NAME
// list
int tokenCommand(const Config &config, const QStringList &args, QTextStream &out, QTextStream &err,
    const Clock &clock = Clock::system());

// verify [--checkpoint FILE]   → exit 0 intact, 1 broken (naming the first bad entry)
// checkpoint [--out FILE]      → signed head as JSON (admin.audit_key_file), stdout by default
int auditCommand(const Config &config, const QStringList &args, QTextStream &out, QTextStream &err,
    const Clock &clock = Clock::system());

} // namespace redrive::admin
