// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#include "signedhead.h"

#include "audit/auditverifier.h"
#include "audit/signingkey.h"

#include <QFile>
#include <QFileInfo>
#include <QList>
#include <QMutex>
#include <QMutexLocker>

namespace redrive::audit {

QString signedHeadPath(const QString &keyFile)
{
    return keyFile + QLatin1String(".head");
}

Result<std::optional<Checkpoint>> readSignedHead(const QString &path)
{
    if (!QFileInfo::exists(path))
        return std::nullopt;
    auto c = Checkpoint::readFile(path);
    if (!c)
        return Failure(c.error());
    return std::optional<Checkpoint>(std::move(*c));
}

Result<AuditLogVerification> verifyAuditLog(Db &db, VerifyOptions options, const QString &keyFile)
{
    AuditLogVerification out;
    if (!keyFile.isEmpty()) {
        auto head = readSignedHead(signedHeadPath(keyFile));
        if (!head) {
            out.headUnreadable = true;
            out.result.ok = false;
            out.result.problem = QStringLiteral("the last signed head cannot be read (%1)").arg(head.error());
            return out;
        }
        out.lastSigned = std::move(*head);
    }
    if ((options.checkpoint || out.lastSigned) && options.trustedPublicKey.isEmpty() && !keyFile.isEmpty()
        && QFileInfo::exists(keyFile)) {
        auto key = SigningKey::load(keyFile);
        if (!key)
            return Failure(key.error());
        options.trustedPublicKey = (*key)->publicKey();
    }
    // The given checkpoint first (as trusted as the caller says), then the last signed head,
    // whose signature is always checked. Without a checkpoint the walk against the head alone
    // finds everything a plain walk would.
    struct Pass {
        std::optional<Checkpoint> checkpoint;
        bool checkSignature;
        bool lastSigned;
    };
    QList<Pass> passes;
    if (options.checkpoint || !out.lastSigned)
        passes.append(Pass { options.checkpoint, options.checkSignature, false });
    if (out.lastSigned)
        passes.append(Pass { out.lastSigned, true, true });
    for (const Pass &pass : std::as_const(passes)) {
        VerifyOptions o = options;
        o.checkpoint = pass.checkpoint;
        o.checkSignature = pass.checkSignature;
        auto verified = verifyAuditChain(db, o);
        if (!verified)
            return Failure(QStringLiteral("cannot read the audit log: %1").arg(verified.error()));
        out.result = std::move(*verified);
        if (!out.result.ok) {
            out.brokenAtLastSigned = pass.lastSigned;
            return out;
        }
    }
    return out;
}

GuardedCheckpoint makeGuardedCheckpoint(Db &db, const SigningKey &key, const QString &headFile, qint64 nowMs)
{
    // Admin workers sign concurrently; the file must only ever move forward.
    static QMutex fileLock;
    QMutexLocker locker(&fileLock);

    GuardedCheckpoint g;
    auto refuse = [&g](const QString &problem, std::optional<qint64> seq = std::nullopt) {
        g.outcome = GuardedCheckpoint::Outcome::Refused;
        g.problem = problem;
        g.firstBadSeq = seq;
        return g;
    };
    auto lastSigned = readSignedHead(headFile);
    if (!lastSigned)
        return refuse(QStringLiteral("the last signed head cannot be read (%1)").arg(lastSigned.error()));
    g.lastSigned = *lastSigned;
    if (g.lastSigned && g.lastSigned->publicKey != key.publicKey())
        return refuse(
            QStringLiteral("the last signed head in %1 was not signed by this receiver's key").arg(headFile));

    VerifyOptions options;
    options.checkpoint = g.lastSigned;
    options.trustedPublicKey = key.publicKey();
    const auto result = verifyAuditChain(db, options);
    if (!result) {
        g.problem = result.error();
        return g;
    }
    if (!result->ok)
        return refuse(result->problem, result->firstBadSeq);

    Checkpoint c;
    c.seq = result->head.seq;
    c.hash = result->head.hash;
    c.atMs = nowMs;
    c.publicKey = key.publicKey();
    c.signature = key.sign(c.signedPayload());
    if (c.signature.isEmpty()) {
        g.problem = QStringLiteral("signing the checkpoint failed");
        return g;
    }
    if (!g.lastSigned || c.seq > g.lastSigned->seq) {
        if (auto written = c.writeFile(headFile); !written) {
            g.problem = written.error();
            return g;
        }
        QFile::setPermissions(headFile, QFileDevice::ReadOwner | QFileDevice::WriteOwner);
    }
    g.outcome = GuardedCheckpoint::Outcome::Signed;
    g.checkpoint = c;
    return g;
}

} // namespace redrive::audit
