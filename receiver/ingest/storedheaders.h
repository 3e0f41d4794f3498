// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#pragma once

#include "util/headers.h"

#include <QByteArray>

namespace redrive::ingest {

// The stored form of a request's headers: exactly Headers::redacted(signatureHeader).toJson()
// (credentials redacted, signature fields left out), built without a JSON DOM for the common case
// (printable ASCII names and values), since it runs for every accepted webhook on an I/O thread.
// Anything unusual falls back to the reference encoder.
QByteArray redactedHeadersJson(const Headers &headers, QByteArrayView signatureHeader = {});

} // namespace redrive::ingest
