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
    QString owner; // the person the token belongs to: four eyes compares owners, not token names
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
// Owners follow the same rule as names (they are compared case-folded, which for this alphabet is
// ASCII lower-casing on both engines and in C++ alike).
[[nodiscard]] bool isValidTokenOwner(QStringView owner);
// The form in which two owners (or two names) are compared: "Alice" and "alice" are one person.
[[nodiscard]] QString foldedIdentity(QStringView text);
// Same person? Compared case-folded; an empty owner never matches.
[[nodiscard]] bool sameOwner(QStringView a, QStringView b);

struct CreatedToken {
    ApiToken info;
    QString secret; // the token itself; never stored
};

// Why createApiToken refused: a conflict with an active token is a usage error for the CLI when
// only the letter case differs (exit 2), a plain duplicate name an operation failure (exit 1).
enum class CreateFailure { None, Invalid, DuplicateName, CaseOnlyName, CaseOnlyOwner, Database };

// These run inside the caller's transaction (so the audit entry commits with them).
// A name or owner that differs from an active token's only by letter case is refused: "Alice"
// and "alice" would otherwise be two approvers for four eyes, or two tokens no one can tell apart.
Result<CreatedToken> createApiToken(Db &db, const QString &name, const QString &owner, Role role,
    std::optional<qint64> expiresAt, qint64 nowMs, CreateFailure *failure = nullptr);
// Fails when no unrevoked token has that name; *found tells whether one was revoked.
Result<> revokeApiToken(Db &db, const QString &name, qint64 nowMs, bool *found = nullptr);

// A nullopt value when no token has that hash.
Result<std::optional<ApiToken>> findApiTokenByHash(Db &db, const QString &hash);
Result<QList<ApiToken>> listApiTokens(Db &db);
// Best-effort, rate-limited (once a minute per token) so reads stay reads.
void touchApiToken(Db &db, qint64 id, qint64 nowMs);

} // namespace redrive::access
