// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#pragma once

#include "util/result.h"

#include <QByteArray>
#include <QList>
#include <QString>
#include <QUrl>

#include <optional>

// The providers' list answers, read strictly: a page that is not exactly the published shape
// fails the run (a malformed page must never look like "nothing missing").
//   Stripe  GET /v1/events   {"object":"list","data":[event…],"has_more":bool}
//   GitHub  GET /{hook}/deliveries
//   [{"id","guid","delivered_at","redelivery","status_code","event","action"}…]
//           with the next page in the Link header (rel="next")
namespace redrive::reconcile {

struct StripeEvent {
    QString id;
    QString type;
    qint64 createdSeconds = 0;
    QByteArray raw; // the event's JSON text exactly as the page held it: the recorded body
};

struct StripePage {
    QList<StripeEvent> events;
    bool hasMore = false;
};

Result<StripePage> parseStripePage(const QByteArray &body);

struct GitHubDelivery {
    qint64 id = 0;
    QString guid;
    qint64 deliveredAtMs = 0;
    bool redelivery = false;
    int statusCode = 0;
    QString event;
    QString action;
};

Result<QList<GitHubDelivery>> parseGitHubPage(const QByteArray &body);

// The rel="next" target of an RFC 8288 Link header; nullopt when there is none.
std::optional<QUrl> nextLink(const QByteArray &linkHeader);

// The human part of a provider's error body: Stripe's error.message, GitHub's message; cut to
// 200 characters, control characters dropped. Empty when the body holds none.
QString providerMessage(const QByteArray &body);

// Longest provider id and type Redrive stores (the ingest limits).
inline constexpr int kMaxIdLength = 1024;
inline constexpr int kMaxTypeLength = 512;

} // namespace redrive::reconcile
