// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#pragma once

#include "config/config.h"
#include "util/headers.h"

#include <QByteArrayView>
#include <QJsonValue>
#include <QString>

#include <optional>

// What an attempt keeps of a destination's answer: a few response headers, a bounded redacted
// excerpt of the body, and the destination's own reference for the event (success_ref).
namespace redrive::delivery {

// The response headers worth keeping for triage (Content-Type, Location, Retry-After, request
// ids, ...) plus `extraName` (the success_ref header), credential-bearing values redacted, each
// value cut to 256 bytes.
Headers selectResponseHeaders(const Headers &response, QByteArrayView extraName = {});

// At most `maxBytes` bytes of valid UTF-8 (cut at a character boundary; invalid input bytes
// become U+FFFD). A JSON body has the values of credential-like members ("token", "secret",
// "password", ...) replaced with "[redacted]" first.
QString responseExcerpt(QByteArrayView body, int maxBytes);

// The destination's reference from a response header or a JSON pointer into the body; at most
// 256 characters. nullopt when not configured or absent.
std::optional<QString> downstreamReference(
    const SuccessRef &ref, const Headers &headers, QByteArrayView body);

// The ordering key of an event for a destination with ordering_key = "json:/pointer": the
// scalar at that pointer (at most 256 characters). nullopt when the destination is unordered
// or the body has no such value; such deliveries are not serialised.
// The key is what a sender wrote, so it is made safe to store: cut to 256 characters, NUL
// replaced (storedtext::safeText), and an empty value is no key (it would serialise every event
// that lacks one).
std::optional<QString> orderingKeyFor(const DestinationConfig &destination, QByteArrayView body);

// The same from a body already parsed (nullopt root: the body is not JSON), for a caller that
// reads several destinations' keys from one event.
std::optional<QString> orderingKeyFor(
    const DestinationConfig &destination, const std::optional<QJsonValue> &root);

} // namespace redrive::delivery
