// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
// Pure logic of issue 4: the roles × actions table, token format and hashing, selection hashes,
// the approval rule and the effect-in-words text, and the replay wire form both programs share.
#include "access/apitokens.h"
#include "access/permissions.h"
#include "replay/replaypolicy.h"
#include "replay/replaywire.h"
#include "replay/selection.h"

#include <QJsonArray>
#include <QSet>
#include <QTest>

using namespace redrive;
using namespace redrive::access;
using namespace redrive::replay;

namespace {
SelectionItem item(qint64 id, const QString &dest, Risk risk, DeliveryStatus status = DeliveryStatus::Dead,
    bool unknown = false)
{
    SelectionItem i;
    i.deliveryId = id;
    i.eventId = id * 10;
    i.destination = dest;
    i.risk = risk;
    i.status = status;
    i.outcomeUnknown = unknown;
    return i;
}
} // namespace

class TstAccessPolicy : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void matrix_data();
    void matrix();
    void actionNamesRoundTrip();
    void tokensHaveTheDocumentedShape();
    void tokenShapeCheck_data();
    void tokenShapeCheck();
    void tokenState();
    void tokenNames_data();
    void tokenNames();
    void selectionHashBindsEverything();
    void approvalRule_data();
    void approvalRule();
    void effectInWords_data();
    void effectInWords();
    void summaryRoundTrips();
    void frozenDriftRules();
    void summaryRisk();
    void replayRecordRoundTrips();
    void replayItemRoundTrips();
    void unknownWordsKeptAsSent();
    void missingKeysRefusedByName_data();
    void missingKeysRefusedByName();
};

void TstAccessPolicy::matrix_data()
{
    // The table in docs/admin-api.md ("Roles"), written out independently of the implementation.
    QTest::addColumn<Action>("action");
    QTest::addColumn<bool>("support");
    QTest::addColumn<bool>("operatorRole");
    QTest::addColumn<bool>("auditor");
    QTest::addColumn<bool>("admin");
    QTest::newRow("read events, deliveries, attempts") << Action::ReadEvents << true << true << true << true;
    QTest::newRow("read replays") << Action::ReadReplays << true << true << true << true;
    QTest::newRow("add notes") << Action::AddNote << true << true << false << false;
    QTest::newRow("replay low-risk, not-yet-succeeded")
        << Action::RequestReplay << true << true << false << false;
    QTest::newRow("request a high-risk replay")
        << Action::RequestHighRiskReplay << true << true << false << false;
    QTest::newRow("approve / reject someone else's request")
        << Action::DecideReplay << false << true << false << false;
    QTest::newRow("cancel (own; admin any)") << Action::CancelReplay << true << true << false << true;
    QTest::newRow("read and verify the audit log") << Action::ReadAudit << false << true << true << true;
    QTest::newRow("export evidence") << Action::ExportEvidence << false << true << true << true;
    QTest::newRow("pause / resume destinations")
        << Action::ManageDestinations << false << false << false << true;
    QTest::newRow("manage tokens") << Action::ManageTokens << false << false << false << true;
    QTest::newRow("acknowledge an incident (triage)")
        << Action::AcknowledgeIncident << true << true << false << false;
    QTest::newRow("run reconciliation") << Action::RunReconciliation << false << true << false << true;
    QTest::newRow("revalidate events (triage)") << Action::RevalidateEvents << true << true << false << false;
    QTest::newRow("resolve dead letters (triage)")
        << Action::ResolveDeliveries << true << true << false << false;
    QTest::newRow("reveal a redacted body") << Action::RevealPayload << false << true << true << false;
    QTest::newRow("request an erasure") << Action::RequestErasure << false << true << false << false;
    QTest::newRow("approve / reject someone else's erasure")
        << Action::DecideErasure << false << true << false << false;
    QTest::newRow("legal hold") << Action::HoldEvents << false << true << true << false;
}

