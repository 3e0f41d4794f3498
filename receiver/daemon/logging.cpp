// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#include "logging.h"

#include "util/clock.h"

#include <QJsonDocument>
#include <QJsonObject>
#include <QLoggingCategory>
#include <QRegularExpression>

#include <atomic>
#include <cstdio>
#include <sys/stat.h>

namespace redrive::daemon {
namespace {

std::atomic<LogFormat> g_format { LogFormat::Text };
bool g_journal = false;

struct Level {
    const char *text; // padded, so messages line up
    const char *json;
    char priority; // syslog's, as journald reads it
};

Level levelOf(QtMsgType type)
{
    switch (type) {
    case QtDebugMsg:
        return { "debug  ", "debug", '7' };
    case QtInfoMsg:
        return { "info   ", "info", '6' };
    case QtWarningMsg:
        return { "warning", "warning", '4' };
    case QtCriticalMsg:
        return { "error  ", "error", '3' };
    case QtFatalMsg:
        return { "fatal  ", "fatal", '2' };
    }
    return { "info   ", "info", '6' };
}

// The ids a message names in the house style, "event 12", "delivery 42", "replay 7".
void addIds(QJsonObject &object, const QString &message)
{
    static const QRegularExpression named(QStringLiteral(R"(\b(event|delivery|replay) (\d{1,18})\b)"));
    for (auto it = named.globalMatch(message); it.hasNext();) {
        const auto m = it.next();
        const QString key = m.captured(1) + QLatin1String("_id");
        if (!object.contains(key))
            object.insert(key, m.captured(2).toLongLong());
    }
}

void writeLine(QtMsgType type, const QMessageLogContext &context, const QString &message)
{
    const QByteArray line = formatLogLine(type, context.category, message, Clock::system().nowMs(),
        g_format.load(std::memory_order_relaxed), g_journal);
    std::fwrite(line.constData(), 1, static_cast<size_t>(line.size()), stderr);
    std::fflush(stderr);
}

} // namespace

QByteArray formatLogLine(QtMsgType type, const char *category, const QString &message, qint64 nowMs,
    LogFormat format, bool journal)
{
    const Level level = levelOf(type);
    const bool named = category && qstrcmp(category, "default") != 0;
    QByteArray line;
    if (journal) {
        line += '<';
        line += level.priority;
        line += '>';
    }
    if (format == LogFormat::Json) {
        QJsonObject o { { QStringLiteral("time"), isoUtc(nowMs) },
            { QStringLiteral("level"), QLatin1String(level.json) },
            { QStringLiteral("category"),
                named ? QJsonValue(QLatin1String(category)) : QJsonValue(QJsonValue::Null) },
            { QStringLiteral("message"), message } };
        addIds(o, message);
        line += QJsonDocument(o).toJson(QJsonDocument::Compact);
    } else {
        if (!journal) {
            line += isoUtc(nowMs).toUtf8();
            line += ' ';
            line += level.text;
            line += ' ';
        }
        if (named) {
            line += category;
            line += ": ";
        }
        // A message is one line: a newline inside would start a forged one.
        line += QString(message).replace(u'\n', u' ').toUtf8();
    }
    line += '\n';
    return line;
}

bool stderrIsJournal()
{
    const QByteArray stream = qgetenv("JOURNAL_STREAM");
    const qsizetype colon = stream.indexOf(':');
    if (colon <= 0)
        return false;
    bool devOk = false, inoOk = false;
    const auto dev = stream.left(colon).toULongLong(&devOk);
    const auto ino = stream.mid(colon + 1).toULongLong(&inoOk);
    struct stat st { };
    if (!devOk || !inoOk || fstat(fileno(stderr), &st) != 0)
        return false;
    return static_cast<unsigned long long>(st.st_dev) == dev
        && static_cast<unsigned long long>(st.st_ino) == ino;
}

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
    g_journal = stderrIsJournal();
    qInstallMessageHandler(writeLine);
}

void setLogFormat(LogFormat format)
{
    g_format.store(format, std::memory_order_relaxed);
}

} // namespace redrive::daemon
