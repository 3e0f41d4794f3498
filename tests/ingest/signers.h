// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#pragma once

// Signs test requests the way each provider does, with Redrive's own crypto wrappers.

#include <QByteArray>
#include <QList>

#include <utility>

namespace redrive::test {

using HeaderList = QList<std::pair<QByteArray, QByteArray>>;

HeaderList signGitHub(
    const QByteArray &secret, const QByteArray &body, const QByteArray &deliveryId, const QByteArray &event);
// `key` is the decoded whsec_ key.
HeaderList signStandardWebhooks(
    const QByteArray &key, const QByteArray &id, qint64 timestamp, const QByteArray &body);
// `secret` is the whole whsec_… string: Stripe uses it as the key as is.
HeaderList signStripe(const QByteArray &secret, qint64 timestamp, const QByteArray &body);
HeaderList signShopify(
    const QByteArray &secret, const QByteArray &body, const QByteArray &id, const QByteArray &topic);
// Generic scheme as configured by the ingest fixtures: X-Signature: sha256=<hex>, id in X-Event-Id.
HeaderList signGeneric(const QByteArray &secret, const QByteArray &body, const QByteArray &id = {});

} // namespace redrive::test