void TstAccessPolicy::matrix()
{
    QFETCH(Action, action);
    QFETCH(bool, support);
    QFETCH(bool, operatorRole);
    QFETCH(bool, auditor);
    QFETCH(bool, admin);
    QCOMPARE(allows(Role::Support, action), support);
    QCOMPARE(allows(Role::Operator, action), operatorRole);
    QCOMPARE(allows(Role::Auditor, action), auditor);
    QCOMPARE(allows(Role::Admin, action), admin);
}

void TstAccessPolicy::actionNamesRoundTrip()
{
    QSet<QString> names;
    for (Action a : allActions()) {
        const QString name = toString(a);
        QVERIFY(!name.isEmpty());
        QVERIFY(actionFromString(name) == a);
        names.insert(name);
    }
    QCOMPARE(names.size(), allActions().size());
    QCOMPARE(allActions().size(), 19);
    QVERIFY(allowedActionNames(Role::Auditor).contains(QStringLiteral("read_audit")));
    QVERIFY(!allowedActionNames(Role::Auditor).contains(QStringLiteral("request_replay")));
}

void TstAccessPolicy::tokensHaveTheDocumentedShape()
{
    QSet<QString> seen;
    for (int i = 0; i < 50; ++i) {
        const QString t = generateApiToken();
        QVERIFY(t.startsWith(QLatin1String("rdt_")));
        QCOMPARE(t.size(), 4 + 43);
        QVERIFY(looksLikeApiToken(t.toLatin1()));
        seen.insert(t);
        const QString h = hashApiToken(t.toLatin1());
        QCOMPARE(h.size(), 64);
        QVERIFY(!h.contains(t.mid(4, 8)));
    }
    QCOMPARE(seen.size(), 50);
    // SHA-256("rdt_x") is a fixed function of the token text.
    QCOMPARE(hashApiToken("abc"),
        QStringLiteral("ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"));
}

void TstAccessPolicy::tokenShapeCheck_data()
{
    QTest::addColumn<QByteArray>("token");
    QTest::addColumn<bool>("ok");
    const QByteArray good = "rdt_" + QByteArray(43, 'A');
    QTest::newRow("good") << good << true;
    QTest::newRow("url-safe alphabet") << QByteArray("rdt_" + QByteArray(41, 'a') + "-_") << true;
    QTest::newRow("no prefix") << QByteArray(47, 'A') << false;
    QTest::newRow("short") << QByteArray("rdt_" + QByteArray(42, 'A')) << false;
    QTest::newRow("long") << QByteArray("rdt_" + QByteArray(44, 'A')) << false;
    QTest::newRow("plus sign") << QByteArray("rdt_" + QByteArray(42, 'A') + "+") << false;
    QTest::newRow("padding") << QByteArray("rdt_" + QByteArray(42, 'A') + "=") << false;
    QTest::newRow("empty") << QByteArray() << false;
}

void TstAccessPolicy::tokenShapeCheck()
{
    QFETCH(QByteArray, token);
    QFETCH(bool, ok);
    QCOMPARE(looksLikeApiToken(token), ok);
}

void TstAccessPolicy::tokenState()
{
    ApiToken t;
    QVERIFY(access::tokenState(t, 100) == TokenState::Valid);
    t.expiresAt = 100;
    QVERIFY(access::tokenState(t, 99) == TokenState::Valid);
    QVERIFY(access::tokenState(t, 100) == TokenState::Expired);
    t.revokedAt = 50;
    QVERIFY(access::tokenState(t, 10) == TokenState::Revoked);
}

void TstAccessPolicy::tokenNames_data()
{
    QTest::addColumn<QString>("name");
    QTest::addColumn<bool>("ok");
    QTest::newRow("simple") << "ci-bot" << true;
    QTest::newRow("email-like") << "alice@example.org" << true;
    QTest::newRow("empty") << "" << false;
    QTest::newRow("space") << "a b" << false;
    QTest::newRow("colon") << "cli:root" << false;
    QTest::newRow("too long") << QString(65, u'a') << false;
    QTest::newRow("64") << QString(64, u'a') << true;
    QTest::newRow("unicode") << QStringLiteral("élan") << false;
}

void TstAccessPolicy::tokenNames()
{
    QFETCH(QString, name);
    QFETCH(bool, ok);
    QCOMPARE(isValidTokenName(name), ok);
}

