// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#include "permissions.h"

namespace redrive::ui {

Permissions Permissions::forRole(std::optional<Role> role)
{
    Permissions p;
    if (!role)
        return p; // not signed in to the admin API: read-only browsing
    switch (*role) {
    case Role::Support:
        p.replay = true;
        p.addNotes = true;
        break;
    case Role::Operator:
        p.replay = true;
        p.approve = true;
        p.readAudit = true;
        p.addNotes = true;
        break;
    case Role::Auditor:
        p.readAudit = true;
        break;
    case Role::Admin:
        p.readAudit = true;
        p.manageDestinations = true;
        p.addNotes = true;
        break;
    }
    return p;
}

} // namespace redrive::ui
