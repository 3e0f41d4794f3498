// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#pragma once

#include "admin/requestcontext.h"

// Revalidation of quarantined events: after a schema is fixed, support checks `invalid` events
// again against the schemas now configured; the ones that pass get their deliveries.
namespace redrive::admin {

// Most events one POST events/revalidate checks; a larger selection continues with its cursor.
inline constexpr int kMaxRevalidate = 1000;

http::Response revalidateEvent(RequestContext &ctx, qint64 id); // POST events/{id}/revalidate
http::Response revalidateEvents(RequestContext &ctx); // POST events/revalidate

// The `validation_errors` of GET events/{id}: [] when the event has none.
Result<QJsonArray> validationErrorsOf(Db &db, qint64 eventId);

} // namespace redrive::admin
