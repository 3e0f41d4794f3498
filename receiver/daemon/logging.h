// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#pragma once

#include <QByteArray>
#include <QString>

#include <optional>

namespace redrive::daemon {

enum class LogLevel { Debug, Info, Warning, Error };
std::optional<LogLevel> logLevelFromString(QStringView name);

enum class LogFormat { Text, Json };

// Routes every Qt log message to stderr as one line, written at once (lines of several threads
// never interleave), and drops messages below `level` before they are formatted:
//   2026-11-30T06:54:14.123Z info    redrive.http: ingest: listening on 127.0.0.1:8080
// When stderr is the journal (systemd sets JOURNAL_STREAM to its device and inode), each line
// starts with its priority as journald reads it (sd-daemon(3): <7> debug … <3> error, <2> fatal)
// and carries no timestamp of its own, the journal keeps one:
//   <6>redrive.http: ingest: listening on 127.0.0.1:8080
// Redrive never logs secrets: they are only ever referred to by their label.
void installLogging(LogLevel level);
// From [server] log_format, once the configuration is read; until then lines are text.
// Json: one object per line, {"time", "level", "category", "message"} and "event_id",
// "delivery_id", "replay_id" when the message names one ("delivery 42: …"), so one search follows
// an event through ingest, delivery and replay. Under the journal the priority prefix stays.
void setLogFormat(LogFormat format);

// One formatted line, newline included (what installLogging writes; exposed for tests).
QByteArray formatLogLine(QtMsgType type, const char *category, const QString &message, qint64 nowMs,
    LogFormat format, bool journal);
// Whether stderr is the journal stream JOURNAL_STREAM names ("device:inode").
bool stderrIsJournal();

} // namespace redrive::daemon