void TstAccessPolicy::selectionHashBindsEverything()
{
    const QList<SelectionItem> base { item(1, QStringLiteral("crm"), Risk::Low),
        item(2, QStringLiteral("crm"), Risk::Low) };
    const QString h = selectionHash(base);
    QCOMPARE(h.size(), 64);
    QCOMPARE(selectionHash(base), h);
    auto changed = [&](auto mutate) {
        QList<SelectionItem> copy = base;
        mutate(copy);
        return selectionHash(copy);
    };
    QVERIFY(changed([](auto &c) { c[1].deliveryId = 3; }) != h);
    QVERIFY(changed([](auto &c) { c[1].status = DeliveryStatus::Succeeded; }) != h);
    QVERIFY(changed([](auto &c) { c[1].outcomeUnknown = true; }) != h);
    QVERIFY(changed([](auto &c) { c[1].risk = Risk::High; }) != h);
    QVERIFY(changed([](auto &c) { c[1].destination = QStringLiteral("crm2"); }) != h);
    QVERIFY(changed([](auto &c) { c.removeLast(); }) != h);
    QVERIFY(selectionHash({}) != h);
    // Stored form round-trips.
    const auto back = itemsFromJson(itemsToJson(base));
    QVERIFY(back);
    QVERIFY(*back == base);
    QVERIFY(!itemsFromJson(QStringLiteral("[[1,2]]")));
    QVERIFY(!itemsFromJson(QStringLiteral("{}")));
}

void TstAccessPolicy::approvalRule_data()
{
    QTest::addColumn<QList<SelectionItem>>("items");
    QTest::addColumn<bool>("needsApproval");
    QTest::addColumn<QStringList>("reasons");
    const QString crm = QStringLiteral("crm");
    const QString ful = QStringLiteral("fulfillment");
    QTest::newRow("low risk dead") << QList<SelectionItem> { item(1, crm, Risk::Low),
        item(2, crm, Risk::Low, DeliveryStatus::Retrying) }
                                   << false << QStringList {};
    QTest::newRow("high risk") << QList<SelectionItem> { item(1, crm, Risk::Low), item(2, ful, Risk::High) }
                               << true << QStringList { QStringLiteral("high_risk_destination") };
    QTest::newRow("already succeeded")
        << QList<SelectionItem> { item(1, crm, Risk::Low, DeliveryStatus::Succeeded) } << true
        << QStringList { QStringLiteral("already_succeeded") };
    QTest::newRow("outcome unknown") << QList<SelectionItem> { item(1, crm, Risk::Low, DeliveryStatus::Dead,
        true) } << true << QStringList { QStringLiteral("outcome_unknown") };
    QTest::newRow("all three") << QList<SelectionItem> { item(1, ful, Risk::High, DeliveryStatus::Succeeded,
        true) } << true
                               << QStringList { QStringLiteral("high_risk_destination"),
                                      QStringLiteral("already_succeeded"),
                                      QStringLiteral("outcome_unknown") };
}

void TstAccessPolicy::approvalRule()
{
    QFETCH(QList<SelectionItem>, items);
    QFETCH(bool, needsApproval);
    QFETCH(QStringList, reasons);
    const SelectionSummary s = summarise(items);
    QCOMPARE(s.requiresApproval, needsApproval);
    QCOMPARE(s.approvalReasons, reasons);
    QCOMPARE(s.count, items.size());
}

