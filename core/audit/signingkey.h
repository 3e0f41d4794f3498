// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#pragma once

#include "util/result.h"

#include <QByteArray>
#include <QByteArrayView>
#include <QString>

#include <memory>

namespace redrive::audit {

// The receiver's Ed25519 key for signed audit checkpoints (OpenSSL EVP). The private key lives
// in a PEM (PKCS#8) file readable only by its owner; the raw 32-byte public key is published in
// every checkpoint so an auditor can check signatures offline.
class SigningKey final {
public:
    ~SigningKey();
    SigningKey(const SigningKey &) = delete;
    SigningKey &operator=(const SigningKey &) = delete;

    // Loads `path`, or creates a new key there (mode 0600, atomically: a concurrent creator
    // never sees a half-written file). Refuses a key file that group or others can read.
    static Result<std::unique_ptr<SigningKey>> loadOrCreate(const QString &path, bool *created = nullptr);
    static Result<std::unique_ptr<SigningKey>> load(const QString &path);
    // An in-memory key (tests, tools).
    static Result<std::unique_ptr<SigningKey>> generate();

    [[nodiscard]] QByteArray publicKey() const; // raw, 32 bytes
    // First 16 hex digits of SHA-256(public key): a short name to compare keys by.
    [[nodiscard]] QString keyId() const;
    [[nodiscard]] QByteArray sign(QByteArrayView message) const; // 64 bytes; empty on failure

    static bool verify(QByteArrayView publicKey, QByteArrayView message, QByteArrayView signature);
    static QString keyIdOf(QByteArrayView publicKey);
    // The raw 32-byte key of a PEM "PUBLIC KEY" (SubjectPublicKeyInfo) block holding an Ed25519
    // key, e.g. from `openssl pkey -in audit-key.pem -pubout`; fails with a reason otherwise.
    static Result<QByteArray> publicKeyFromPem(QByteArrayView pem);

private:
    struct Impl;
    explicit SigningKey(std::unique_ptr<Impl> impl);
    std::unique_ptr<Impl> d;
};

} // namespace redrive::audit
