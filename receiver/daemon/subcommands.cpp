// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#include "subcommands.h"

#include "admin/admincli.h"
#include "checkcommand.h"

namespace redrive::daemon {
std::vector<Subcommand> subcommands()
{
    return {
        { QStringLiteral("check"),
            QStringLiteral("check               validate the configuration, every secret reference and the\n"
                           "                    listen addresses without starting anything; exit 0, or 2\n"
                           "                    naming the key"),
            [](const Config &c, const QStringList &a, QTextStream &o, QTextStream &e) {
                return checkCommand(c, a, o, e);
            } },
        { QStringLiteral("token"),
            QStringLiteral(
                "token create --name NAME --owner PERSON --role ROLE [--expires 90d]   prints the token once\n"
                "token list                                            names, roles, expiry (never tokens)\n"
                "token revoke --name NAME"),
            [](const Config &c, const QStringList &a, QTextStream &o, QTextStream &e) {
                return admin::tokenCommand(c, a, o, e);
            } },
        { QStringLiteral("audit"),
            QStringLiteral(
                "audit verify [--checkpoint FILE]   exit 0 when the chain is intact, else names the first bad entry\n"
                "audit checkpoint [--out FILE]      prints (or writes) the signed head of the audit chain"),
            [](const Config &c, const QStringList &a, QTextStream &o, QTextStream &e) {
                return admin::auditCommand(c, a, o, e);
            } },
    };
}

} // namespace redrive::daemon
