// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#pragma once

#include "admin/requestcontext.h"
#include "audit/signedhead.h"

#include <mutex>
#include <optional>

namespace redrive::admin {

http::Response whoami(RequestContext &ctx); // GET whoami
http::Response listAudit(RequestContext &ctx); // GET audit
http::Response verifyAudit(RequestContext &ctx); // GET audit/verify
http::Response auditCheckpoint(RequestContext &ctx); // GET audit/checkpoint

// The "audit" of a detail answer (GET events/{id}, replays/{id}): the first `limit` entries about
// `target`, oldest first, as GET audit writes them.
Result<QJsonArray> auditTrailJson(Db &db, const QString &target, int limit);

// Checkpoint work — walking the whole audit chain, signing its head and moving the signed-head
// file forward (GET audit/checkpoint, evidence exports) — runs one request at a time per
// receiver. Takes that turn into `turn` and answers nullopt, or answers 503 busy (Retry-After)
// at once when another request holds it: waiting for it would hold an admin worker for as long
// as a long chain takes to verify, and a few such requests would hold every worker, so that even
// GET whoami queued behind them.
std::optional<http::Response> takeCheckpointTurn(RequestContext &ctx, std::unique_lock<std::mutex> *turn);
// audit::makeGuardedCheckpoint with this receiver's key, signed-head file and clock (then the
// test seam ctx.checkpointHook). Hold the checkpoint turn.
audit::GuardedCheckpoint signCheckpoint(RequestContext &ctx);
// Signs the head of the audit log through signCheckpoint() (the chain must verify and
// extend the last signed head, kept next to the audit key). When it refuses, `refusal` gets
// checkpointRefused(); when it fails, a 500. Call it outside any transaction.
std::optional<audit::Checkpoint> guardedCheckpoint(RequestContext &ctx, http::Response *refusal);
// A refused checkpoint: counted, audited (action checkpoint_refused, in a transaction of its own,
// so call it with none open) and answered 409 audit_chain_broken.
http::Response checkpointRefused(RequestContext &ctx, const audit::GuardedCheckpoint &refused);

} // namespace redrive::admin
