// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#pragma once

#include "config/config.h"
#include "storage/ingeststore.h"

namespace redrive::privacy {

// Fills the redacted copy of a new event from its source's `redact` pointers: the redacted body,
// the pointers that matched and the business keys read from a redacted value, each empty when
// nothing matched. Every way an event is recorded calls this before it is stored (a webhook on
// the I/O thread, a reconciliation run), so the copy is written in the event's transaction.
void redactIncoming(IncomingEvent &event, const SourceConfig &source);

// The names of `source`'s keys that are read from a redacted value and were found in `keys`.
QStringList redactedKeyNames(const SourceConfig &source, const QList<EventKey> &keys);

} // namespace redrive::privacy
