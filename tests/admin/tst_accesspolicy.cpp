// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
// Pure logic of issue 4: the roles × actions table, token format and hashing, selection hashes,
// the approval rule and the effect-in-words text.
#include "access/apitokens.h"
#include "access/permissions.h"
#include "replay/replaypolicy.h"
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
    QCOMPARE(allActions().size(), 14);
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

QTEST_GUILESS_MAIN(TstAccessPolicy)
#include "tst_accesspolicy.moc"
