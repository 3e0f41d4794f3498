// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#include "subcommands.h"

namespace redrive::daemon {
namespace {

int unavailable(const QString &name, QTextStream &err)
{
    err << "redrived: " << name << ": not available in this build\n";
    return 2;
}

} // namespace

// ===== EXTENSION POINT: CLI subcommands =================================================
// Replace each `run` with the real command (same signature), e.g. for the admin room:
//     {QStringLiteral("token"), ..., [](const Config &c, const QStringList &a, QTextStream &o, QTextStream &e) {
//          return admin::tokenCommand(c, a, o, e); }},
//     {QStringLiteral("audit"), ..., [](const Config &c, const QStringList &a, QTextStream &o, QTextStream &e) {
//          return admin::auditCommand(c, a, o, e); }},
// and link redrive_admin into redrive_daemon.
// ==========================================================================================
std::vector<Subcommand> subcommands()
{
    return {
        {QStringLiteral("token"),
         QStringLiteral("token create --name NAME --role ROLE [--expires 90d]   prints the token once\n"
                        "token revoke --name NAME"),
         [](const Config &, const QStringList &, QTextStream &, QTextStream &err) {
             return unavailable(QStringLiteral("token"), err);
         }},
        {QStringLiteral("audit"),
         QStringLiteral("audit verify        exit 0 when the chain is intact, else names the first bad entry"),
         [](const Config &, const QStringList &, QTextStream &, QTextStream &err) {
             return unavailable(QStringLiteral("audit"), err);
         }},
    };
}

} // namespace redrive::daemon
