// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#pragma once

#include "domain/types.h"

#include <optional>

namespace redrive::ui {

// What the console offers to a role (README.md, "Roles"; the receiver's rules are core/access/permissions.h).
// The admin API enforces the same table; the console only hides what would be refused.
struct Permissions {
    bool replay = false; // request replays (low risk directly, high risk for approval)
    bool approve = false; // approve or reject someone else's request
    bool readAudit = false; // audit log and its verification
    bool exportEvidence = false; // signed evidence bundles from the receiver
    bool manageDestinations = false;
    bool addNotes = false;
    bool readReplays = false; // replay requests, their items and outcomes
    bool acknowledgeIncidents = false; // say "I am on it" about an incident
    bool reconcile = false; // start a reconciliation with the provider now (operator, admin)
    bool revalidateEvents = false; // check quarantined events again against the schemas
    bool resolveDeliveries = false; // mark dead letters resolved without a replay
    bool revealPayload = false; // see the original of a redacted body, with a reason (operator, auditor)

    static Permissions forRole(std::optional<Role> role);
};

} // namespace redrive::ui
