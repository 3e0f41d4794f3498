// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#pragma once

#include "domain/types.h"
#include "storage/database.h"

#include <QList>
#include <QString>

#include <optional>

// Admin API bearer tokens. A token is "rdt_" + base64url of 32 random bytes; it is shown once
// when created and only its SHA-256 is stored, so a copy of the database grants nothing.
namespace redrive::access {

struct ApiToken {
    qint64 id = 0;
    QString name;
    Role role = Role::Support;
    qint64 createdAt = 0;
    std::optional<qint64> expiresAt;
    std::optional<qint64> revokedAt;
    std::optional<qint64> lastUsedAt;
};

enum class TokenState { Valid, Expired, Revoked };
[[nodiscard]] TokenState tokenState(const ApiToken &token, qint64 nowMs);

[[nodiscard]] QString generateApiToken();
// Lowercase hex SHA-256 of the token text: the stored form.
[[nodiscard]] QString hashApiToken(QByteArrayView token);
// Cheap shape check before any lookup: prefix, length and alphabet.
[[nodiscard]] bool looksLikeApiToken(QByteArrayView token);
// 1..64 characters of [A-Za-z0-9._@-]: names appear in audit entries and on the command line.
[[nodiscard]] bool isValidTokenName(QStringView name);

struct CreatedToken {
    ApiToken info;
    QString secret; // the token itself; never stored
};

// These run inside the caller's transaction (so the audit entry commits with them).
std::optional<CreatedToken> createApiToken(
    Db &db, const QString &name, Role role, std::optional<qint64> expiresAt, qint64 nowMs, QString *error);
// False with *found = false when no unrevoked token has that name.
bool revokeApiToken(Db &db, const QString &name, qint64 nowMs, bool *found, QString *error);

std::optional<ApiToken> findApiTokenByHash(Db &db, const QString &hash, QString *error);
bool listApiTokens(Db &db, QList<ApiToken> *out, QString *error);
// Best-effort, rate-limited (once a minute per token) so reads stay reads.
void touchApiToken(Db &db, qint64 id, qint64 nowMs);

} // namespace redrive::access
