// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#pragma once

#include "util/result.h"

#include <QString>
#include <QStringList>

namespace redrive::daemon {

// redrived [--config FILE] [--log-level LEVEL] [COMMAND [ARGS…]] | --help | --version
struct CommandLine {
    enum class Action { Run, Help, Version };
    Action action = Action::Run;
    QString configPath;
    QString logLevel = QStringLiteral("info");
    QString command; // empty: run the receiver
    QStringList commandArgs;
};

// Fails on a usage error (exit code 2).
Result<CommandLine> parseCommandLine(const QStringList &arguments);
QString helpText();

// The whole of `redrived`: returns the process exit code.
//   0 ok · 1 runtime failure (database, schema, listen) · 2 usage or configuration error
int runRedrived(int argc, char **argv);

} // namespace redrive::daemon
