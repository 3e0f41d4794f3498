// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#pragma once

#include "admin/requestcontext.h"

// Privacy by role: the original of a redacted body, for operators and auditors, with a reason.
namespace redrive::admin {

// POST events/{id}/reveal {"reason"}: the original body of one event, audited payload_revealed
// (the reason, never the body). 409 payload_erased once an erasure removed it.
http::Response revealEvent(RequestContext &ctx, qint64 eventId);

} // namespace redrive::admin
