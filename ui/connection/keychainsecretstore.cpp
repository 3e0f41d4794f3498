// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#include "keychainsecretstore.h"

#include <qt6keychain/keychain.h>

namespace redrive::ui {
namespace {

SecretResult resultOf(QKeychain::Job *job, QString secret)
{
    using namespace QKeychain;
    SecretResult r;
    switch (job->error()) {
    case NoError:
        r.status = SecretStatus::Ok;
        r.secret = std::move(secret);
        return r;
    case EntryNotFound:
        r.status = SecretStatus::NotFound;
        break;
    case AccessDenied:
    case AccessDeniedByUser:
        r.status = SecretStatus::Denied;
        break;
    case NoBackendAvailable:
    case NotImplemented:
        r.status = SecretStatus::Unavailable;
        break;
    case CouldNotDeleteEntry:
    case OtherError: {
        // Without a session bus the Secret Service backend reports a generic error naming D-Bus
        // or the failed bus connection.
        const QString text = job->errorString();
        r.status = text.contains(QLatin1String("dbus"), Qt::CaseInsensitive)
                || text.contains(QLatin1String("D-Bus"), Qt::CaseInsensitive)
                || text.contains(QLatin1String("secret service"), Qt::CaseInsensitive)
                || text.contains(QLatin1String("No keychain"), Qt::CaseInsensitive)
                || text.contains(QLatin1String("Could not connect"), Qt::CaseInsensitive)
            ? SecretStatus::Unavailable
            : SecretStatus::Failed;
        break;
    }
    }
    r.message = SecretStore::describe(r.status);
    if (r.status == SecretStatus::Failed || r.status == SecretStatus::Unavailable)
        r.message += QStringLiteral(" (%1)").arg(job->errorString());
    return r;
}

template<typename JobType> SecretJob *wrap(JobType *job, bool returnsSecret)
{
    auto *out = new SecretJob;
    job->setAutoDelete(true);
    job->setInsecureFallback(false); // never a plaintext copy next to the settings
    QObject::connect(job, &QKeychain::Job::finished, out, [out, returnsSecret](QKeychain::Job *j) {
        QString secret;
        if (returnsSecret) {
            if constexpr (std::is_same_v<JobType, QKeychain::ReadPasswordJob>)
                secret = static_cast<QKeychain::ReadPasswordJob *>(j)->textData();
        }
        Q_EMIT out->finished(resultOf(j, std::move(secret)));
        out->deleteLater();
    });
    job->start();
    return out;
}

} // namespace

KeychainSecretStore::KeychainSecretStore(QString service)
    : m_service(std::move(service))
{ }

SecretJob *KeychainSecretStore::read(const QString &key)
{
    auto *job = new QKeychain::ReadPasswordJob(m_service);
    job->setKey(key);
    return wrap(job, true);
}

SecretJob *KeychainSecretStore::write(const QString &key, const QString &secret)
{
    auto *job = new QKeychain::WritePasswordJob(m_service);
    job->setKey(key);
    job->setTextData(secret);
    return wrap(job, false);
}

SecretJob *KeychainSecretStore::remove(const QString &key)
{
    auto *job = new QKeychain::DeletePasswordJob(m_service);
    job->setKey(key);
    return wrap(job, false);
}

} // namespace redrive::ui
