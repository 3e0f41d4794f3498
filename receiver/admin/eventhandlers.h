// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#pragma once

#include "admin/requestcontext.h"

// Events, deliveries and notes.
namespace redrive::admin {

http::Response listEvents(RequestContext &ctx); // GET events
http::Response getEvent(RequestContext &ctx, qint64 id); // GET events/{id}
http::Response addNote(RequestContext &ctx, qint64 eventId); // POST events/{id}/notes
http::Response listDeliveries(RequestContext &ctx); // GET deliveries
http::Response getDelivery(RequestContext &ctx, qint64 id); // GET deliveries/{id}

} // namespace redrive::admin
