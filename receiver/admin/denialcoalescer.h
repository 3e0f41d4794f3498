// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#pragma once

#include "audit/auditentry.h"

#include <QHash>
#include <QList>
#include <QString>
#include <QStringList>

#include <mutex>

// permission_denied entries coalesced per token and minute, so a loop of forbidden calls cannot
// grow the append-only audit log without bound.
//
//   first denial of a token in a clock minute ──▶ written at once, details.count = 1
//   further denials in that minute           ──▶ counted here (with the distinct actions tried)
//   the minute has passed                    ──▶ one more entry, details.count = N, coalesced
//
// So a token costs at most two entries a minute however fast it loops, the first refusal is
// visible immediately, and the entries' counts add up to every refusal. Closed minutes are written
// by the next admin request (any caller) or at shutdown; a crash loses at most the open minute's
// tally (the redrive_admin_forbidden_total metric still counts each refusal).
namespace redrive::admin {

class DenialCoalescer final {
public:
    static constexpr qint64 kWindowMs = 60'000;
    static constexpr int kMaxActionsListed = 20;

    struct Denial {
        qint64 tokenId = 0;
        QString actor; // token name
        QString owner;
        QString role;
        QString attempted; // access::Action name
        QString target;
    };

    // True when this denial is the first of its token's minute and must be written now; false when
    // it was counted into that minute's pending tally.
    bool admit(const Denial &denial, qint64 nowMs);

    // The tallies of minutes that ended at or before nowMs (every tally when `all`), removed from
    // here, as the audit records to append.
    QList<audit::AuditRecord> takeClosed(qint64 nowMs, bool all = false);
    [[nodiscard]] bool hasPending();

private:
    struct Window {
        qint64 minute = 0; // nowMs / kWindowMs of the first denial
        Denial last;
        int further = 0; // denials after the first, not yet written
        QStringList attempted;
    };
    static audit::AuditRecord recordFor(const Window &window);

    std::mutex m_mutex;
    QHash<qint64, Window> m_windows; // by token id
    QList<Window> m_closed; // replaced by a newer minute before they were written
};

} // namespace redrive::admin
