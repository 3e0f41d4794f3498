// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#pragma once

#include "audit/chaincheck.h"

#include <QList>
#include <QString>

class QSettings;

namespace redrive::ui {

// What an auditor trusts for one connection profile, kept in settings (group
// "auditTrust/<profile>", apart from the profile's own keys): the receiver's audit key id,
// pinned on first use, and the checkpoints the auditor saved. Nothing here is secret: a key id
// is the hash of a public key, a checkpoint a seq and a hash.
class AuditTrustStore final {
public:
    AuditTrustStore(QSettings &settings, const QString &profile);

    enum class Pin {
        PinnedNow, // first use: this key is now the one expected
        Matches, // the pinned key
        Different // another key than the pinned one: do not trust it
    };
    // Compares `keyId` with the pinned one, pinning it when none is.
    Pin checkKey(const QString &keyId);
    [[nodiscard]] QString pinnedKeyId() const;
    // Forgets the pin, so the next key seen is pinned (after the auditor confirmed a rotation).
    void forgetPin();

    // Oldest first. A checkpoint for a seq already saved is not added twice.
    [[nodiscard]] QList<audit::ChainAnchor> savedCheckpoints() const;
    bool saveCheckpoint(const audit::ChainAnchor &checkpoint);

private:
    QSettings &m_settings;
    QString m_group;
};

} // namespace redrive::ui
