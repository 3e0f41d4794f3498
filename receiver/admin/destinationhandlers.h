// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#pragma once

#include "admin/requestcontext.h"

// Destinations: their pause and circuit state, and what an operator may do about them.
namespace redrive::admin {

http::Response listDestinations(RequestContext &ctx); // GET destinations
http::Response setDestinationPaused(
    RequestContext &ctx, const QString &name, bool paused); // POST destinations/{name}/pause|resume
http::Response closeDestinationCircuit(
    RequestContext &ctx, const QString &name); // POST destinations/{name}/circuit/close

} // namespace redrive::admin
