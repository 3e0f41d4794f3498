// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#pragma once

#include "storage/database.h"

#include <QByteArray>

#include <optional>

// event_validation: the schema errors of a quarantined event (status `invalid`). Written by
// ingest in the event's transaction and by revalidation; read by the event detail.
namespace redrive {

// Stores (or replaces) the errors of `eventId`, a JSON array of {"pointer","message"}.
Result<> storeValidationErrors(Db &db, qint64 eventId, const QByteArray &errorsJson, qint64 checkedAtMs);
// Forgets them (the event passed its schema).
Result<> clearValidationErrors(Db &db, qint64 eventId);
// The stored errors of `eventId`, nullopt when it has none.
Result<std::optional<QByteArray>> fetchValidationErrors(Db &db, qint64 eventId);

} // namespace redrive
