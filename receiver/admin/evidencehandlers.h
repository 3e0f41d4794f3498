// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#pragma once

#include "admin/requestcontext.h"

namespace redrive::admin {

// GET events/{id}/evidence[?reason=]: the event's evidence bundle (core/audit/evidence.h), built
// from this receiver's database in one transaction, anchored to a checkpoint of the audit log
// made in that transaction, and signed with the audit key. The export is audited
// (evidence_exported, event:N, with the bundle's SHA-256) in the same transaction: no bundle
// leaves without its entry. 503 without admin.audit_key_file.
http::Response exportEvidence(RequestContext &ctx, qint64 eventId);

} // namespace redrive::admin
