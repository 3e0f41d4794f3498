// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#pragma once

#include "domain/types.h"

#include <QList>
#include <QStringList>

#include <optional>

namespace redrive::access {

// What a caller may attempt. The admin API checks one of these before touching anything; the
// console asks allows() to decide which actions to offer at all.
enum class Action {
    ReadEvents, // events, deliveries, attempts, notes, destinations
    ReadReplays, // replay requests and their items
    AddNote, // notes on events
    RequestReplay, // preview and request low-risk, not-yet-succeeded replays
    RequestHighRiskReplay, // request replays that need approval
    DecideReplay, // approve / reject someone else's request
    CancelReplay, // cancel a request: its requester, or any request for admin
    ReadAudit, // read and verify the audit log, export checkpoints
    ExportEvidence, // signed evidence bundles of one event (the same row of the table)
    ManageDestinations, // pause / resume
    ManageTokens, // create / revoke API tokens
    AcknowledgeIncident, // say "I am on it" about an incident (a dead-letter group that appeared)
    RunReconciliation, // ask a source's reconciliation with the provider to run now
    RevalidateEvents, // check events again against the configured schemas (support, operator)
    ResolveDeliveries, // mark dead letters resolved without a replay (support, operator)
    RevealPayload, // read one event's original body, redacted values included (operator, auditor)
    RequestErasure, // ask for a person's events to be erased (operator)
    DecideErasure, // approve / reject someone else's erasure request (operator)
    HoldEvents, // put an event under legal hold or lift it (operator, auditor)
};

// The roles × actions table of docs/admin-api.md ("Roles"), exactly:
//   read events, deliveries, attempts ............ support operator auditor admin
//   replay low-risk, not-yet-succeeded ........... support operator
//   request a high-risk replay .................... support operator
//   approve / reject someone else's request ....... operator
//   read and verify the audit log, export evidence  operator auditor admin
//   pause / resume destinations, manage tokens .... admin
// plus: replay requests are readable by every role (auditors review who replayed what), notes
// are added, incidents acknowledged, events revalidated and dead letters resolved by those who
// triage (support, operator),
// the original of a redacted body is revealed, with a reason, by operators and auditors; erasures
// are requested and decided (by a second person) by operators; legal holds are set and lifted by
// operators and auditors;
// a reconciliation is run on demand by operators and admins (it calls the provider's API with the
// source's credential), and cancel is for requesters and admins (the API additionally requires a
// non-admin to be the requester).
[[nodiscard]] bool allows(Role role, Action action);

[[nodiscard]] QString toString(Action action); // "read_events", "decide_replay", ...
[[nodiscard]] std::optional<Action> actionFromString(QStringView name);
[[nodiscard]] QList<Action> allActions();
[[nodiscard]] QStringList allowedActionNames(Role role);

} // namespace redrive::access
