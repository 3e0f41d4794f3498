// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#pragma once

#include "admin/replaystore.h"
#include "admin/requestcontext.h"

#include <variant>

// Replay requests: preview (freeze), request, approve / reject (four eyes), cancel, reads.
namespace redrive::admin {

http::Response previewReplay(RequestContext &ctx); // POST replays/preview
http::Response createReplay(RequestContext &ctx); // POST replays
enum class Decision { Approve, Reject };
http::Response decideReplay(
    RequestContext &ctx, qint64 id, Decision decision); // POST replays/{id}/approve|reject
http::Response cancelReplay(RequestContext &ctx, qint64 id); // POST replays/{id}/cancel
http::Response listReplays(RequestContext &ctx); // GET replays
http::Response getReplay(RequestContext &ctx, qint64 id); // GET replays/{id}

// Shared by the replay handlers' files. The audit target of replay `id` ("replay:{id}").
QString replayTarget(qint64 id);
// Replay `id` read for an answer: its row, or the answer saying it does not exist (404
// not_found) or that the database failed while `doing`.
std::variant<ReplayRow, http::Response> readReplay(RequestContext &ctx, qint64 id, const char *doing);

} // namespace redrive::admin
