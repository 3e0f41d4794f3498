// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#pragma once

#include "admin/requestcontext.h"

// Incidents: dead-letter groups that appeared or grew (opened by the delivery engine's check).
namespace redrive::admin {

http::Response listIncidents(RequestContext &ctx); // GET incidents
http::Response acknowledgeIncident(RequestContext &ctx, qint64 id); // POST incidents/{id}/acknowledge

} // namespace redrive::admin
