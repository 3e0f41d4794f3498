// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#pragma once

#include "config/config.h"
#include "domain/consolelink.h"
#include "storage/database.h"

#include <QByteArray>
#include <QJsonObject>
#include <QList>
#include <QString>

#include <optional>

// Notifications to outside channels ([[notifications]], docs/operations.md "Notifications").
//
// A notification is stored as an event of the receiver's own source "redrive" (origin
// "notification") with one pending delivery per target that wants its kind, to the target's
// internal destination `notify:<name>`. The delivery engine then sends it like any delivery:
// its classification, retries, SSRF guard, Standard Webhooks signature and dead letters, and
// `notify:<name>` has its own concurrency, so a target that is down never slows event deliveries.
//
// One stable id per notification: the event's provider id is `<notification id>@<target>`, so
// the events' unique key makes a second enqueue of the same notification (another receiver, a
// retried transaction) a no-op, never a second message.
//
// What a notification may carry: ids, names, counts, categories, durations, reasons people wrote.
// Never a payload body or a header value: the builders below take only those, never an event.
namespace redrive::notify {

struct Notification {
    QString kind; // one of notificationKinds()
    QString id; // stable for the thing it is about, e.g. "incident.opened:42"
    qint64 atMs = 0;
    QString summary; // one line for people
    std::optional<ConsoleLink> link; // profile is filled in per target
    QJsonObject data;
    // A destination the notification is about: its own target is not told (a notification
    // target that is down must not notify itself about itself, in a loop).
    QString aboutDestination;
};

// The body sent to `target`: JSON {"type","id","at","summary","link","data"} or, for slack,
// {"text": "<summary> <link>"}.
QByteArray notificationBody(const Notification &notification, const NotificationConfig &target);
// The link as `target` receives it (its console_profile as ?profile=), or empty when none.
QString linkFor(const Notification &notification, const NotificationConfig &target);

// Inside the caller's transaction: stores `notification` for every target that wants its kind,
// each with a delivery due at `nowMs`. Returns how many deliveries it created (0 when none
// wants it or it was stored before).
Result<int> enqueue(
    Db &db, const QList<NotificationConfig> &targets, const Notification &notification, qint64 nowMs);

// Whether any target wants `kind` (callers skip building what nobody wants).
bool anyWants(const QList<NotificationConfig> &targets, QStringView kind);

// The notifications, built from ids and counts only.
Notification incidentOpened(qint64 incidentId, const QString &destination, const QString &category,
    qint64 deadLetters, bool grew, qint64 atMs);
Notification replayPendingApproval(qint64 replayId, const QString &requestedBy, int count,
    const QString &reason, qint64 expiresAtMs, qint64 atMs);
Notification replayHalted(
    qint64 replayId, qint64 failed, qint64 finished, qint64 unsent, const QString &reason, qint64 atMs);
Notification circuitChanged(const QString &destination, bool opened, const QString &reason, qint64 atMs);
Notification reconcileMissing(
    const QString &source, qint64 runId, qint64 missing, qint64 recovered, qint64 atMs);
Notification auditChainBroken(std::optional<qint64> firstBadSeq, const QString &problem, qint64 atMs);

} // namespace redrive::notify
