// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#include "audittrust.h"

#include <QSettings>
#include <QUrl>

namespace redrive::ui {
namespace key {
const QString pinnedKeyId = QStringLiteral("pinnedKeyId");
const QString checkpoints = QStringLiteral("checkpoints");
const QString seq = QStringLiteral("seq");
const QString hash = QStringLiteral("hash");
const QString at = QStringLiteral("atMs");
const QString keyId = QStringLiteral("keyId");
} // namespace key

AuditTrustStore::AuditTrustStore(QSettings &settings, const QString &profile)
    : m_settings(settings)
    , m_group(QLatin1String("auditTrust/") + QString::fromLatin1(QUrl::toPercentEncoding(profile)))
{ }

QString AuditTrustStore::pinnedKeyId() const
{
    return m_settings.value(m_group + u'/' + key::pinnedKeyId).toString();
}

AuditTrustStore::Pin AuditTrustStore::checkKey(const QString &keyId)
{
    const QString pinned = pinnedKeyId();
    if (pinned.isEmpty()) {
        m_settings.setValue(m_group + u'/' + key::pinnedKeyId, keyId);
        m_settings.sync();
        return Pin::PinnedNow;
    }
    return pinned == keyId ? Pin::Matches : Pin::Different;
}

void AuditTrustStore::forgetPin()
{
    m_settings.remove(m_group + u'/' + key::pinnedKeyId);
    m_settings.sync();
}

QList<audit::ChainAnchor> AuditTrustStore::savedCheckpoints() const
{
    QList<audit::ChainAnchor> out;
    m_settings.beginGroup(m_group);
    const int n = m_settings.beginReadArray(key::checkpoints);
    for (int i = 0; i < n; ++i) {
        m_settings.setArrayIndex(i);
        audit::ChainAnchor a;
        a.seq = m_settings.value(key::seq).toLongLong();
        a.hash = m_settings.value(key::hash).toString();
        a.atMs = m_settings.value(key::at).toLongLong();
        a.keyId = m_settings.value(key::keyId).toString();
        if (a.hash.size() == 64) // a hand-edited entry without a hash proves nothing
            out.append(a);
    }
    m_settings.endArray();
    m_settings.endGroup();
    return out;
}

bool AuditTrustStore::saveCheckpoint(const audit::ChainAnchor &checkpoint)
{
    QList<audit::ChainAnchor> all = savedCheckpoints();
    for (const audit::ChainAnchor &a : all) {
        if (a.seq == checkpoint.seq)
            return false;
    }
    all.append(checkpoint);
    std::sort(all.begin(), all.end(), [](const auto &a, const auto &b) { return a.seq < b.seq; });
    m_settings.beginGroup(m_group);
    m_settings.remove(key::checkpoints);
    m_settings.beginWriteArray(key::checkpoints, int(all.size()));
    for (int i = 0; i < all.size(); ++i) {
        m_settings.setArrayIndex(i);
        m_settings.setValue(key::seq, all[i].seq);
        m_settings.setValue(key::hash, all[i].hash);
        m_settings.setValue(key::at, all[i].atMs);
        m_settings.setValue(key::keyId, all[i].keyId);
    }
    m_settings.endArray();
    m_settings.endGroup();
    m_settings.sync();
    return true;
}

} // namespace redrive::ui
