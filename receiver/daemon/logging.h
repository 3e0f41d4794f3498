// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#pragma once

#include <QString>

#include <optional>

namespace redrive::daemon {

enum class LogLevel { Debug, Info, Warning, Error };
std::optional<LogLevel> logLevelFromString(QStringView name);

// Routes every Qt log message to stderr as one line:
//   2026-11-30T06:54:14.123Z info    redrive.http: ingest: listening on 127.0.0.1:8080
// and drops messages below `level` before they are formatted. Redrive never logs secrets: they
// are only ever referred to by their label.
void installLogging(LogLevel level);

} // namespace redrive::daemon