void TstAccessPolicy::effectInWords_data()
{
    QTest::addColumn<QList<SelectionItem>>("items");
    QTest::addColumn<QString>("effect");
    const QString crm = QStringLiteral("crm");
    const QString ful = QStringLiteral("fulfillment");
    QList<SelectionItem> twelve;
    for (int i = 1; i <= 12; ++i)
        twelve.append(item(i, ful, Risk::High, i <= 3 ? DeliveryStatus::Succeeded : DeliveryStatus::Dead));
    QTest::newRow("the brief's example")
        << twelve
        << QStringLiteral(
               "12 deliveries to fulfillment (high risk) will be sent again with their original idempotency keys; "
               "3 of them already succeeded downstream. It needs approval by an operator other than the requester.");
    QTest::newRow("one low-risk")
        << QList<SelectionItem> { item(1, crm, Risk::Low) }
        << QStringLiteral(
               "1 delivery to crm (low risk) will be sent again with its original idempotency key. "
               "It runs as soon as it is requested.");
    QTest::newRow("two destinations, unknown outcome")
        << QList<SelectionItem> { item(1, ful, Risk::High),
               item(2, crm, Risk::Low, DeliveryStatus::Dead, true), item(3, crm, Risk::Low) }
        << QStringLiteral(
               "3 deliveries will be sent again with their original idempotency keys: 2 to crm (low risk) and "
               "1 to fulfillment (high risk); 1 of them may already have reached the destination (outcome unknown). "
               "It needs approval by an operator other than the requester.");
}

void TstAccessPolicy::effectInWords()
{
    QFETCH(QList<SelectionItem>, items);
    QFETCH(QString, effect);
    QCOMPARE(summarise(items).effect, effect);
}

void TstAccessPolicy::summaryRoundTrips()
{
    const SelectionSummary s
        = summarise({ item(1, QStringLiteral("fulfillment"), Risk::High, DeliveryStatus::Succeeded),
            item(2, QStringLiteral("crm"), Risk::Low) });
    const auto back = SelectionSummary::fromJson(s.toJson());
    QVERIFY(back);
    QCOMPARE(back->count, 2);
    QCOMPARE(back->alreadySucceeded, 1);
    QCOMPARE(back->requiresApproval, true);
    QCOMPARE(back->approvalReasons, s.approvalReasons);
    QVERIFY(back->destinations == s.destinations);
    QCOMPARE(back->effect, s.effect);
    // An unknown risk word is refused, by name, not read as some risk.
    QJsonObject unknown = s.toJson();
    unknown.insert(QStringLiteral("destinations"),
        QJsonArray { QJsonObject { { QStringLiteral("name"), QStringLiteral("crm") },
            { QStringLiteral("risk"), QStringLiteral("extreme") }, { QStringLiteral("count"), 1 } } });
    const auto refused = SelectionSummary::fromJson(unknown);
    QVERIFY(!refused);
    QVERIFY(refused.error().contains(QStringLiteral("extreme")));
}

// The one "frozen selection changed" rule that request, approval and execution share.
void TstAccessPolicy::frozenDriftRules()
{
    using replay::DeliveryState;
    using replay::FrozenDrift;
    const DeliveryState dead { DeliveryStatus::Dead, false };
    QCOMPARE(replay::frozenDrift(dead, DeliveryState { DeliveryStatus::Dead, false }), FrozenDrift::None);
    QCOMPARE(replay::frozenDrift(dead, std::nullopt), FrozenDrift::Gone);
    QCOMPARE(
        replay::frozenDrift(dead, DeliveryState { DeliveryStatus::Succeeded, false }), FrozenDrift::Status);
    QCOMPARE(
        replay::frozenDrift(dead, DeliveryState { DeliveryStatus::Dead, true }), FrozenDrift::OutcomeUnknown);
    // Both changed: the status move is what the requester is told.
    QCOMPARE(
        replay::frozenDrift(dead, DeliveryState { DeliveryStatus::Retrying, true }), FrozenDrift::Status);
    // A stored status this build does not know still differs from a known one.
    QCOMPARE(replay::frozenDrift(
                 dead, DeliveryState { Stored<DeliveryStatus>::fromName(QStringLiteral("parked")), false }),
        FrozenDrift::Status);
}

// The two risk readings of a summary: the destinations' risk, and "could act twice or needs approval".
void TstAccessPolicy::summaryRisk()
{
    const SelectionSummary low = summarise({ item(1, QStringLiteral("crm"), Risk::Low) });
    QVERIFY(low.risk() == Risk::Low);
    QVERIFY(!low.isHighRisk());
    const SelectionSummary succeeded
        = summarise({ item(1, QStringLiteral("crm"), Risk::Low, DeliveryStatus::Succeeded) });
    QVERIFY(succeeded.risk() == Risk::Low); // no high-risk destination …
    QVERIFY(succeeded.isHighRisk()); // … but it may act twice downstream
    const SelectionSummary high = summarise(
        { item(1, QStringLiteral("crm"), Risk::Low), item(2, QStringLiteral("fulfillment"), Risk::High) });
    QVERIFY(high.risk() == Risk::High);
    QVERIFY(high.isHighRisk());
}

