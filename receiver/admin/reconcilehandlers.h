// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#pragma once

#include "admin/requestcontext.h"

// GET reconciliations?source=&limit=&cursor= (every role) and POST sources/{name}/reconcile
// (operator, admin): the runs of reconciliation with the provider (docs/admin-api.md).
namespace redrive::admin {

// {"id", "source", "provider", "started_at", "finished_at", "status", "checked", "missing",
//  "recovered", "error", "requested_by"}
QJsonObject reconcileRunJson(const reconcile::Run &run);

http::Response listReconciliations(RequestContext &ctx);
http::Response requestReconciliation(RequestContext &ctx, const QString &source);

} // namespace redrive::admin
