// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#include "permissions.h"

#include "access/permissions.h"

namespace redrive::ui {

Permissions Permissions::forRole(std::optional<Role> role)
{
    Permissions p;
    if (!role)
        return p; // not signed in to the admin API: read-only browsing
    // The admin API's own table decides, so the console never offers what it would refuse.
    p.replay = access::allows(*role, access::Action::RequestReplay);
    p.approve = access::allows(*role, access::Action::DecideReplay);
    p.readAudit = access::allows(*role, access::Action::ReadAudit);
    p.exportEvidence = access::allows(*role, access::Action::ExportEvidence);
    p.manageDestinations = access::allows(*role, access::Action::ManageDestinations);
    p.addNotes = access::allows(*role, access::Action::AddNote);
    p.acknowledgeIncidents = access::allows(*role, access::Action::AcknowledgeIncident);
    p.revalidateEvents = access::allows(*role, access::Action::RevalidateEvents);
    p.resolveDeliveries = access::allows(*role, access::Action::ResolveDeliveries);
    p.revealPayload = access::allows(*role, access::Action::RevealPayload);
    p.readReplays = access::allows(*role, access::Action::ReadReplays);
    p.reconcile = access::allows(*role, access::Action::RunReconciliation);
    return p;
}

} // namespace redrive::ui
