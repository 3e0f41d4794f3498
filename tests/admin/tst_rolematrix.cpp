// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
// The full role × action matrix of docs/admin-api.md ("Roles"), through the API: every forbidden pair is a
// 403 with exactly one permission_denied audit entry and no other change; every allowed pair
// works.
#include "admin/denialcoalescer.h"
#include "adminfixture.h"

#include <QJsonArray>
#include <QSqlQuery>
#include <QTest>

using namespace redrive;
using namespace redrive::test;

class TstRoleMatrix : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase();
    void cleanupTestCase();
    void matrix_data();
    void matrix();

private:
    std::unique_ptr<AdminFixture> f;
};

void TstRoleMatrix::initTestCase()
{
    QString error;
    f = AdminFixture::create(&error);
    QVERIFY2(f, qPrintable(error));
    QVERIFY2(f->startApi(&error), qPrintable(error));
}

void TstRoleMatrix::cleanupTestCase()
{
    f.reset();
}

void TstRoleMatrix::matrix_data()
{
    QTest::addColumn<QString>("action");
    QTest::addColumn<Role>("role");
    QTest::addColumn<bool>("allowed");
    struct Row {
        const char *action;
        bool support, operatorRole, auditor, admin;
    };
    // Expected answers, from the brief's table (and issue 4 for notes and cancel).
    const Row rows[] = {
        { "whoami", true, true, true, true },
        { "list events", true, true, true, true },
        { "read event", true, true, true, true },
        { "list deliveries", true, true, true, true },
        { "read delivery", true, true, true, true },
        { "list destinations", true, true, true, true },
        { "list replays", true, true, true, true },
        { "read replay", true, true, true, true },
        { "add note", true, true, false, false },
        { "preview replay", true, true, false, false },
        { "request low-risk replay", true, true, false, false },
        { "request high-risk replay", true, true, false, false },
        { "approve someone else's replay", false, true, false, false },
        { "reject someone else's replay", false, true, false, false },
        { "cancel own replay (admin: any)", true, true, false, true },
        { "cancel someone else's replay", false, false, false, true },
        { "read audit log", false, true, true, true },
        { "verify audit log", false, true, true, true },
        { "audit checkpoint", false, true, true, true },
        { "export evidence", false, true, true, true },
        { "pause destination", false, false, false, true },
        { "resume destination", false, false, false, true },
        { "list incidents", true, true, true, true },
        { "acknowledge incident", true, true, false, false },
        { "revalidate event", true, true, false, false },
        { "revalidate events", true, true, false, false },
    };
    for (const Row &r : rows) {
        QTest::addRow("%s / support", r.action)
            << QString::fromLatin1(r.action) << Role::Support << r.support;
        QTest::addRow("%s / operator", r.action)
            << QString::fromLatin1(r.action) << Role::Operator << r.operatorRole;
        QTest::addRow("%s / auditor", r.action)
            << QString::fromLatin1(r.action) << Role::Auditor << r.auditor;
        QTest::addRow("%s / admin", r.action) << QString::fromLatin1(r.action) << Role::Admin << r.admin;
    }
}

