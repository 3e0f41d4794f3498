// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#pragma once

#include "domain/types.h"
#include "storage/database.h"
#include "util/clock.h"

#include <QByteArrayView>
#include <QHash>
#include <QString>

#include <chrono>
#include <mutex>
#include <optional>

namespace redrive::admin {

// Who is calling: the token's name is the identity recorded in audit entries, its owner the
// person behind it (four eyes compares owners; audit entries name both).
struct Principal {
    qint64 tokenId = 0;
    QString name;
    QString owner;
    Role role = Role::Support;
    std::optional<qint64> expiresAt;
};

// Checks "Authorization: Bearer rdt_…" against api_tokens (by SHA-256, never the token
// itself). Lookups are cached for kCacheTtl of real time, so a revocation (which may come from
// another process, `redrived token revoke`) takes effect within that bound; expiry is checked
// against the injected clock on every request. Unknown tokens are not cached.
class TokenAuthenticator final {
public:
    static constexpr std::chrono::milliseconds kCacheTtl { 2000 };
    static constexpr int kCacheCapacity = 1024;

    enum class Failure { None, Missing, Malformed, Unknown, Expired, Revoked, Database };
    struct Result {
        std::optional<Principal> principal;
        Failure failure = Failure::None;
        QString message;
    };

    explicit TokenAuthenticator(const Clock &clock)
        : m_clock(clock)
    { }
    Result authenticate(Db &db, QByteArrayView authorizationHeader);
    static QString failureName(Failure failure); // metrics label

private:
    struct Cached {
        Principal principal;
        std::optional<qint64> revokedAt;
        std::chrono::steady_clock::time_point fetched;
    };
    const Clock &m_clock;
    std::mutex m_mutex;
    QHash<QString, Cached> m_cache;
};

} // namespace redrive::admin
