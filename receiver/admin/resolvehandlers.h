// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#pragma once

#include "admin/requestcontext.h"

// Dead letters resolved without a replay (support and operators; see core/replay/resolution.h).
namespace redrive::admin {

// POST deliveries/resolve {"delivery_ids":[…] | "filter":{…}, "resolution", "reason", "ticket"?,
// "dry_run"?}: with dry_run, which deliveries it would resolve and nothing changes.
http::Response resolveDeliveries(RequestContext &ctx);

} // namespace redrive::admin