void TstRoleMatrix::matrix()
{
    QFETCH(QString, action);
    QFETCH(Role, role);
    QFETCH(bool, allowed);
    const QString actorName = QStringLiteral("actor-") + toString(role);
    const QString actor = f->token(actorName, role);
    // Refusals are coalesced per token and minute (tst_deniedcoalescing); each row's refusal is
    // the first of a new minute, so it gets its entry at once.
    f->clock.advanceMs(admin::DenialCoalescer::kWindowMs);
    const QString requester = f->token(QStringLiteral("requester"), Role::Support);

    // Prerequisites, made by other identities.
    const qint64 event = f->insertEvent();
    const qint64 lowDelivery = f->insertDelivery(event, QStringLiteral("crm"), DeliveryStatus::Dead);
    const qint64 highDelivery = f->seedDelivery(QStringLiteral("fulfillment"), DeliveryStatus::Dead);
    qint64 othersReplay = 0;
    QString othersHash;
    if (action.contains(QLatin1String("someone else")) || action == u"read replay"
        || action.startsWith(QLatin1String("cancel own"))) {
        othersReplay = f->requestReplay(requester, { highDelivery });
        QVERIFY(othersReplay > 0);
        othersHash = f->call("GET", "replays/" + QByteArray::number(othersReplay), requester)
                         .json.value(QLatin1String("selection_hash"))
                         .toString();
    }
    QString previewHash;
    if (action.startsWith(QLatin1String("request"))) {
        // The preview is made by a role that may preview; the request is what is checked.
        const qint64 target = action.contains(QLatin1String("high")) ? highDelivery : lowDelivery;
        const auto p = f->call("POST", "replays/preview", requester,
            QJsonObject { { QStringLiteral("delivery_ids"), QJsonArray { target } } });
        QCOMPARE(p.status, 200);
        previewHash = p.json.value(QLatin1String("selection_hash")).toString();
    }
    qint64 ownReplay = 0;
    if (action.startsWith(QLatin1String("cancel own")) && (role == Role::Support || role == Role::Operator)) {
        ownReplay = f->requestReplay(
            actor, { f->seedDelivery(QStringLiteral("fulfillment"), DeliveryStatus::Dead) });
        QVERIFY(ownReplay > 0);
    }
    const QJsonObject reason { { QStringLiteral("reason"), QStringLiteral("matrix") } };
    qint64 incident = 0;
    if (action == u"acknowledge incident") {
        // An open incident of a group of its own per row (one open incident per group).
        QSqlQuery ins(f->db().handle());
        ins.prepare(QStringLiteral("INSERT INTO incidents (destination, category, opened_at, count_at_open, "
                                   "last_count, updated_at) VALUES ('crm', ?, 1, 1, 1, 1)"));
        ins.addBindValue(QString(QStringLiteral("matrix-") + actorName));
        QVERIFY2(ins.exec(), qPrintable(sqlErrorText(ins)));
        incident = ins.lastInsertId().toLongLong();
        QVERIFY(incident > 0);
    }

    if (action.startsWith(QLatin1String("revalidate"))) {
        // A quarantined event, so that an allowed revalidation has something to do.
        QSqlQuery quarantine(f->db().handle());
        quarantine.prepare(QStringLiteral("UPDATE event_status SET status = 'invalid' WHERE event_id = ?"));
        quarantine.addBindValue(event);
        QVERIFY2(quarantine.exec(), qPrintable(sqlErrorText(quarantine)));
    }

    QByteArray method = "GET";
    QByteArray target;
    QJsonObject body;
    if (action == u"whoami") {
        target = "whoami";
    } else if (action == u"list events") {
        target = "events?limit=5";
    } else if (action == u"read event") {
        target = "events/" + QByteArray::number(event);
    } else if (action == u"list deliveries") {
        target = "deliveries?limit=5";
    } else if (action == u"read delivery") {
        target = "deliveries/" + QByteArray::number(lowDelivery);
    } else if (action == u"list destinations") {
        target = "destinations";
    } else if (action == u"list replays") {
        target = "replays";
    } else if (action == u"read replay") {
        target = "replays/" + QByteArray::number(othersReplay);
    } else if (action == u"add note") {
        method = "POST";
        target = "events/" + QByteArray::number(event) + "/notes";
        body = { { QStringLiteral("body"), QStringLiteral("matrix") } };
    } else if (action == u"preview replay") {
        method = "POST";
        target = "replays/preview";
        body = { { QStringLiteral("delivery_ids"), QJsonArray { lowDelivery } } };
    } else if (action.startsWith(QLatin1String("request"))) {
        method = "POST";
        target = "replays";
        body = { { QStringLiteral("selection_hash"), previewHash },
            { QStringLiteral("reason"), QStringLiteral("matrix") } };
    } else if (action.startsWith(QLatin1String("approve"))) {
        method = "POST";
        target = "replays/" + QByteArray::number(othersReplay) + "/approve";
        body = { { QStringLiteral("selection_hash"), othersHash },
            { QStringLiteral("reason"), QStringLiteral("matrix") } };
    } else if (action.startsWith(QLatin1String("reject"))) {
        method = "POST";
        target = "replays/" + QByteArray::number(othersReplay) + "/reject";
        body = reason;
    } else if (action.startsWith(QLatin1String("cancel own"))) {
        method = "POST";
        target = "replays/" + QByteArray::number(ownReplay ? ownReplay : othersReplay) + "/cancel";
        body = reason;
    } else if (action.startsWith(QLatin1String("cancel someone"))) {
        method = "POST";
        target = "replays/" + QByteArray::number(othersReplay) + "/cancel";
        body = reason;
    } else if (action == u"read audit log") {
        target = "audit?limit=5";
    } else if (action == u"verify audit log") {
        target = "audit/verify";
    } else if (action == u"audit checkpoint") {
        target = "audit/checkpoint";
    } else if (action == u"export evidence") {
        target = "events/" + QByteArray::number(event) + "/evidence";
    } else if (action == u"pause destination") {
        method = "POST";
        target = "destinations/billing/pause";
        body = reason;
    } else if (action == u"resume destination") {
        method = "POST";
        target = "destinations/billing/resume";
        body = reason;
    } else if (action == u"list incidents") {
        target = "incidents";
    } else if (action == u"acknowledge incident") {
        method = "POST";
        target = "incidents/" + QByteArray::number(incident) + "/acknowledge";
        body = { { QStringLiteral("note"), QStringLiteral("matrix") } };
    } else if (action == u"revalidate event") {
        method = "POST";
        target = "events/" + QByteArray::number(event) + "/revalidate";
    } else if (action == u"revalidate events") {
        method = "POST";
        target = "events/revalidate";
        body = { { QStringLiteral("filter"),
            QJsonObject { { QStringLiteral("status"), QStringLiteral("invalid") } } } };
    } else {
        QFAIL("unknown action row");
    }

    const auto before = f->rowCounts();
    const QString replayStatusBefore = othersReplay ? f->replayStatus(othersReplay) : QString();
    const auto r = method == "GET" ? f->call(method, target, actor) : f->call(method, target, actor, body);
    if (allowed) {
        QVERIFY2(r.status == 200 || r.status == 201,
            qPrintable(QString::number(r.status) + u' ' + QString::fromUtf8(r.body)));
        return;
    }
    QCOMPARE(r.status, 403);
    QCOMPARE(r.error(), QStringLiteral("forbidden"));
    QVERIFY(!r.json.value(QLatin1String("message")).toString().isEmpty());
    // Exactly one new row, the audit entry; nothing else changed.
    auto after = f->rowCounts();
    QCOMPARE(after.value(QStringLiteral("audit_log")), before.value(QStringLiteral("audit_log")) + 1);
    after.insert(QStringLiteral("audit_log"), before.value(QStringLiteral("audit_log")));
    QCOMPARE(after, before);
    if (othersReplay)
        QCOMPARE(f->replayStatus(othersReplay), replayStatusBefore);
    QSqlQuery q(f->db().handle());
    QVERIFY(q.exec(
        QStringLiteral("SELECT actor, role, action, details FROM audit_log ORDER BY seq DESC LIMIT 1")));
    QVERIFY(q.next());
    QCOMPARE(q.value(0).toString(), actorName);
    QCOMPARE(q.value(1).toString(), toString(role));
    QCOMPARE(q.value(2).toString(), QStringLiteral("permission_denied"));
    QVERIFY2(q.value(3).toString().contains(QString::fromLatin1(
                 target.left(target.indexOf('?') < 0 ? target.size() : target.indexOf('?')))),
        qPrintable(q.value(3).toString()));
}

QTEST_GUILESS_MAIN(TstRoleMatrix)
#include "tst_rolematrix.moc"