namespace {
ReplayRecord fullRecord()
{
    ReplayRecord r;
    r.id = 42;
    r.status = ReplayStatus::Halted;
    r.requestedBy = QStringLiteral("sue-token");
    r.requesterRole = toString(Role::Operator);
    r.requesterOwner = QStringLiteral("sue");
    r.decidedBy = QStringLiteral("olga-token");
    r.deciderOwner = QStringLiteral("olga");
    r.decisionReason = QStringLiteral("checked with fulfillment");
    r.reason = QStringLiteral("crm was down");
    r.ticket = QStringLiteral("OPS-9");
    r.summary = summarise({ item(1, QStringLiteral("fulfillment"), Risk::High, DeliveryStatus::Succeeded),
        item(2, QStringLiteral("crm"), Risk::Low, DeliveryStatus::Dead, true),
        item(3, QStringLiteral("crm"), Risk::Low) });
    r.count = r.summary.count;
    r.selectionHash = QString(64, u'c');
    r.createdAt = WireTime::fromMs(1'750'000'000'000);
    r.updatedAt = WireTime::fromMs(1'750'000'900'000);
    r.decidedAt = WireTime::fromMs(1'750'000'300'000);
    r.approvalExpiresAt = WireTime::fromMs(1'750'003'600'000);
    r.startedAt = WireTime::fromMs(1'750'000'400'000);
    r.finishedAt = WireTime::fromMs(1'750'000'900'000);
    r.queued = 3;
    r.succeeded = 1;
    r.failed = 1;
    r.skipped = 1;
    r.sent = 2;
    r.haltReason = QStringLiteral("1 of the first 2 finished attempts failed");
    return r;
}
} // namespace

