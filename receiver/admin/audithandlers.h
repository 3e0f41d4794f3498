// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#pragma once

#include "admin/requestcontext.h"

namespace redrive::admin {

http::Response whoami(RequestContext &ctx); // GET whoami
http::Response listAudit(RequestContext &ctx); // GET audit
http::Response verifyAudit(RequestContext &ctx); // GET audit/verify
http::Response auditCheckpoint(RequestContext &ctx); // GET audit/checkpoint

} // namespace redrive::admin
