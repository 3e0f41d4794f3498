// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#pragma once

#include "config/config.h"

#include <QStringList>
#include <QTextStream>

#include <functional>
#include <vector>

namespace redrive::daemon {

// A `redrived --config FILE <name> …` command other than running and `migrate`. It gets the
// loaded configuration and the arguments after its name, writes only to the given streams and
// returns the exit code (0 ok, 1 operation failed, 2 usage or environment error).
struct Subcommand {
    QString name; // "check", "token", "audit"
    QString usage; // lines for --help, e.g. "token create --name NAME --role ROLE [--expires 90d]"
    std::function<int(const Config &config, const QStringList &args, QTextStream &out, QTextStream &err)> run;
};

std::vector<Subcommand> subcommands();

} // namespace redrive::daemon
