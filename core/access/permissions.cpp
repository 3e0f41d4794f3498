// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#include "permissions.h"

#include <array>

namespace redrive::access {
namespace {
struct Row {
    Action action {};
    QStringView name;
    bool support = false, operatorRole = false, auditor = false, admin = false;
};

constexpr std::array<Row, 19> kMatrix { {
    //                                              support operator auditor admin
    { Action::ReadEvents, u"read_events", true, true, true, true },
    { Action::ReadReplays, u"read_replays", true, true, true, true },
    { Action::AddNote, u"add_note", true, true, false, false },
    { Action::RequestReplay, u"request_replay", true, true, false, false },
    { Action::RequestHighRiskReplay, u"request_high_risk_replay", true, true, false, false },
    { Action::DecideReplay, u"decide_replay", false, true, false, false },
    { Action::CancelReplay, u"cancel_replay", true, true, false, true },
    { Action::ReadAudit, u"read_audit", false, true, true, true },
    { Action::ExportEvidence, u"export_evidence", false, true, true, true },
    { Action::ManageDestinations, u"manage_destinations", false, false, false, true },
    { Action::ManageTokens, u"manage_tokens", false, false, false, true },
    { Action::AcknowledgeIncident, u"acknowledge_incident", true, true, false, false },
    { Action::RunReconciliation, u"run_reconciliation", false, true, false, true },
    { Action::RevalidateEvents, u"revalidate_events", true, true, false, false },
    { Action::ResolveDeliveries, u"resolve_deliveries", true, true, false, false },
    { Action::RevealPayload, u"reveal_payload", false, true, true, false },
    { Action::RequestErasure, u"request_erasure", false, true, false, false },
    { Action::DecideErasure, u"decide_erasure", false, true, false, false },
    { Action::HoldEvents, u"hold_events", false, true, true, false },
} };

const Row *rowOf(Action action)
{
    for (const Row &r : kMatrix) {
        if (r.action == action)
            return &r;
    }
    return nullptr;
}
} // namespace

bool allows(Role role, Action action)
{
    const Row *r = rowOf(action);
    if (!r)
        return false;
    switch (role) {
    case Role::Support:
        return r->support;
    case Role::Operator:
        return r->operatorRole;
    case Role::Auditor:
        return r->auditor;
    case Role::Admin:
        return r->admin;
    }
    return false;
}

QString toString(Action action)
{
    const Row *r = rowOf(action);
    return r ? r->name.toString() : QString();
}

std::optional<Action> actionFromString(QStringView name)
{
    for (const Row &r : kMatrix) {
        if (r.name == name)
            return r.action;
    }
    return std::nullopt;
}

QList<Action> allActions()
{
    QList<Action> out;
    for (const Row &r : kMatrix)
        out.append(r.action);
    return out;
}

QStringList allowedActionNames(Role role)
{
    QStringList out;
    for (const Row &r : kMatrix) {
        if (allows(role, r.action))
            out.append(r.name.toString());
    }
    return out;
}

} // namespace redrive::access
