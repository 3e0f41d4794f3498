// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#include "secretstore.h"

#include <QCoreApplication>
#include <QTimer>
#include <QUrl>

namespace redrive {

QString SecretStore::keyFor(const QString &profile, const QString &credential)
{
    return QString::fromLatin1(QUrl::toPercentEncoding(profile)) + u'/' + credential;
}

QString SecretStore::describe(SecretStatus status)
{
    switch (status) {
    case SecretStatus::Ok:
        return QCoreApplication::translate("redrive::SecretStore", "stored");
    case SecretStatus::NotFound:
        return QCoreApplication::translate(
            "redrive::SecretStore", "nothing is stored in the keychain for this profile yet");
    case SecretStatus::Unavailable:
        return QCoreApplication::translate("redrive::SecretStore",
            "no keychain is available on this desktop (the Secret Service could not be reached), "
            "so credentials cannot be remembered; nothing was written to disk");
    case SecretStatus::Denied:
        return QCoreApplication::translate(
            "redrive::SecretStore", "the keychain refused access; unlock it and try again");
    case SecretStatus::Failed:
        break;
    }
    return QCoreApplication::translate("redrive::SecretStore", "the keychain reported an error");
}

SecretJob *MemorySecretStore::finish(const SecretResult &result)
{
    auto *job = new SecretJob;
    QTimer::singleShot(0, job, [job, result] {
        Q_EMIT job->finished(result);
        job->deleteLater();
    });
    return job;
}

SecretJob *MemorySecretStore::read(const QString &key)
{
    if (!m_available)
        return finish({ SecretStatus::Unavailable, {}, describe(SecretStatus::Unavailable) });
    const auto it = m_values.constFind(key);
    if (it == m_values.cend())
        return finish({ SecretStatus::NotFound, {}, describe(SecretStatus::NotFound) });
    return finish({ SecretStatus::Ok, *it, {} });
}

SecretJob *MemorySecretStore::write(const QString &key, const QString &secret)
{
    if (!m_available)
        return finish({ SecretStatus::Unavailable, {}, describe(SecretStatus::Unavailable) });
    m_values.insert(key, secret);
    return finish({ SecretStatus::Ok, {}, {} });
}

SecretJob *MemorySecretStore::remove(const QString &key)
{
    if (!m_available)
        return finish({ SecretStatus::Unavailable, {}, describe(SecretStatus::Unavailable) });
    m_values.remove(key);
    return finish({ SecretStatus::Ok, {}, {} });
}

} // namespace redrive
