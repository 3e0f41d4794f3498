// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#pragma once

#include <QByteArray>
#include <QByteArrayView>
#include <QList>

#include <utility>

namespace redrive {

// HTTP header fields in arrival order, with case-insensitive lookup. Used for incoming webhook
// requests (signature checks, stored redacted copies) and for destination responses.
class Headers {
public:
    using Field = std::pair<QByteArray, QByteArray>;

    void add(QByteArray name, QByteArray value) { m_fields.append({ std::move(name), std::move(value) }); }
    void reserve(qsizetype fields) { m_fields.reserve(fields); }
    // The first value of `name` (any case), or an empty view when absent.
    [[nodiscard]] QByteArrayView value(QByteArrayView name) const;
    [[nodiscard]] bool contains(QByteArrayView name) const;
    [[nodiscard]] const QList<Field> &fields() const { return m_fields; }
    [[nodiscard]] qsizetype size() const { return m_fields.size(); }

    // A copy safe to store and show: values of credential-bearing fields (Authorization,
    // Cookie, API keys, anything named like a token, secret or password) become "[redacted]",
    // and webhook signature fields (isSignature, plus `signatureHeader` when given: a generic
    // source's configured one) are left out altogether.
    [[nodiscard]] Headers redacted(QByteArrayView signatureHeader = {}) const;
    // JSON array of [name, value] pairs (names as received), the stored form.
    [[nodiscard]] QByteArray toJson() const;
    static Headers fromJson(const QByteArray &json);

    static bool isSensitive(QByteArrayView name);
    // The signature fields of the schemes Redrive verifies (X-Hub-Signature-256, X-Hub-Signature,
    // Stripe-Signature, webhook-signature, X-Shopify-Hmac-Sha256) and the generic scheme's
    // default X-Signature. Never stored or shown: the schemes that sign only the body (GitHub,
    // Shopify, generic HMAC) would let anyone who reads one re-send the event under a new id.
    static bool isSignature(QByteArrayView name);
    // isSignature, or `name` equals `extra` (any case) when `extra` is not empty.
    static bool isSignature(QByteArrayView name, QByteArrayView extra);

private:
    QList<Field> m_fields;
};

} // namespace redrive
