// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#include "logging.h"

#include "util/clock.h"

#include <QLoggingCategory>

#include <cstdio>

namespace redrive::daemon {
namespace {

const char *levelName(QtMsgType type)
{
    switch (type) {
    case QtDebugMsg:
        return "debug  ";
    case QtInfoMsg:
        return "info   ";
    case QtWarningMsg:
        return "warning";
    case QtCriticalMsg:
        return "error  ";
    case QtFatalMsg:
        return "fatal  ";
    }
    return "info   ";
}

void writeLine(QtMsgType type, const QMessageLogContext &context, const QString &message)
{
    QByteArray line = isoUtc(Clock::system().nowMs()).toUtf8();
    line += ' ';
    line += levelName(type);
    line += ' ';
    if (context.category && qstrcmp(context.category, "default") != 0) {
        line += context.category;
        line += ": ";
    }
    line += message.toUtf8();
    line += '\n';
    // One write per line, so lines from several threads do not interleave.
    std::fwrite(line.constData(), 1, static_cast<size_t>(line.size()), stderr);
    std::fflush(stderr);
}

} // namespace

std::optional<LogLevel> logLevelFromString(QStringView name)
{
    if (name == u"debug")
        return LogLevel::Debug;
    if (name == u"info")
        return LogLevel::Info;
    if (name == u"warning" || name == u"warn")
        return LogLevel::Warning;
    if (name == u"error")
        return LogLevel::Error;
    return std::nullopt;
}

void installLogging(LogLevel level)
{
    QString rules;
    switch (level) {
    case LogLevel::Debug:
        rules = QStringLiteral("redrive.*.debug=true");
        break;
    case LogLevel::Info:
        rules = QStringLiteral("*.debug=false");
        break;
    case LogLevel::Warning:
        rules = QStringLiteral("*.debug=false\n*.info=false");
        break;
    case LogLevel::Error:
        rules = QStringLiteral("*.debug=false\n*.info=false\n*.warning=false");
        break;
    }
    QLoggingCategory::setFilterRules(rules);
    qInstallMessageHandler(writeLine);
}

} // namespace redrive::daemon
