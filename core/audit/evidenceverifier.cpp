// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#include "evidenceverifier.h"

#include "audit/auditentry.h"
#include "audit/checkpoint.h"
#include "audit/evidence.h"
#include "audit/rangeevidence.h"
#include "audit/signingkey.h"
#include "crypto/crypto.h"
#include "util/clock.h"

#include <QHash>
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
    for (const char *key : { "seq", "at_ms" }) {
        if (!isInteger(o.value(QLatin1String(key)))) {
            *field = QLatin1String(key);
            return false;
        }
    }
    for (const char *key :
        { "actor", "role", "action", "target", "reason", "details", "prev_hash", "hash" }) {
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

struct ReceiverSignature {
    QByteArray publicKey;
    QByteArray signature;
    QString keyId;
};

// The "signature" block; false with the reason.
bool signatureFromJson(const QJsonValue &value, ReceiverSignature *out, QString *why)
{
    if (!value.isObject()) {
        *why = QStringLiteral("\"signature\" is not an object");
        return false;
    }
    const QJsonObject o = value.toObject();
    if (o.value(QLatin1String("algorithm")).toString() != u"Ed25519") {
        *why = QStringLiteral("the signature's \"algorithm\" is not \"Ed25519\"");
        return false;
    }
    const auto key = crypto::decodeBase64(o.value(QLatin1String("public_key")).toString().toLatin1());
    if (!key || key->size() != 32) {
        *why = QStringLiteral("the signature's \"public_key\" is not a base64 Ed25519 public key");
        return false;
    }
    const auto sig = crypto::decodeBase64(o.value(QLatin1String("signature")).toString().toLatin1());
    if (!sig || sig->size() != 64) {
        *why = QStringLiteral("the signature's \"signature\" is not a base64 Ed25519 signature");
        return false;
    }
    out->publicKey = *key;
    out->signature = *sig;
    out->keyId = SigningKey::keyIdOf(*key);
    if (o.value(QLatin1String("key_id")).toString() != out->keyId) {
        *why = QStringLiteral("the signature's \"key_id\" is not the id of its public key (%1)")
                   .arg(out->keyId);
        return false;
    }
    return true;
}

QString describeSection(const QString &name)
{
    static const QHash<QString, QString> words {
        { QStringLiteral("event"), QStringLiteral("the event envelope (\"event\")") },
        { QStringLiteral("body_base64"), QStringLiteral("the body (\"body_base64\")") },
        { QStringLiteral("deliveries"), QStringLiteral("the deliveries or their attempts (\"deliveries\")") },
        { QStringLiteral("notes"), QStringLiteral("the notes (\"notes\")") },
        { QStringLiteral("replays"), QStringLiteral("the replays (\"replays\")") },
        { QStringLiteral("audit"), QStringLiteral("the audit entries (\"audit\")") },
        { QStringLiteral("checkpoint"), QStringLiteral("the checkpoint (\"checkpoint\")") },
        { QStringLiteral("exported"), QStringLiteral("the export record (\"exported\")") },
    };
    return words.value(name, QStringLiteral("\"%1\"").arg(name));
}

// What differs from the digests the receiver signed, in words; empty when nothing does.
QStringList changedSections(const QJsonObject &bundle)
{
    QStringList changed;
    const QJsonObject signedDigests = bundle.value(QLatin1String("sections")).toObject();
    const QJsonObject actual = computeEvidenceSections(bundle);
    for (const QString &name : evidenceSectionNames()) {
        if (signedDigests.value(name) != actual.value(name))
            changed.append(describeSection(name));
    }
    static const QStringList others { QStringLiteral("format"), QStringLiteral("sections"),
        QStringLiteral("bundle_sha256"), QStringLiteral("signature") };
    for (const QString &key : bundle.keys()) {
        if (!others.contains(key) && !evidenceSectionNames().contains(key))
            changed.append(QStringLiteral("\"%1\" (added)").arg(key));
    }
    return changed;
}

QString joinWords(const QStringList &parts)
{
    if (parts.size() <= 1)
        return parts.value(0);
    return QStringList(parts.first(parts.size() - 1)).join(QLatin1String(", ")) + QLatin1String(" and ")
        + parts.last();
}

// The steps below each check one part of a bundle. On a fault they set the verdict's problem
// and return false; on success they add what they checked, in words, and return true.

bool fail(EvidenceVerdict &v, const QString &problem)
{
    v.ok = false;
    v.problem = problem;
    return false;
}

// The receiver's signature block, checked against a pinned key before anything else.
bool checkSignatureBlock(EvidenceVerdict &v, const QJsonObject &bundle, bool version1, const KeyPin &pin,
    std::optional<ReceiverSignature> *receiver)
{
    if (bundle.contains(QLatin1String("signature"))) {
        ReceiverSignature parsed;
        QString why;
        if (!signatureFromJson(bundle.value(QLatin1String("signature")), &parsed, &why))
            return fail(v, why);
        *receiver = parsed;
    } else if (!version1) {
        return fail(v,
            QStringLiteral("the bundle has no \"signature\", but every %1 bundle is signed by the receiver "
                           "that exported it: the signature was removed")
                .arg(QLatin1String(kEvidenceFormat)));
    }
    if (!pin.isSet())
        return true;
    if (!*receiver)
        return fail(v,
            QStringLiteral("the bundle is not signed by a receiver, so it cannot be checked against the "
                           "pinned %1")
                .arg(pin.describe()));
    if (!pin.matches((*receiver)->publicKey))
        return fail(v,
            QStringLiteral("the bundle is signed by key %1, not by the pinned %2")
                .arg((*receiver)->keyId, pin.describe()));
    return true;
}

// The body, against the SHA-256 and size the receiver recorded when it arrived.
bool checkBody(EvidenceVerdict &v, const QJsonObject &bundle)
{
    const QJsonObject event = bundle.value(QLatin1String("event")).toObject();
    const auto body = crypto::decodeBase64(bundle.value(QLatin1String("body_base64")).toString().toLatin1());
    if (!body)
        return fail(v, QStringLiteral("\"body_base64\" is not valid base64"));
    const QString recorded = event.value(QLatin1String("body_sha256")).toString();
    const QString actual = QString::fromLatin1(crypto::sha256Hex(*body));
    if (event.value(QLatin1String("body_redacted")).toBool()) {
        // Exported for a role that may not see the redacted values: the copy is what the
        // signature covers; the original's digest is recorded but cannot be recomputed here.
        QStringList paths;
        const QJsonArray pathArray = event.value(QLatin1String("redacted_paths")).toArray();
        for (const auto &p : pathArray)
            paths.append(p.toString());
        v.checked.append(
            QStringLiteral("body: the redacted copy (%1 bytes, %2 redacted), signed with the bundle; "
                           "the original's SHA-256 %3 is recorded but not in this bundle")
                .arg(body->size())
                .arg(paths.join(QLatin1String(", ")), recorded));
        return true;
    }
    if (actual.compare(recorded, Qt::CaseInsensitive) != 0)
        return fail(v,
            QStringLiteral("the body's SHA-256 is %1, but the event records %2: the body was changed")
                .arg(actual, recorded.isEmpty() ? QStringLiteral("none") : recorded));
    if (!isInteger(event.value(QLatin1String("body_size")))
        || event.value(QLatin1String("body_size")).toInteger() != body->size())
        return fail(v,
            QStringLiteral("the body is %1 bytes, but the event records %2")
                .arg(body->size())
                .arg(event.value(QLatin1String("body_size")).toVariant().toString()));
    v.checked.append(
        QStringLiteral("body: %1 bytes, SHA-256 %2 matches the event").arg(body->size()).arg(actual));
    return true;
}

// Each audit entry's hash from its contents and the links between consecutive entries; the last
// one found is left in *last and the number about the event in *about.
bool checkEntryHashes(
    EvidenceVerdict &v, const QJsonArray &entries, bool linked, std::optional<AuditEntry> *last, int *about)
{
    std::optional<AuditEntry> &previous = *last;
    for (qsizetype i = 0; i < entries.size(); ++i) {
        AuditEntry e;
        QString field;
        if (!entryFromJson(entries.at(i).toObject(), &e, &field))
            return fail(
                v, QStringLiteral("audit entry #%1 in the file has no valid \"%2\"").arg(i + 1).arg(field));
        if (computeEntryHash(e) != e.hash)
            return fail(v,
                QStringLiteral("audit entry %1's hash does not match its contents: the entry was changed")
                    .arg(e.seq));
        if (previous) {
            if (e.seq <= previous->seq)
                return fail(v,
                    QStringLiteral("audit entry %1 follows entry %2: entries are out of order")
                        .arg(e.seq)
                        .arg(previous->seq));
            if (linked && e.seq != previous->seq + 1)
                return fail(v,
                    QStringLiteral("audit entry %1 is missing: the chain jumps from entry %2 to %3")
                        .arg(previous->seq + 1)
                        .arg(previous->seq)
                        .arg(e.seq));
            if (e.seq == previous->seq + 1 && e.prevHash != previous->hash)
                return fail(v,
                    QStringLiteral(
                        "audit entry %1's prev_hash is not the hash of entry %2: the chain is broken")
                        .arg(e.seq)
                        .arg(previous->seq));
        }
        if (entries.at(i).toObject().value(QLatin1String("about_event")).toBool())
            ++*about;
        previous = e;
    }
    return true;
}

// The audit entries, and how they lead to (or stay below) the checkpoint's entry.
bool checkAuditEntries(EvidenceVerdict &v, const QJsonObject &bundle, const Checkpoint &checkpoint)
{
    const QJsonObject audit = bundle.value(QLatin1String("audit")).toObject();
    const QJsonArray entries = audit.value(QLatin1String("entries")).toArray();
    const bool linked = audit.value(QLatin1String("linked_to_checkpoint")).toBool();
    std::optional<AuditEntry> last;
    int about = 0;
    if (!checkEntryHashes(v, entries, linked, &last, &about))
        return false;
    if (linked) {
        if (!last)
            return fail(v,
                QStringLiteral(
                    "the audit entries are said to be linked to the checkpoint, but there are none"));
        if (last->seq != checkpoint.seq || last->hash != checkpoint.hash)
            return fail(v,
                QStringLiteral("the audit entries end at entry %1, but the checkpoint signs entry %2 with "
                               "another hash: they do not lead to the signed head")
                    .arg(last->seq)
                    .arg(checkpoint.seq));
        v.checked.append(
            QStringLiteral("audit: %1 entries (%2 about this event), every hash recomputed and every link "
                           "followed to the checkpoint's entry %3")
                .arg(entries.size())
                .arg(about)
                .arg(checkpoint.seq));
        return true;
    }
    if (last && last->seq > checkpoint.seq)
        return fail(v,
            QStringLiteral("audit entry %1 is newer than the checkpoint (entry %2)")
                .arg(last->seq)
                .arg(checkpoint.seq));
    v.checked.append(
        QStringLiteral("audit: %1 entries about this event, every hash recomputed").arg(entries.size()));
    if (!entries.isEmpty())
        v.notes.append(
            QStringLiteral("the entries are not linked to the checkpoint in this file (too many entries "
                           "followed them); `redrived audit verify --checkpoint` on the receiver shows "
                           "they are still in the log"));
    return true;
}

// The checkpoint's own signature, by the same key as the bundle's when the bundle is signed.
bool checkCheckpointSignature(
    EvidenceVerdict &v, const Checkpoint &checkpoint, const std::optional<ReceiverSignature> &receiver)
{
    if (!checkpoint.signatureValid())
        return fail(v, QStringLiteral("the checkpoint's signature is invalid"));
    const QString checkpointKey = SigningKey::keyIdOf(checkpoint.publicKey);
    if (receiver && checkpoint.publicKey != receiver->publicKey)
        return fail(v,
            QStringLiteral("the checkpoint is signed by key %1 but the bundle by key %2: they do not come "
                           "from one receiver")
                .arg(checkpointKey, receiver->keyId));
    v.checked.append(QStringLiteral("checkpoint: entry %1 signed at %2 by key %3 (Ed25519), signature valid")
                         .arg(checkpoint.seq)
                         .arg(isoUtc(checkpoint.atMs), checkpointKey));
    if (!receiver) {
        v.notes.append(QStringLiteral(
            "compare key %1 with the receiver's audit key (redrived audit checkpoint prints it)")
                           .arg(checkpointKey));
        v.notes.append(QStringLiteral(
            "not signed by a receiver: only the audit entries are protected (hash-chained up to "
            "the signed checkpoint); the body, deliveries, attempts, notes and replays could "
            "have been edited together with bundle_sha256. Export it again from the receiver "
            "for a signed bundle"));
    }
    return true;
}

// The receiver's signature over the canonical bundle, naming what changed when it fails.
bool checkBundleSignature(EvidenceVerdict &v, const QJsonObject &bundle, const QByteArray &canonical,
    const ReceiverSignature &receiver, const KeyPin &pin)
{
    const QStringList changed = changedSections(bundle);
    if (!SigningKey::verify(receiver.publicKey, canonical, receiver.signature)) {
        if (!changed.isEmpty())
            return fail(v,
                QStringLiteral("the receiver's signature does not verify: %1 changed after the receiver "
                               "signed the bundle")
                    .arg(joinWords(changed)));
        return fail(v,
            QStringLiteral("the receiver's signature does not verify: the file or its signature was "
                           "changed after the receiver signed it"));
    }
    if (!changed.isEmpty()) // signed, yet inconsistent: the receiver that made it is at fault
        return fail(
            v, QStringLiteral("the receiver signed digests that do not match %1").arg(joinWords(changed)));
    v.checked.append(
        QStringLiteral("signature: Ed25519 by receiver key %1 over the whole bundle (event, body, "
                       "deliveries and attempts, notes, replays, audit entries, checkpoint, export "
                       "record), valid")
            .arg(receiver.keyId));
    v.signedByReceiver = true;
    v.keyId = receiver.keyId;
    v.keyPinned = pin.isSet();
    return true;
}

} // namespace

