// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#include "apitokens.h"

#include "crypto/crypto.h"
#include "storage/sqlrow.h"

#include <QSqlQuery>

namespace redrive::access {
namespace {
constexpr QByteArrayView kPrefix = "rdt_";
constexpr int kSecretBytes = 32;
constexpr int kEncodedLength = 43; // base64url of 32 bytes without padding

ApiToken fromRow(const QSqlQuery &q)
{
    ApiToken t;
    QString role;
    readColumns(q, t.id, t.name, role, t.createdAt, t.expiresAt, t.revokedAt, t.lastUsedAt, t.owner);
    t.role = roleFromString(role).value_or(Role::Support);
    return t;
}

constexpr char kColumns[] = "id, name, role, created_at, expires_at, revoked_at, last_used_at, owner";

void fail(CreateFailure *failure, CreateFailure what)
{
    if (failure)
        *failure = what;
}
} // namespace

TokenState tokenState(const ApiToken &token, qint64 nowMs)
{
    if (token.revokedAt)
        return TokenState::Revoked;
    if (token.expiresAt && *token.expiresAt <= nowMs)
        return TokenState::Expired;
    return TokenState::Valid;
}

QString generateApiToken()
{
    const QByteArray secret = crypto::randomBytes(kSecretBytes);
    return QString::fromLatin1(kPrefix.toByteArray()
        + secret.toBase64(QByteArray::Base64UrlEncoding | QByteArray::OmitTrailingEquals));
}

QString hashApiToken(QByteArrayView token)
{
    return QString::fromLatin1(crypto::sha256Hex(token));
}

bool looksLikeApiToken(QByteArrayView token)
{
    if (token.size() != kPrefix.size() + kEncodedLength || !token.startsWith(kPrefix))
        return false;
    for (char c : token.sliced(kPrefix.size())) {
        const bool ok = (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-'
            || c == '_';
        if (!ok)
            return false;
    }
    return true;
}

bool isValidTokenName(QStringView name)
{
    if (name.isEmpty() || name.size() > 64)
        return false;
    for (QChar c : name) {
        const char16_t u = c.unicode();
        const bool ok = (u >= 'A' && u <= 'Z') || (u >= 'a' && u <= 'z') || (u >= '0' && u <= '9') || u == '.'
            || u == '_' || u == '@' || u == '-';
        if (!ok)
            return false;
    }
    return true;
}

bool isValidTokenOwner(QStringView owner)
{
    return isValidTokenName(owner);
}

QString foldedIdentity(QStringView text)
{
    return text.toString().toCaseFolded();
}

bool sameOwner(QStringView a, QStringView b)
{
    return !a.isEmpty() && !b.isEmpty() && foldedIdentity(a) == foldedIdentity(b);
}

Result<CreatedToken> createApiToken(Db &db, const QString &name, const QString &owner, Role role,
    std::optional<qint64> expiresAt, qint64 nowMs, CreateFailure *failure)
{
    fail(failure, CreateFailure::None);
    if (!isValidTokenName(name)) {
        fail(failure, CreateFailure::Invalid);
        return Failure(QStringLiteral("token name must be 1-64 characters of A-Z a-z 0-9 . _ @ -"));
    }
    if (!isValidTokenOwner(owner)) {
        fail(failure, CreateFailure::Invalid);
        return Failure(QStringLiteral("token owner must be 1-64 characters of A-Z a-z 0-9 . _ @ -"));
    }
    // Every active token, compared here rather than with SQL lower(): the same folding on both
    // engines. The table holds a handful of rows per person.
    QSqlQuery active(db.handle());
    if (!active.exec(QStringLiteral("SELECT name, owner FROM api_tokens WHERE revoked_at IS NULL"))) {
        fail(failure, CreateFailure::Database);
        return Failure(sqlErrorText(active));
    }
    while (active.next()) {
        const QString otherName = active.value(0).toString();
        const QString otherOwner = active.value(1).toString();
        if (otherName == name) {
            fail(failure, CreateFailure::DuplicateName);
            return Failure(QStringLiteral("a token named \"%1\" already exists; revoke it first").arg(name));
        }
        if (foldedIdentity(otherName) == foldedIdentity(name)) {
            fail(failure, CreateFailure::CaseOnlyName);
            return Failure(
                QStringLiteral("token name \"%1\" differs from the active token \"%2\" only by letter "
                               "case; choose a distinct name")
                    .arg(name, otherName));
        }
        if (otherOwner != owner && foldedIdentity(otherOwner) == foldedIdentity(owner)) {
            fail(failure, CreateFailure::CaseOnlyOwner);
            return Failure(
                QStringLiteral("owner \"%1\" differs from the owner \"%2\" of the active token \"%3\" "
                               "only by letter case; use \"%2\" for the same person")
                    .arg(owner, otherOwner, otherName));
        }
    }
    active.finish();

    CreatedToken out;
    out.secret = generateApiToken();
    out.info.name = name;
    out.info.owner = owner;
    out.info.role = role;
    out.info.createdAt = nowMs;
    out.info.expiresAt = expiresAt;
    QSqlQuery q(db.handle());
    if (auto inserted = runQuery(q,
            QStringLiteral("INSERT INTO api_tokens (name, owner, role, token_hash, created_at, expires_at) "
                           "VALUES (?, ?, ?, ?, ?, ?)"),
            { name, owner, toString(role), hashApiToken(out.secret.toLatin1()), nowMs,
                expiresAt ? QVariant(*expiresAt) : QVariant(QMetaType(QMetaType::LongLong)) });
        !inserted) {
        fail(failure, CreateFailure::Database);
        return Failure(inserted.error());
    }
    out.info.id = q.lastInsertId().toLongLong();
    return out;
}

Result<> revokeApiToken(Db &db, const QString &name, qint64 nowMs, bool *found)
{
    if (found)
        *found = false;
    QSqlQuery q(db.handle());
    if (auto ran = runQuery(q,
            QStringLiteral("UPDATE api_tokens SET revoked_at = ? WHERE name = ? AND revoked_at IS NULL"),
            { nowMs, name });
        !ran)
        return ran;
    if (q.numRowsAffected() <= 0)
        return Failure(QStringLiteral("no active token is named \"%1\"").arg(name));
    if (found)
        *found = true;
    return ok();
}

Result<std::optional<ApiToken>> findApiTokenByHash(Db &db, const QString &hash)
{
    return selectRow(db,
        QStringLiteral("SELECT %1 FROM api_tokens WHERE token_hash = ?").arg(QLatin1String(kColumns)),
        { hash }, fromRow);
}

Result<QList<ApiToken>> listApiTokens(Db &db)
{
    return selectRows(db,
        QStringLiteral("SELECT %1 FROM api_tokens ORDER BY name, id").arg(QLatin1String(kColumns)), {},
        fromRow);
}

void touchApiToken(Db &db, qint64 id, qint64 nowMs)
{
    // Best effort: a token's last use is a hint for its owner, never a reason to refuse a request.
    QSqlQuery q(db.handle());
    static_cast<void>(runQuery(q,
        QStringLiteral("UPDATE api_tokens SET last_used_at = ? WHERE id = ? AND "
                       "(last_used_at IS NULL OR last_used_at < ?)"),
        { nowMs, id, nowMs - 60'000 }));
}

} // namespace redrive::access
