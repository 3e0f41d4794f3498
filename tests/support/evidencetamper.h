// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#pragma once

#include "audit/auditentry.h"
#include "audit/evidence.h"

#include <QJsonArray>
#include <QJsonObject>

// Edits made to an evidence bundle after export, the way someone tampering with the file would
// make them, shared by the verifier, admin API and console suites.
namespace redrive::test {

// Recomputes an audit entry's hash after its contents were edited (a forger who knows the scheme).
inline QJsonObject rehashedAuditEntry(QJsonObject e)
{
    audit::AuditEntry a;
    a.seq = e.value(QLatin1String("seq")).toInteger();
    a.atMs = e.value(QLatin1String("at_ms")).toInteger();
    for (auto [key, field] :
        { std::pair { "actor", &a.actor }, std::pair { "role", &a.role }, std::pair { "action", &a.action },
            std::pair { "target", &a.target }, std::pair { "reason", &a.reason },
            std::pair { "details", &a.details }, std::pair { "prev_hash", &a.prevHash } })
        *field = e.value(QLatin1String(key)).toString();
    e.insert(QStringLiteral("hash"), audit::computeEntryHash(a));
    return e;
}

// Sets `key` of item `index` of the array member `member` ("notes", "replays", "deliveries").
inline QJsonObject withArrayItem(
    QJsonObject bundle, const QString &member, qsizetype index, const QString &key, const QJsonValue &value)
{
    QJsonArray items = bundle.value(member).toArray();
    QJsonObject item = items.at(index).toObject();
    item.insert(key, value);
    items.replace(index, item);
    bundle.insert(member, items);
    return bundle;
}

// Sets `key` of the first delivery's first attempt.
inline QJsonObject withAttemptValue(QJsonObject bundle, const QString &key, const QJsonValue &value)
{
    QJsonArray deliveries = bundle.value(QLatin1String("deliveries")).toArray();
    QJsonObject d = deliveries.first().toObject();
    QJsonArray attempts = d.value(QLatin1String("attempts")).toArray();
    QJsonObject a = attempts.first().toObject();
    a.insert(key, value);
    attempts.replace(0, a);
    d.insert(QStringLiteral("attempts"), attempts);
    deliveries.replace(0, d);
    bundle.insert(QStringLiteral("deliveries"), deliveries);
    return bundle;
}

// Applies `entryEdit` to audit entry `index` (in file order).
template<typename Edit> QJsonObject withAuditEntry(QJsonObject bundle, qsizetype index, Edit entryEdit)
{
    QJsonObject audit = bundle.value(QLatin1String("audit")).toObject();
    QJsonArray entries = audit.value(QLatin1String("entries")).toArray();
    entries.replace(index, entryEdit(entries.at(index).toObject()));
    audit.insert(QStringLiteral("entries"), entries);
    bundle.insert(QStringLiteral("audit"), audit);
    return bundle;
}

inline QJsonObject withBodyByteFlipped(QJsonObject bundle, qsizetype at)
{
    QByteArray body
        = QByteArray::fromBase64(bundle.value(QLatin1String("body_base64")).toString().toLatin1());
    body[at] = char(body[at] ^ 0x01);
    bundle.insert(QStringLiteral("body_base64"), QString::fromLatin1(body.toBase64()));
    return bundle;
}

// bundle_sha256 recomputed, as anyone can.
inline QJsonObject rehashed(QJsonObject bundle)
{
    bundle.insert(QStringLiteral("bundle_sha256"), audit::computeBundleSha256(bundle));
    return bundle;
}

// What the console exported before the receiver signed bundles: version 1, no sections and no
// signature (same members otherwise). Also what a forger makes of a signed bundle to drop the
// signature.
inline QJsonObject asUnsignedVersion1(QJsonObject bundle)
{
    bundle.remove(QStringLiteral("signature"));
    bundle.remove(QStringLiteral("sections"));
    bundle.insert(QStringLiteral("format"), QLatin1String(audit::kEvidenceFormatV1));
    return rehashed(bundle);
}

} // namespace redrive::test