QString EvidenceVerdict::trustSummary() const
{
    if (!ok)
        return {};
    if (!signedByReceiver)
        return QStringLiteral("not signed by a receiver: only the audit entries are protected");
    if (keyPinned)
        return QStringLiteral("signed by receiver key %1, the key you pinned").arg(keyId);
    return QStringLiteral(
        "signed by receiver key %1, which you did not pin: anyone can sign with a key of their own, "
        "so check that %1 is your receiver's key id (`redrived audit checkpoint` shows it) or pass "
        "--public-key / --key-id")
        .arg(keyId);
}

EvidenceVerdict verifyEvidence(const QByteArray &fileContents, const KeyPin &pin)
{
    EvidenceVerdict v;
    QJsonParseError parse;
    const QJsonDocument doc = QJsonDocument::fromJson(fileContents, &parse);
    if (parse.error != QJsonParseError::NoError || !doc.isObject())
        return failed(v,
            QStringLiteral("the file is not a JSON object (%1 at byte %2)")
                .arg(parse.errorString())
                .arg(parse.offset));
    const QJsonObject bundle = doc.object();
    const QString format = bundle.value(QLatin1String("format")).toString();
    if (format == QLatin1String(kAuditEvidenceFormat))
        return verifyAuditRangeEvidence(bundle, pin);
    const bool version1 = format == QLatin1String(kEvidenceFormatV1);
    if (!version1 && format != QLatin1String(kEvidenceFormat))
        return failed(v,
            QStringLiteral("\"format\" is not \"%1\", \"%2\" or \"%3\": this is not a Redrive evidence "
                           "bundle (or a newer Redrive made it)")
                .arg(QLatin1String(kEvidenceFormat), QLatin1String(kEvidenceFormatV1),
                    QLatin1String(kAuditEvidenceFormat)));

    std::optional<ReceiverSignature> receiver;
    if (!checkSignatureBlock(v, bundle, version1, pin, &receiver) || !checkBody(v, bundle))
        return v;
    // The checkpoint is parsed before the entries: the chain may have to end at it.
    const auto checkpoint = Checkpoint::fromJson(bundle.value(QLatin1String("checkpoint")).toObject());
    if (!checkpoint)
        return failed(v, checkpoint.error());
    if (!checkAuditEntries(v, bundle, *checkpoint) || !checkCheckpointSignature(v, *checkpoint, receiver))
        return v;

    const QByteArray canonical = canonicalBundleBytes(bundle);
    if (receiver && !checkBundleSignature(v, bundle, canonical, *receiver, pin))
        return v;
    const QString bundleHash = QString::fromLatin1(crypto::sha256Hex(canonical));
    if (bundle.value(QLatin1String("bundle_sha256")).toString() != bundleHash)
        return failed(v,
            QStringLiteral(
                "bundle_sha256 does not match the file's contents: the file was changed after export"));
    v.checked.append(QStringLiteral("bundle: sha256 %1 matches").arg(bundleHash));
    v.ok = true;
    return v;
}

} // namespace redrive::audit