void TstAccessPolicy::replayRecordRoundTrips()
{
    const ReplayRecord r = fullRecord();
    const QJsonObject json = r.toJson();
    QCOMPARE(json.value(QLatin1String("status")).toString(), toString(ReplayStatus::Halted));
    QCOMPARE(json.value(QLatin1String("created_at")).toString(), QStringLiteral("2025-06-15T15:06:40.000Z"));
    QCOMPARE(json.value(QLatin1String("approved_by")).toString(), QStringLiteral("olga-token"));
    QCOMPARE(json.value(QLatin1String("count")).toInt(), 3);
    QVERIFY(json.value(QLatin1String("requires_approval")).toBool());
    const auto back = ReplayRecord::fromJson(json);
    QVERIFY2(back, qPrintable(back ? QString() : back.error()));
    QCOMPARE(back->id, r.id);
    QVERIFY(back->status == ReplayStatus::Halted);
    QCOMPARE(back->requestedBy, r.requestedBy);
    QCOMPARE(back->requesterRole, r.requesterRole);
    QCOMPARE(back->requesterOwner, r.requesterOwner);
    QCOMPARE(back->decidedBy, r.decidedBy);
    QCOMPARE(back->deciderOwner, r.deciderOwner);
    QCOMPARE(back->decisionReason, r.decisionReason);
    QCOMPARE(back->reason, r.reason);
    QCOMPARE(back->ticket, r.ticket);
    QCOMPARE(back->count, r.count);
    QCOMPARE(back->selectionHash, r.selectionHash);
    QVERIFY(back->summary.destinations == r.summary.destinations);
    QCOMPARE(back->summary.approvalReasons, r.summary.approvalReasons);
    QCOMPARE(back->summary.alreadySucceeded, 1);
    QCOMPARE(back->summary.outcomeUnknown, 1);
    QCOMPARE(back->summary.effect, r.summary.effect);
    QVERIFY(back->summary.risk() == Risk::High);
    // Times: parsed once into milliseconds, the text kept as sent.
    QVERIFY(back->createdAt == r.createdAt);
    QCOMPARE(back->createdAt.ms, std::optional<qint64>(1'750'000'000'000));
    QVERIFY(back->updatedAt == r.updatedAt);
    QVERIFY(back->decidedAt == r.decidedAt);
    QVERIFY(back->approvalExpiresAt == r.approvalExpiresAt);
    QVERIFY(back->startedAt == r.startedAt);
    QVERIFY(back->finishedAt == r.finishedAt);
    QCOMPARE(back->queued, 3);
    QCOMPARE(back->succeeded, 1);
    QCOMPARE(back->failed, 1);
    QCOMPARE(back->skipped, 1);
    QCOMPARE(back->sent, 2);
    QCOMPARE(back->unsent(), 0);
    QCOMPARE(back->haltReason, r.haltReason);
    QCOMPARE(back->toJson(), json); // and written back unchanged

    // A rejection names its decider, never an approver; empty optional text is null.
    ReplayRecord rejected = fullRecord();
    rejected.status = ReplayStatus::Rejected;
    rejected.ticket.clear();
    rejected.startedAt = {};
    const QJsonObject rj = rejected.toJson();
    QVERIFY(rj.value(QLatin1String("approved_by")).isNull());
    QCOMPARE(rj.value(QLatin1String("decided_by")).toString(), QStringLiteral("olga-token"));
    QVERIFY(rj.value(QLatin1String("ticket")).isNull());
    QVERIFY(rj.value(QLatin1String("started_at")).isNull());
    const auto rback = ReplayRecord::fromJson(rj);
    QVERIFY(rback);
    QCOMPARE(rback->decidedBy, QStringLiteral("olga-token"));
    QVERIFY(rback->startedAt.isNull());

    // Older receivers: no "sent" (a finished attempt is a success or a failure), no "decided_by".
    QJsonObject older = json;
    older.remove(QStringLiteral("sent"));
    older.remove(QStringLiteral("decided_by"));
    const auto oback = ReplayRecord::fromJson(older);
    QVERIFY(oback);
    QCOMPARE(oback->sent, 2);
    QCOMPARE(oback->decidedBy, QStringLiteral("olga-token"));
    // A time sent with an offset is read as that instant and written back as sent.
    older.insert(QStringLiteral("created_at"), QStringLiteral("2025-06-15T17:06:40+02:00"));
    const auto offset = ReplayRecord::fromJson(older);
    QVERIFY(offset);
    QCOMPARE(offset->createdAt.ms, std::optional<qint64>(1'750'000'000'000));
    QCOMPARE(offset->toJson().value(QLatin1String("created_at")).toString(),
        QStringLiteral("2025-06-15T17:06:40+02:00"));
}

void TstAccessPolicy::replayItemRoundTrips()
{
    ReplayItem i;
    i.deliveryId = 40;
    i.frozenStatus = DeliveryStatus::Dead;
    i.frozenOutcomeUnknown = true;
    i.state = ReplayItemState::Skipped;
    i.skipReason = QStringLiteral("changed since the preview");
    i.currentStatus = DeliveryStatus::Succeeded;
    i.eventId = 12;
    i.destination = QStringLiteral("fulfillment");
    i.outcomeUnknown = false;
    const QJsonObject json = i.toJson();
    QCOMPARE(json.value(QLatin1String("state")).toString(), toString(ReplayItemState::Skipped));
    QCOMPARE(json.value(QLatin1String("frozen_status")).toString(), toString(DeliveryStatus::Dead));
    const auto back = ReplayItem::fromJson(json);
    QVERIFY(back);
    QCOMPARE(back->deliveryId, qint64(40));
    QVERIFY(back->frozenStatus == DeliveryStatus::Dead);
    QCOMPARE(back->frozenOutcomeUnknown, std::optional<bool>(true));
    QVERIFY(back->state == ReplayItemState::Skipped);
    QCOMPARE(back->skipReason, i.skipReason);
    QVERIFY(back->currentStatus == DeliveryStatus::Succeeded);
    QCOMPARE(back->eventId, std::optional<qint64>(12));
    QCOMPARE(back->destination, i.destination);
    QCOMPARE(back->outcomeUnknown, std::optional<bool>(false));
    QCOMPARE(back->outcomeUnknownFrozenOrNow(), std::optional<bool>(true)); // the frozen flag wins
    QCOMPARE(back->toJson(), json);

    // A delivery retention removed: what it is now is null, and stays null.
    ReplayItem gone;
    gone.deliveryId = 41;
    gone.frozenStatus = DeliveryStatus::Succeeded;
    gone.frozenOutcomeUnknown = false;
    gone.state = ReplayItemState::Waiting;
    const QJsonObject gj = gone.toJson();
    for (const char *key : { "current_status", "event_id", "destination", "skip_reason", "outcome_unknown" })
        QVERIFY2(gj.value(QLatin1String(key)).isNull(), key);
    const auto gback = ReplayItem::fromJson(gj);
    QVERIFY(gback);
    QVERIFY(gback->currentStatus.isNull());
    QVERIFY(!gback->eventId);
    QVERIFY(gback->destination.isNull());
    QCOMPARE(gback->toJson(), gj);
}

