// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#pragma once

#include "secrets/secretstore.h"

namespace redrive::ui {

// The OS keychain through QtKeychain (the Secret Service on Linux). There is deliberately no
// plaintext fallback: when no keychain answers, jobs fail with SecretStatus::Unavailable and
// the dialog says that credentials cannot be remembered.
class KeychainSecretStore final : public SecretStore {
public:
    explicit KeychainSecretStore(QString service = QStringLiteral("redrive"));
    SecretJob *read(const QString &key) override;
    SecretJob *write(const QString &key, const QString &secret) override;
    SecretJob *remove(const QString &key) override;

private:
    QString m_service;
};

} // namespace redrive::ui
