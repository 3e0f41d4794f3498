// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#include "evidenceverifier.h"

#include "audit/auditentry.h"
#include "audit/checkpoint.h"
#include "audit/evidence.h"
#include "audit/signingkey.h"
#include "crypto/crypto.h"
#include "util/clock.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

namespace redrive::audit {
namespace {

EvidenceVerdict failed(EvidenceVerdict v, const QString &problem)
{
    v.ok = false;
    v.problem = problem;
    return v;
}

bool isInteger(const QJsonValue &v)
{
    return v.isDouble() && v.toDouble() == static_cast<double>(v.toInteger());
}

// An audit entry as the bundle holds it; false with the field at fault.
bool entryFromJson(const QJsonObject &o, AuditEntry *e, QString *field)
{
    for (const char *key : {"seq", "at_ms"}) {
        if (!isInteger(o.value(QLatin1String(key)))) {
            *field = QLatin1String(key);
            return false;
        }
    }
    for (const char *key : {"actor", "role", "action", "target", "reason", "details", "prev_hash", "hash"}) {
        if (!o.value(QLatin1String(key)).isString()) {
            *field = QLatin1String(key);
            return false;
        }
    }
    e->seq = o.value(QLatin1String("seq")).toInteger();
    e->atMs = o.value(QLatin1String("at_ms")).toInteger();
    e->actor = o.value(QLatin1String("actor")).toString();
    e->role = o.value(QLatin1String("role")).toString();
    e->action = o.value(QLatin1String("action")).toString();
    e->target = o.value(QLatin1String("target")).toString();
    e->reason = o.value(QLatin1String("reason")).toString();
    e->details = o.value(QLatin1String("details")).toString();
    e->prevHash = o.value(QLatin1String("prev_hash")).toString();
    e->hash = o.value(QLatin1String("hash")).toString();
    return true;
}

} // namespace

EvidenceVerdict verifyEvidence(const QByteArray &fileContents)
{
    EvidenceVerdict v;
    QJsonParseError parse;
    const QJsonDocument doc = QJsonDocument::fromJson(fileContents, &parse);
    if (parse.error != QJsonParseError::NoError || !doc.isObject())
        return failed(v, QStringLiteral("the file is not a JSON object (%1 at byte %2)").arg(parse.errorString()).arg(parse.offset));
    const QJsonObject bundle = doc.object();
    if (bundle.value(QLatin1String("format")).toString() != QLatin1String(kEvidenceFormat))
        return failed(v, QStringLiteral("\"format\" is not \"%1\": this is not a Redrive evidence bundle")
                             .arg(QLatin1String(kEvidenceFormat)));

    // The body, against the SHA-256 and size the receiver recorded when it arrived.
    const QJsonObject event = bundle.value(QLatin1String("event")).toObject();
    const auto body = crypto::decodeBase64(bundle.value(QLatin1String("body_base64")).toString().toLatin1());
    if (!body)
        return failed(v, QStringLiteral("\"body_base64\" is not valid base64"));
    const QString recorded = event.value(QLatin1String("body_sha256")).toString();
    const QString actual = QString::fromLatin1(crypto::sha256Hex(*body));
    if (actual.compare(recorded, Qt::CaseInsensitive) != 0)
        return failed(v, QStringLiteral("the body's SHA-256 is %1, but the event records %2: the body was changed")
                             .arg(actual, recorded.isEmpty() ? QStringLiteral("none") : recorded));
    if (!isInteger(event.value(QLatin1String("body_size"))) || event.value(QLatin1String("body_size")).toInteger() != body->size())
        return failed(v, QStringLiteral("the body is %1 bytes, but the event records %2")
                             .arg(body->size())
                             .arg(event.value(QLatin1String("body_size")).toVariant().toString()));
    v.checked.append(QStringLiteral("body: %1 bytes, SHA-256 %2 matches the event").arg(body->size()).arg(actual));

    // The checkpoint is parsed first (the chain may have to end at it) and its signature checked.
    QString why;
    const auto checkpoint = Checkpoint::fromJson(bundle.value(QLatin1String("checkpoint")).toObject(), &why);
    if (!checkpoint)
        return failed(v, why);

    // Each audit entry's hash from its contents, and the links between consecutive entries.
    const QJsonObject audit = bundle.value(QLatin1String("audit")).toObject();
    const QJsonArray entries = audit.value(QLatin1String("entries")).toArray();
    const bool linked = audit.value(QLatin1String("linked_to_checkpoint")).toBool();
    std::optional<AuditEntry> previous;
    int about = 0;
    for (qsizetype i = 0; i < entries.size(); ++i) {
        AuditEntry e;
        QString field;
        if (!entryFromJson(entries.at(i).toObject(), &e, &field))
            return failed(v, QStringLiteral("audit entry #%1 in the file has no valid \"%2\"").arg(i + 1).arg(field));
        if (computeEntryHash(e) != e.hash)
            return failed(v, QStringLiteral("audit entry %1's hash does not match its contents: the entry was changed")
                                 .arg(e.seq));
        if (previous) {
            if (e.seq <= previous->seq)
                return failed(v, QStringLiteral("audit entry %1 follows entry %2: entries are out of order")
                                     .arg(e.seq)
                                     .arg(previous->seq));
            if (linked && e.seq != previous->seq + 1)
                return failed(v, QStringLiteral("audit entry %1 is missing: the chain jumps from entry %2 to %3")
                                     .arg(previous->seq + 1)
                                     .arg(previous->seq)
                                     .arg(e.seq));
            if (e.seq == previous->seq + 1 && e.prevHash != previous->hash)
                return failed(v, QStringLiteral("audit entry %1's prev_hash is not the hash of entry %2: the chain is broken")
                                     .arg(e.seq)
                                     .arg(previous->seq));
        }
        if (entries.at(i).toObject().value(QLatin1String("about_event")).toBool())
            ++about;
        previous = e;
    }
    if (linked) {
        if (!previous)
            return failed(v, QStringLiteral("the audit entries are said to be linked to the checkpoint, but there are none"));
        if (previous->seq != checkpoint->seq || previous->hash != checkpoint->hash)
            return failed(v, QStringLiteral("the audit entries end at entry %1, but the checkpoint signs entry %2 with "
                                            "another hash: they do not lead to the signed head")
                                 .arg(previous->seq)
                                 .arg(checkpoint->seq));
        v.checked.append(QStringLiteral("audit: %1 entries (%2 about this event), every hash recomputed and every link "
                                        "followed to the checkpoint's entry %3")
                             .arg(entries.size())
                             .arg(about)
                             .arg(checkpoint->seq));
    } else {
        if (previous && previous->seq > checkpoint->seq)
            return failed(v, QStringLiteral("audit entry %1 is newer than the checkpoint (entry %2)")
                                 .arg(previous->seq)
                                 .arg(checkpoint->seq));
        v.checked.append(QStringLiteral("audit: %1 entries about this event, every hash recomputed").arg(entries.size()));
        if (!entries.isEmpty())
            v.notes.append(QStringLiteral("the entries are not linked to the checkpoint in this file (too many entries "
                                          "followed them); `redrived audit verify --checkpoint` on the receiver shows "
                                          "they are still in the log"));
    }

    if (!checkpoint->signatureValid())
        return failed(v, QStringLiteral("the checkpoint's signature is invalid"));
    v.checked.append(QStringLiteral("checkpoint: entry %1 signed at %2 by key %3 (Ed25519), signature valid")
                         .arg(checkpoint->seq)
                         .arg(isoUtc(checkpoint->atMs), SigningKey::keyIdOf(checkpoint->publicKey)));
    v.notes.append(QStringLiteral("compare key %1 with the receiver's audit key (redrived audit checkpoint prints it)")
                       .arg(SigningKey::keyIdOf(checkpoint->publicKey)));

    const QString bundleHash = computeBundleSha256(bundle);
    if (bundle.value(QLatin1String("bundle_sha256")).toString() != bundleHash)
        return failed(v, QStringLiteral("bundle_sha256 does not match the file's contents: the file was changed after export"));
    v.checked.append(QStringLiteral("bundle: sha256 %1 matches").arg(bundleHash));
    v.ok = true;
    return v;
}

} // namespace redrive::audit
