// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#include "rangeevidence.h"

#include "audit/auditlog.h"
#include "audit/evidence.h"
#include "audit/signingkey.h"
#include "util/clock.h"

#include <QJsonArray>
#include <QSqlQuery>

namespace redrive::audit {
namespace {

QJsonObject entryJson(const AuditEntry &e, bool inRange)
{
    QJsonObject o = auditEntryJson(e);
    o.insert(QStringLiteral("in_range"), inRange);
    return o;
}

bool isInteger(const QJsonValue &v)
{
    return v.isDouble() && v.toDouble() == static_cast<double>(v.toInteger());
}

std::optional<AuditEntry> entryFromJson(const QJsonObject &o, QString *field)
{
    for (const char *key : { "seq", "at_ms" }) {
        if (!isInteger(o.value(QLatin1String(key)))) {
            *field = QLatin1String(key);
            return std::nullopt;
        }
    }
    for (const char *key :
        { "actor", "role", "action", "target", "reason", "details", "prev_hash", "hash" }) {
        if (!o.value(QLatin1String(key)).isString()) {
            *field = QLatin1String(key);
            return std::nullopt;
        }
    }
    if (!o.value(QLatin1String("in_range")).isBool()) {
        *field = QStringLiteral("in_range");
        return std::nullopt;
    }
    AuditEntry e;
    e.seq = o.value(QLatin1String("seq")).toInteger();
    e.atMs = o.value(QLatin1String("at_ms")).toInteger();
    e.actor = o.value(QLatin1String("actor")).toString();
    e.role = o.value(QLatin1String("role")).toString();
    e.action = o.value(QLatin1String("action")).toString();
    e.target = o.value(QLatin1String("target")).toString();
    e.reason = o.value(QLatin1String("reason")).toString();
    e.details = o.value(QLatin1String("details")).toString();
    e.prevHash = o.value(QLatin1String("prev_hash")).toString();
    e.hash = o.value(QLatin1String("hash")).toString();
    return e;
}

EvidenceVerdict failed(EvidenceVerdict v, const QString &problem)
{
    v.ok = false;
    v.problem = problem;
    return v;
}

Result<qint64> firstSeqAtOrAfter(Db &db, qint64 atMs, qint64 maxSeq)
{
    QSqlQuery q(db.handle());
    if (auto ran = runQuery(
            q, QStringLiteral("SELECT MIN(seq) FROM audit_log WHERE at >= ? AND seq <= ?"), { atMs, maxSeq });
        !ran)
        return Failure(ran.error());
    return q.next() && !q.value(0).isNull() ? q.value(0).toLongLong() : 0;
}

} // namespace

Result<QJsonObject> buildAuditRangeEvidence(Db &db, const Checkpoint &checkpoint, const AuditRange &range,
    const AuditEvidenceMeta &meta, int maxEntries)
{
    if (range.untilMs <= range.sinceMs)
        return Failure(QStringLiteral("the range ends before it starts"));
    const auto first = firstSeqAtOrAfter(db, range.sinceMs, checkpoint.seq);
    if (!first)
        return Failure(first.error());
    if (*first == 0)
        return Failure(QStringLiteral("no audit entry was recorded from %1 up to the checkpoint (#%2)")
                           .arg(isoUtc(range.sinceMs))
                           .arg(checkpoint.seq));
    const qint64 from = qMax<qint64>(1, *first - 1); // the entry before the range anchors its start
    if (checkpoint.seq - from + 1 > maxEntries)
        return Failure(
            QStringLiteral("the range needs %L1 entries to reach the signed checkpoint (#%2); at most %L3 "
                           "go in one file: export a narrower or a more recent range")
                .arg(checkpoint.seq - from + 1)
                .arg(checkpoint.seq)
                .arg(maxEntries));
    QJsonArray entries;
    qint64 inRange = 0;
    qint64 after = from - 1;
    AuditEntry last;
    while (after < checkpoint.seq) {
        AuditQuery q;
        q.afterSeq = after;
        q.limit = int(qMin<qint64>(1000, checkpoint.seq - after));
        const auto read = readAuditEntries(db, q);
        if (!read)
            return Failure(read.error());
        const QList<AuditEntry> &page = *read;
        if (page.isEmpty())
            break;
        for (const AuditEntry &e : page) {
            const bool in = e.atMs >= range.sinceMs && e.atMs < range.untilMs;
            inRange += in ? 1 : 0;
            entries.append(entryJson(e, in));
            last = e;
        }
        after = page.last().seq;
    }
    if (last.seq != checkpoint.seq || last.hash != checkpoint.hash)
        return Failure(
            QStringLiteral("the database's entry #%1 is not the one the receiver signed (hash %2): the "
                           "chain must be intact up to the checkpoint to export evidence")
                .arg(checkpoint.seq)
                .arg(checkpoint.hash.left(16)));
    QJsonObject bundle {
        { QStringLiteral("format"), QLatin1String(kAuditEvidenceFormat) },
        { QStringLiteral("range"),
            QJsonObject { { QStringLiteral("since"), isoUtc(range.sinceMs) },
                { QStringLiteral("since_ms"), range.sinceMs },
                { QStringLiteral("until"), isoUtc(range.untilMs) },
                { QStringLiteral("until_ms"), range.untilMs },
                { QStringLiteral("entries_in_range"), inRange } } },
        { QStringLiteral("audit"),
            QJsonObject {
                { QStringLiteral("entries"), entries }, { QStringLiteral("linked_to_checkpoint"), true } } },
        { QStringLiteral("checkpoint"), checkpoint.toJson() },
        { QStringLiteral("exported"),
            QJsonObject { { QStringLiteral("at"), isoUtc(meta.exportedAtMs) },
                { QStringLiteral("by"), meta.exportedBy },
                { QStringLiteral("generator"), meta.generator } } },
    };
    bundle.insert(QStringLiteral("bundle_sha256"), computeBundleSha256(bundle));
    return bundle;
}

QString auditEvidenceReadme(const QJsonObject &bundle, const QString &fileName)
{
    const QJsonObject range = bundle.value(QLatin1String("range")).toObject();
    const QJsonObject cp = bundle.value(QLatin1String("checkpoint")).toObject();
    return QStringLiteral(
        "Redrive audit evidence\n"
        "======================\n\n"
        "%1 holds the audit entries recorded from %2 up to (not including) %3 (%4 entries),\n"
        "every later entry up to checkpoint #%5, and that checkpoint as the receiver signed it\n"
        "(Ed25519, key id %6).\n\n"
        "How to verify it (no database needed):\n\n"
        "    redrive --verify-evidence %1 --key-id %6\n\n"
        "Compare the key id with your receiver's audit key first (`redrived audit checkpoint`\n"
        "prints it); --public-key FILE pins the full key instead. The exit status is 0 when the\n"
        "file is intact and 1 when it is not; the first thing found wrong is named.\n\n"
        "What is checked: every entry's SHA-256 is recomputed from its contents, each entry's\n"
        "prev_hash is followed to the entry before it, the last entry must be the one the\n"
        "checkpoint signs, and the checkpoint's Ed25519 signature must verify. Because the\n"
        "signed hash commits to every entry before it, no entry in the file can be changed,\n"
        "removed or reordered without the check failing. The entry before the range (when there\n"
        "is one) shows that none of the range was left out at the front.\n\n"
        "Not signed: the range and the export record (\"range\", \"exported\") only say what was\n"
        "asked for. bundle_sha256 is a plain hash of the whole file.\n")
        .arg(fileName, range.value(QLatin1String("since")).toString(),
            range.value(QLatin1String("until")).toString())
        .arg(range.value(QLatin1String("entries_in_range")).toInteger())
        .arg(cp.value(QLatin1String("seq")).toInteger())
        .arg(cp.value(QLatin1String("key_id")).toString());
}

EvidenceVerdict verifyAuditRangeEvidence(const QJsonObject &bundle, const KeyPin &pin)
{
    EvidenceVerdict v;
    const auto checkpoint = Checkpoint::fromJson(bundle.value(QLatin1String("checkpoint")).toObject());
    if (!checkpoint)
        return failed(v, checkpoint.error());
    const QString keyId = SigningKey::keyIdOf(checkpoint->publicKey);
    if (pin.isSet() && !pin.matches(checkpoint->publicKey))
        return failed(v,
            QStringLiteral("the checkpoint is signed by key %1, not by the pinned %2")
                .arg(keyId, pin.describe()));

    const QJsonObject range = bundle.value(QLatin1String("range")).toObject();
    if (!isInteger(range.value(QLatin1String("since_ms")))
        || !isInteger(range.value(QLatin1String("until_ms"))))
        return failed(v, QStringLiteral("\"range\" has no valid \"since_ms\" and \"until_ms\""));
    const qint64 since = range.value(QLatin1String("since_ms")).toInteger();
    const qint64 until = range.value(QLatin1String("until_ms")).toInteger();

    const QJsonArray entries
        = bundle.value(QLatin1String("audit")).toObject().value(QLatin1String("entries")).toArray();
    if (entries.isEmpty())
        return failed(v, QStringLiteral("the bundle holds no audit entries"));
    std::optional<AuditEntry> previous;
    qint64 inRange = 0;
    for (qsizetype i = 0; i < entries.size(); ++i) {
        const QJsonObject o = entries.at(i).toObject();
        QString field;
        const auto e = entryFromJson(o, &field);
        if (!e)
            return failed(
                v, QStringLiteral("audit entry #%1 in the file has no valid \"%2\"").arg(i + 1).arg(field));
        if (computeEntryHash(*e) != e->hash)
            return failed(v,
                QStringLiteral("audit entry %1's hash does not match its contents: the entry was changed")
                    .arg(e->seq));
        if (previous) {
            if (e->seq != previous->seq + 1)
                return failed(v,
                    QStringLiteral("audit entry %1 is missing: the chain jumps from entry %2 to %3")
                        .arg(previous->seq + 1)
                        .arg(previous->seq)
                        .arg(e->seq));
            if (e->prevHash != previous->hash)
                return failed(v,
                    QStringLiteral(
                        "audit entry %1's prev_hash is not the hash of entry %2: the chain is broken")
                        .arg(e->seq)
                        .arg(previous->seq));
        } else if (e->seq == 1 && e->prevHash != QLatin1String(kGenesisHash)) {
            return failed(v,
                QStringLiteral(
                    "audit entry 1 does not start the chain (its prev_hash is not the genesis hash)"));
        } else if (e->seq > 1 && e->atMs >= since) {
            return failed(v,
                QStringLiteral(
                    "the file starts at entry %1, inside the range: the entries before it in the range "
                    "were left out")
                    .arg(e->seq));
        }
        const bool in = e->atMs >= since && e->atMs < until;
        if (o.value(QLatin1String("in_range")).toBool() != in)
            return failed(v,
                QStringLiteral("audit entry %1 is marked %2 the range, but its time says otherwise")
                    .arg(e->seq)
                    .arg(in ? QStringLiteral("outside") : QStringLiteral("inside")));
        inRange += in ? 1 : 0;
        previous = e;
    }
    if (previous->seq != checkpoint->seq || previous->hash != checkpoint->hash)
        return failed(v,
            QStringLiteral(
                "the audit entries end at entry %1, but the checkpoint signs entry %2 with another hash: "
                "they do not lead to the signed head")
                .arg(previous->seq)
                .arg(checkpoint->seq));
    v.checked.append(
        QStringLiteral("audit: %1 entries (%2 in the range %3 .. %4), every hash recomputed and every "
                       "link followed to the checkpoint's entry %5")
            .arg(entries.size())
            .arg(inRange)
            .arg(isoUtc(since), isoUtc(until))
            .arg(checkpoint->seq));
    if (!checkpoint->signatureValid())
        return failed(v, QStringLiteral("the checkpoint's signature is invalid"));
    v.checked.append(QStringLiteral("checkpoint: entry %1 signed at %2 by key %3 (Ed25519), signature valid")
                         .arg(checkpoint->seq)
                         .arg(isoUtc(checkpoint->atMs), keyId));
    const QString bundleHash = computeBundleSha256(bundle);
    if (bundle.value(QLatin1String("bundle_sha256")).toString() != bundleHash)
        return failed(v,
            QStringLiteral(
                "bundle_sha256 does not match the file's contents: the file was changed after export"));
    v.checked.append(QStringLiteral("bundle: sha256 %1 matches").arg(bundleHash));
    v.notes.append(
        QStringLiteral("the range and the export record are not signed; the entries are, through the hash "
                       "chain to the signed checkpoint"));
    v.signedByReceiver = true;
    v.keyId = keyId;
    v.keyPinned = pin.isSet();
    v.ok = true;
    return v;
}

} // namespace redrive::audit
