// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#pragma once

#include <QHash>
#include <QObject>
#include <QString>

namespace redrive {

// Where a profile's credentials live: names are scoped per profile ("<profile>/api-token"), and
// only those names ever reach settings files. Every operation is asynchronous because the real
// backends (the Secret Service over D-Bus, the macOS keychain) may prompt the user; a job reports
// once through `finished` and then deletes itself. Never a nested event loop.
enum class SecretStatus {
    Ok,
    NotFound, // nothing stored under that name
    Unavailable, // no keychain service (no D-Bus session, no Secret Service)
    Denied, // the user or the keychain refused access (e.g. a locked collection)
    Failed, // anything else; see the message
};

struct SecretResult {
    SecretStatus status = SecretStatus::Failed;
    QString secret; // the value, for reads that succeeded
    QString message; // human text for anything but Ok; never contains the secret
};

// One pending keychain operation.
class SecretJob : public QObject {
    Q_OBJECT
public:
    using QObject::QObject;

Q_SIGNALS:
    void finished(const redrive::SecretResult &result);
};

class SecretStore {
public:
    virtual ~SecretStore() = default;

    // The key for one credential of one profile. Profile names may contain anything; the key
    // stays unambiguous because the name is percent-encoded.
    static QString keyFor(const QString &profile, const QString &credential);

    // Each returns a job already started; connect to `finished` before returning to the event loop.
    virtual SecretJob *read(const QString &key) = 0;
    virtual SecretJob *write(const QString &key, const QString &secret) = 0;
    virtual SecretJob *remove(const QString &key) = 0;

    // Plain words for a status, for dialogs.
    static QString describe(SecretStatus status);
};

// An in-memory store for tests and for "remember nothing" sessions. Results arrive on the next
// event-loop turn, like the real backends, so callers cannot come to rely on synchronous answers.
// `setAvailable(false)` makes every job fail as a machine without a keychain would.
class MemorySecretStore final : public SecretStore {
public:
    SecretJob *read(const QString &key) override;
    SecretJob *write(const QString &key, const QString &secret) override;
    SecretJob *remove(const QString &key) override;

    void setAvailable(bool available) { m_available = available; }
    [[nodiscard]] bool contains(const QString &key) const { return m_values.contains(key); }
    [[nodiscard]] qsizetype size() const { return m_values.size(); }

private:
    SecretJob *finish(const SecretResult &result);
    QHash<QString, QString> m_values;
    bool m_available = true;
};

} // namespace redrive

Q_DECLARE_METATYPE(redrive::SecretResult)
