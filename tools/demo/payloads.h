// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#pragma once

#include <QByteArray>
#include <QList>
#include <QRandomGenerator>
#include <QString>

#include <utility>

namespace redrive::demo {

// One webhook as a provider would send it: headers (unsigned) and the exact body bytes.
struct DemoEvent {
    QString source; // the receiver's source name: github, stripe, shopify, accounts
    QString scheme; // github, stripe, shopify, standard-webhooks
    QByteArray id; // the provider's event id
    QByteArray type;
    QByteArray body;
    QList<std::pair<QByteArray, QByteArray>> headers;
};

// Realistic payloads shaped like the providers' documented examples (GitHub push and
// pull_request, Stripe payment and invoice events, Shopify orders, a Standard Webhooks app).
DemoEvent makeEvent(QRandomGenerator &rng, qint64 nowSeconds);

} // namespace redrive::demo
