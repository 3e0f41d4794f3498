// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#include "auditentry.h"

#include "crypto/crypto.h"
#include "util/clock.h"

#include <QJsonDocument>
#include <QtEndian>

namespace redrive::audit {
namespace {
void appendField(QByteArray &out, const QByteArray &field)
{
    char length[8];
    qToBigEndian(static_cast<quint64>(field.size()), length);
    out.append(length, sizeof length);
    out.append(field);
}
} // namespace

QByteArray canonicalEncoding(const AuditEntry &e)
{
    QByteArray out = QByteArrayLiteral("redrive-audit-v1");
    out.reserve(256 + e.details.size());
    appendField(out, QByteArray::number(e.seq));
    appendField(out, QByteArray::number(e.atMs));
    appendField(out, e.actor.toUtf8());
    appendField(out, e.role.toUtf8());
    appendField(out, e.action.toUtf8());
    appendField(out, e.target.toUtf8());
    appendField(out, e.reason.toUtf8());
    appendField(out, e.details.toUtf8());
    appendField(out, e.prevHash.toUtf8());
    return out;
}

QString computeEntryHash(const AuditEntry &entry)
{
    return QString::fromLatin1(crypto::sha256Hex(canonicalEncoding(entry)));
}

QString canonicalJson(const QJsonObject &object)
{
    // QJsonObject keeps its keys sorted, so the compact form is already canonical.
    return QString::fromUtf8(QJsonDocument(object).toJson(QJsonDocument::Compact));
}

QJsonObject auditEntryJson(const AuditEntry &e)
{
    return QJsonObject {
        { QStringLiteral("seq"), e.seq },
        { QStringLiteral("at"), isoUtc(e.atMs) },
        { QStringLiteral("at_ms"), e.atMs },
        { QStringLiteral("actor"), e.actor },
        { QStringLiteral("role"), e.role },
        { QStringLiteral("action"), e.action },
        { QStringLiteral("target"), e.target },
        { QStringLiteral("reason"), e.reason },
        { QStringLiteral("details"), e.details },
        { QStringLiteral("prev_hash"), e.prevHash },
        { QStringLiteral("hash"), e.hash },
    };
}

} // namespace redrive::audit
