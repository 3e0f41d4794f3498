// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#include "tokenauth.h"

#include "access/apitokens.h"
#include "admin/adminlog.h"

namespace redrive::admin {

QString TokenAuthenticator::failureName(Failure failure)
{
    switch (failure) {
    case Failure::None:
        return QStringLiteral("none");
    case Failure::Missing:
        return QStringLiteral("missing");
    case Failure::Malformed:
        return QStringLiteral("malformed");
    case Failure::Unknown:
        return QStringLiteral("unknown");
    case Failure::Expired:
        return QStringLiteral("expired");
    case Failure::Revoked:
        return QStringLiteral("revoked");
    case Failure::Database:
        return QStringLiteral("database");
    }
    return {};
}

TokenAuthenticator::Result TokenAuthenticator::authenticate(Db &db, QByteArrayView header)
{
    Result r;
    header = header.trimmed();
    if (header.isEmpty()) {
        r.failure = Failure::Missing;
        r.message = QStringLiteral("missing bearer token: send \"Authorization: Bearer <token>\"");
        return r;
    }
    constexpr QByteArrayView scheme = "bearer ";
    if (header.size() <= scheme.size()
        || QByteArrayView(header.first(scheme.size())).compare(scheme, Qt::CaseInsensitive) != 0) {
        r.failure = Failure::Malformed;
        r.message = QStringLiteral("the Authorization header must use the Bearer scheme");
        return r;
    }
    const QByteArrayView token = header.sliced(scheme.size()).trimmed();
    if (!access::looksLikeApiToken(token)) {
        r.failure = Failure::Malformed;
        r.message = QStringLiteral("malformed token (expected rdt_ followed by 43 base64url characters)");
        return r;
    }
    const QString hash = access::hashApiToken(token);
    const auto now = std::chrono::steady_clock::now();

    std::optional<Cached> cached;
    {
        std::lock_guard lock(m_mutex);
        const auto it = m_cache.constFind(hash);
        if (it != m_cache.constEnd() && now - it->fetched < kCacheTtl)
            cached = *it;
    }
    if (!cached) {
        const auto found = access::findApiTokenByHash(db, hash);
        if (!found) {
            r.failure = Failure::Database;
            r.message = QStringLiteral("tokens cannot be checked right now");
            qCWarning(lcAdmin, "admin: token lookup failed: %s", qPrintable(found.error()));
            return r;
        }
        const std::optional<access::ApiToken> &token_ = *found;
        if (!token_) {
            r.failure = Failure::Unknown;
            r.message = QStringLiteral("unknown token");
            return r;
        }
        Cached c;
        c.principal = Principal { token_->id, token_->name, token_->owner, token_->role, token_->expiresAt };
        c.revokedAt = token_->revokedAt;
        c.fetched = now;
        if (!c.revokedAt)
            access::touchApiToken(db, token_->id, m_clock.nowMs());
        std::lock_guard lock(m_mutex);
        if (m_cache.size() >= kCacheCapacity)
            m_cache.clear();
        m_cache.insert(hash, c);
        cached = c;
    }
    if (cached->revokedAt) {
        r.failure = Failure::Revoked;
        r.message = QStringLiteral("this token was revoked");
        return r;
    }
    if (cached->principal.expiresAt && *cached->principal.expiresAt <= m_clock.nowMs()) {
        r.failure = Failure::Expired;
        r.message = QStringLiteral("this token expired at %1").arg(isoUtc(*cached->principal.expiresAt));
        return r;
    }
    r.principal = cached->principal;
    return r;
}

} // namespace redrive::admin
