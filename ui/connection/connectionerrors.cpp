// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#include "connectionerrors.h"

#include <QCoreApplication>

namespace redrive::ui {
namespace {

bool has(const QString &text, const char *needle)
{
    return text.contains(QLatin1String(needle), Qt::CaseInsensitive);
}

} // namespace

ConnectionProblem explainDatabaseError(const ConnectionProfile &p, const QString &driverText)
{
    ConnectionProblem out;
    out.detail = driverText.trimmed();
    if (p.databaseKind == ConnectionProfile::DatabaseKind::Sqlite) {
        out.field = QStringLiteral("sqlitePath");
        if (has(driverText, "does not exist"))
            out.summary = QCoreApplication::translate("redrive::ui::ConnectionErrors",
                "There is no database file at %1. Check the path, and that the receiver has "
                "started at least once (it creates the file).")
                              .arg(p.sqlitePath);
        else if (has(driverText, "not a database") || has(driverText, "file is encrypted"))
            out.summary = QCoreApplication::translate("redrive::ui::ConnectionErrors",
                "%1 is not a SQLite database. Choose the file named in the receiver's "
                "[storage] url.")
                              .arg(p.sqlitePath);
        else if (has(driverText, "unable to open") || has(driverText, "permission")
            || has(driverText, "readonly"))
            out.summary = QCoreApplication::translate("redrive::ui::ConnectionErrors",
                "The database file %1 cannot be opened for reading. Check that your user may "
                "read it and the folder it is in (the WAL files live beside it).")
                              .arg(p.sqlitePath);
        else if (has(driverText, "locked") || has(driverText, "busy"))
            out.summary = QCoreApplication::translate(
                "redrive::ui::ConnectionErrors", "The database is busy. Try again in a moment.");
        else
            out.summary = QCoreApplication::translate(
                "redrive::ui::ConnectionErrors", "The database file %1 could not be read.")
                              .arg(p.sqlitePath);
        return out;
    }
    const QString where = QStringLiteral("%1:%2").arg(p.pgHost).arg(p.pgPort);
    if (has(driverText, "password authentication failed") || has(driverText, "authentication failed")) {
        out.field = QStringLiteral("pgPassword");
        out.summary = QCoreApplication::translate("redrive::ui::ConnectionErrors",
            "PostgreSQL at %1 rejected the password for user \"%2\". Enter the password again "
            "(it replaces the one in the keychain).")
                          .arg(where, p.pgUser);
    } else if (has(driverText, "no password supplied") || has(driverText, "password is required")) {
        out.field = QStringLiteral("pgPassword");
        out.summary = QCoreApplication::translate("redrive::ui::ConnectionErrors",
            "PostgreSQL at %1 asks for a password and none is stored for this profile. "
            "Enter it in the password field.")
                          .arg(where);
    } else if (has(driverText, "could not translate host name")
        || has(driverText, "Name or service not known") || has(driverText, "nodename nor servname")) {
        out.field = QStringLiteral("pgHost");
        out.summary = QCoreApplication::translate("redrive::ui::ConnectionErrors",
            "The host name \"%1\" does not resolve. Check the spelling, or use an IP address.")
                          .arg(p.pgHost);
    } else if (has(driverText, "Connection refused")) {
        out.field = QStringLiteral("pgPort");
        out.summary = QCoreApplication::translate("redrive::ui::ConnectionErrors",
            "Nothing accepts connections at %1. PostgreSQL is not running there, listens on "
            "another port, or a firewall refuses the connection.")
                          .arg(where);
    } else if (has(driverText, "timeout expired") || has(driverText, "timed out")
        || has(driverText, "No route to host") || has(driverText, "Network is unreachable")) {
        out.field = QStringLiteral("pgHost");
        out.summary = QCoreApplication::translate("redrive::ui::ConnectionErrors",
            "%1 could not be reached in time. The host may be down, or a VPN or firewall is "
            "in the way.")
                          .arg(where);
    } else if (has(driverText, "certificate") || has(driverText, "SSL") || has(driverText, "TLS")) {
        out.field = QStringLiteral("pgSslMode");
        if (has(driverText, "does not support SSL") || has(driverText, "server does not support"))
            out.summary = QCoreApplication::translate("redrive::ui::ConnectionErrors",
                "The server at %1 does not offer TLS, but the profile requires it (sslmode=%2).")
                              .arg(where, p.pgSslMode);
        else
            out.summary = QCoreApplication::translate("redrive::ui::ConnectionErrors",
                "The TLS connection to %1 failed: the server's certificate does not match the "
                "CA certificate or host name in the profile (sslmode=%2).")
                              .arg(where, p.pgSslMode);
    } else if (has(driverText, "database") && has(driverText, "does not exist")) {
        out.field = QStringLiteral("pgDatabase");
        out.summary = QCoreApplication::translate(
            "redrive::ui::ConnectionErrors", "The server at %1 has no database named \"%2\".")
                          .arg(where, p.pgDatabase);
    } else if (has(driverText, "role") && has(driverText, "does not exist")) {
        out.field = QStringLiteral("pgUser");
        out.summary = QCoreApplication::translate(
            "redrive::ui::ConnectionErrors", "The server at %1 has no user named \"%2\".")
                          .arg(where, p.pgUser);
    } else if (has(driverText, "pg_hba.conf")) {
        out.field = QStringLiteral("pgUser");
        out.summary = QCoreApplication::translate("redrive::ui::ConnectionErrors",
            "The server at %1 does not accept this user from this machine (pg_hba.conf), or "
            "only over TLS. Ask the database administrator.")
                          .arg(where);
    } else if (has(driverText, "permission denied")) {
        out.field = QStringLiteral("pgUser");
        out.summary = QCoreApplication::translate("redrive::ui::ConnectionErrors",
            "User \"%1\" may not read the Redrive tables. Grant it SELECT on the schema.")
                          .arg(p.pgUser);
    } else {
        out.summary = QCoreApplication::translate(
            "redrive::ui::ConnectionErrors", "The connection to PostgreSQL at %1 failed.")
                          .arg(where);
    }
    return out;
}

std::optional<ConnectionProblem> checkSchemaVersion(
    const ConnectionProfile &p, int version, int expected, const QString &driverText)
{
    if (version == expected)
        return std::nullopt;
    ConnectionProblem out;
    out.field = p.databaseKind == ConnectionProfile::DatabaseKind::Sqlite ? QStringLiteral("sqlitePath")
                                                                          : QStringLiteral("pgDatabase");
    if (version < 0) {
        ConnectionProblem e = explainDatabaseError(p, driverText);
        if (e.summary.isEmpty() || driverText.isEmpty())
            e.summary = QCoreApplication::translate(
                "redrive::ui::ConnectionErrors", "The schema version of the database could not be read.");
        return e;
    }
    if (version == 0)
        out.summary = QCoreApplication::translate("redrive::ui::ConnectionErrors",
            "%1 is not a Redrive database, or it was never migrated. Run "
            "`redrived --config FILE migrate` for it first.")
                          .arg(p.databaseDescription());
    else if (version < expected)
        out.summary = QCoreApplication::translate("redrive::ui::ConnectionErrors",
            "The database uses schema version %1, older than this console's %2. Upgrade the "
            "receiver and run `redrived --config FILE migrate`.")
                          .arg(version)
                          .arg(expected);
    else
        out.summary = QCoreApplication::translate("redrive::ui::ConnectionErrors",
            "The database uses schema version %1, newer than this console understands (%2). "
            "Install the console that matches the receiver's version.")
                          .arg(version)
                          .arg(expected);
    return out;
}

} // namespace redrive::ui
