// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#pragma once

#include <QByteArray>
#include <QJsonObject>
#include <QString>

// One entry of the tamper-evident audit log and its hash. The console links this (through
// redrive_core) to verify the chain itself, so it depends on nothing in the receiver.
namespace redrive::audit {

// prev_hash of the first entry.
inline constexpr char kGenesisHash[] = "0000000000000000000000000000000000000000000000000000000000000000";

// Who the receiver itself is in the log, for what it does on its own (a pause that ended, a
// circuit that opened, the replay executor's steps).
inline constexpr char kSystemActor[] = "redrive";
inline constexpr char kSystemRole[] = "system";

// What a caller records; seq, time and hashes are added when the entry is appended.
struct AuditRecord {
    QString actor; // token name, "cli:<user>", or "redrive" for the replay executor
    QString role; // support | operator | auditor | admin | system
    QString action; // replay_requested, permission_denied, ...
    QString target; // "replay:12", "event:7", "destination:crm", "token:ci"
    QString reason;
    QJsonObject details;
};

struct AuditEntry {
    qint64 seq = 0;
    qint64 atMs = 0;
    QString actor;
    QString role;
    QString action;
    QString target;
    QString reason;
    QString details; // canonical JSON text, exactly as stored and hashed
    QString prevHash;
    QString hash; // lowercase hex SHA-256 of canonicalEncoding()
};

// The bytes an entry's hash covers: a domain tag, then every field except `hash` (seq, at,
// actor, role, action, target, reason, details, prev_hash), each as an 8-byte big-endian
// length followed by its UTF-8 bytes. Length prefixes make the encoding unambiguous: moving
// characters from one field into the next always changes the bytes.
QByteArray canonicalEncoding(const AuditEntry &entry);
QString computeEntryHash(const AuditEntry &entry);

// Compact JSON with keys in a fixed (sorted) order, the stored form of `details`.
QString canonicalJson(const QJsonObject &object);

// {"seq", "at" (ISO-8601 UTC), "at_ms", "actor", "role", "action", "target", "reason",
//  "details" (the stored text, byte for byte: the hash covers it), "prev_hash", "hash"}: one entry
// as evidence bundles and the admin API show it. Callers add their own members (the admin API
// shows "details" parsed, with the exact text as "details_json").
QJsonObject auditEntryJson(const AuditEntry &entry);

} // namespace redrive::audit