// A status word this build does not know is kept as sent, equals no known status, and is written
// back unchanged: a newer receiver's words reach the console's table instead of vanishing.
void TstAccessPolicy::unknownWordsKeptAsSent()
{
    QJsonObject record = fullRecord().toJson();
    record.insert(QStringLiteral("status"), QStringLiteral("paused_by_moon"));
    const auto r = ReplayRecord::fromJson(record);
    QVERIFY(r);
    QVERIFY(!r->status.isKnown());
    QCOMPARE(r->status.name(), QStringLiteral("paused_by_moon"));
    QVERIFY(!r->isLive());
    QVERIFY(!r->canQueue());
    QCOMPARE(r->toJson(), record);

    ReplayItem i;
    i.deliveryId = 7;
    i.frozenStatus = DeliveryStatus::Dead;
    QJsonObject item = i.toJson();
    item.insert(QStringLiteral("frozen_status"), QStringLiteral("parked"));
    item.insert(QStringLiteral("state"), QStringLiteral("teleported"));
    item.insert(QStringLiteral("current_status"), QStringLiteral("archived"));
    const auto back = ReplayItem::fromJson(item);
    QVERIFY(back);
    QVERIFY(!back->frozenStatus.isKnown());
    QCOMPARE(back->frozenStatus.name(), QStringLiteral("parked"));
    QVERIFY(!back->state.isKnown());
    QCOMPARE(back->state.name(), QStringLiteral("teleported"));
    QCOMPARE(back->currentStatus.name(), QStringLiteral("archived"));
    QCOMPARE(back->toJson(), item);
}

void TstAccessPolicy::missingKeysRefusedByName_data()
{
    QTest::addColumn<bool>("isItem");
    QTest::addColumn<QString>("key");
    QTest::newRow("record id") << false << "id";
    QTest::newRow("record status") << false << "status";
    QTest::newRow("record count") << false << "count";
    QTest::newRow("item delivery_id") << true << "delivery_id";
    QTest::newRow("item frozen_status") << true << "frozen_status";
}

void TstAccessPolicy::missingKeysRefusedByName()
{
    QFETCH(bool, isItem);
    QFETCH(QString, key);
    ReplayItem i;
    i.deliveryId = 7;
    i.frozenStatus = DeliveryStatus::Dead;
    QJsonObject json = isItem ? i.toJson() : fullRecord().toJson();
    QVERIFY(isItem ? bool(ReplayItem::fromJson(json)) : bool(ReplayRecord::fromJson(json)));
    json.remove(key);
    const QString error = isItem ? ReplayItem::fromJson(json).error() : ReplayRecord::fromJson(json).error();
    QVERIFY2(error.contains(QStringLiteral("\"%1\"").arg(key)), qPrintable(error));
    // A null is as good as missing.
    json.insert(key, QJsonValue(QJsonValue::Null));
    QVERIFY(isItem ? !ReplayItem::fromJson(json) : !ReplayRecord::fromJson(json));
}

QTEST_GUILESS_MAIN(TstAccessPolicy)
#include "tst_accesspolicy.moc"
