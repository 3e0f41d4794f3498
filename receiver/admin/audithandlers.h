// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#pragma once

#include "admin/requestcontext.h"
#include "audit/signedhead.h"

#include <optional>

namespace redrive::admin {

http::Response whoami(RequestContext &ctx); // GET whoami
http::Response listAudit(RequestContext &ctx); // GET audit
http::Response verifyAudit(RequestContext &ctx); // GET audit/verify
http::Response auditCheckpoint(RequestContext &ctx); // GET audit/checkpoint

// Signs the head of the audit log through audit::makeGuardedCheckpoint (the chain must verify and
// extend the last signed head, kept next to the audit key). When it refuses, `refusal` gets
// checkpointRefused(); when it fails, a 500. Call it outside any transaction.
std::optional<audit::Checkpoint> guardedCheckpoint(RequestContext &ctx, http::Response *refusal);
// A refused checkpoint: counted, audited (action checkpoint_refused, in a transaction of its own,
// so call it with none open) and answered 409 audit_chain_broken.
http::Response checkpointRefused(RequestContext &ctx, const audit::GuardedCheckpoint &refused);

} // namespace redrive::admin
