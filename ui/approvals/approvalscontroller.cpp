// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#include "approvalscontroller.h"

#include "api/adminclient.h"
#include "approvals/approvalmodel.h"
#include "common/accessibleparts.h"
#include "common/plural.h"
#include "common/prompter.h"
#include "common/tablepage.h"
#include "connection/session.h"
#include "newreplay/replaypreview.h"
#include "replays/replayitemsmodel.h"
#include "util/clock.h"

#include <QHBoxLayout>
#include <QHeaderView>
#include <QJsonArray>
#include <QLabel>
#include <QLayout>
#include <QPushButton>
#include <QSplitter>
#include <QTableView>
#include <QTimer>
#include <QVBoxLayout>

#include <algorithm>

namespace redrive::ui {
namespace {

QTableView *makeTable(QWidget *parent, const char *name, const QString &accessibleName)
{
    auto *t = new QTableView(parent);
    t->setObjectName(QLatin1String(name));
    TablePage::setupTableView(t, accessibleName);
    return t;
}

QLabel *plainLabel(QWidget *parent, const char *name)
{
    auto *l = new QLabel(parent);
    l->setObjectName(QLatin1String(name));
    l->setTextFormat(Qt::PlainText);
    l->setWordWrap(true);
    return l;
}

} // namespace

ApprovalsController::ApprovalsController(Session *session, QWidget *page, const Clock &clock, QObject *parent)
    : QObject(parent)
    , m_session(session)
    , m_clock(clock)
    , m_container(new TablePage(
          QStringLiteral("approvalTable"), QStringLiteral("Replay requests waiting for approval")))
    , m_model(new ApprovalModel(this))
    , m_items(new ReplayItemsModel(this, ReplayItemsModel::View::FrozenSelection))
    , m_table(m_container->table())
    , m_itemTable(
          makeTable(m_container, "approvalItemsTable", QStringLiteral("Frozen selection of the request")))
    , m_summary(m_container->status())
    , m_effect(plainLabel(m_container, "approvalEffect"))
    , m_itemsNote(plainLabel(m_container, "approvalItemsNote"))
    , m_statusNote(plainLabel(nullptr, "approvalsStatusNote"))
    , m_approve(new QPushButton(QStringLiteral("Approve…"), m_container))
    , m_reject(new QPushButton(QStringLiteral("Reject…"), m_container))
    , m_poll(new QTimer(this))
{
    page->layout()->addWidget(m_container);
    m_table->setModel(m_model);
    m_itemTable->setModel(m_items);
    speakAsStatus(m_effect, QStringLiteral("What the request would do"));
    m_effect->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_statusNote->setWordWrap(false);
    m_statusNote->hide();
    m_approve->setObjectName(QStringLiteral("approveButton"));
    m_approve->setAccessibleName(QStringLiteral("Approve the selected request"));
    m_reject->setObjectName(QStringLiteral("rejectButton"));
    m_reject->setAccessibleName(QStringLiteral("Reject the selected request"));
    m_summary->setObjectName(QStringLiteral("approvalSummary"));
    m_container->addButton(m_reject);
    m_container->addButton(m_approve);
    auto *detail = new QWidget;
    auto *detailLayout = new QVBoxLayout(detail);
    detailLayout->setContentsMargins(0, 0, 0, 0);
    detailLayout->addWidget(m_effect);
    detailLayout->addWidget(m_itemsNote);
    detailLayout->addWidget(m_itemTable, 1);
    m_container->setDetail(detail);
    connect(m_approve, &QPushButton::clicked, this, [this] { decide(true); });
    connect(m_reject, &QPushButton::clicked, this, [this] { decide(false); });
    connect(m_table->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
        &ApprovalsController::currentChanged);
    connect(m_model, &QAbstractItemModel::modelReset, this, &ApprovalsController::currentChanged);
    currentChanged();

    // The count reaches the tab title and the status bar while the user is on another page.
    m_poll->setInterval(15'000);
    connect(m_poll, &QTimer::timeout, this, &ApprovalsController::refresh);
    if (session->admin() && session->permissions().approve) {
        m_poll->start();
        refresh();
    }
}

ApprovalsController::~ApprovalsController()
{
    delete m_statusNote; // it lives in the main window's status bar
    delete m_container;
}

void ApprovalsController::setPollInterval(int ms)
{
    m_poll->setInterval(ms);
}

void ApprovalsController::updateButtons()
{
    const QModelIndex current = m_table->selectionModel()->currentIndex();
    const bool can
        = m_session->permissions().approve && m_model->requestAt(current) && !m_model->isOwn(current);
    m_approve->setEnabled(can);
    m_reject->setEnabled(can);
    const QString why = m_model->isOwn(current)
        ? QStringLiteral("You requested this replay; another operator must decide it.")
        : QString();
    m_approve->setToolTip(why);
    m_reject->setToolTip(why);
}

void ApprovalsController::currentChanged()
{
    if (m_refreshing)
        return; // the refresh puts the selection back and calls again
    updateButtons();
    const QModelIndex current = m_table->selectionModel()->currentIndex();
    const ReplayRecord *r = m_model->requestAt(current);
    if (!r) {
        m_shownId = 0;
        ++m_itemsGeneration;
        m_items->clear();
        m_effect->setText(m_model->rowCount() > 0
                ? QStringLiteral("Select a request to see what it would do.")
                : QString());
        m_itemsNote->clear();
        return;
    }
    // The effect the requester saw, and why it needs a second person, in words.
    QString text = r->summary.effect.isEmpty()
        ? QStringLiteral("%1 would be sent again.").arg(deliveriesText(r->count))
        : r->summary.effect;
    const QStringList reasons = approvalReasonsInWords(r->summary);
    if (!reasons.isEmpty())
        text += QStringLiteral("\nNeeds approval because: %1.").arg(reasons.join(QLatin1String("; ")));
    if (m_model->isOwn(current))
        text += QStringLiteral("\nYou requested this replay; another operator must decide it.");
    m_effect->setText(text);
    if (r->id != m_shownId)
        loadItems(r->id);
}

void ApprovalsController::loadItems(qint64 replayId)
{
    AdminClient *admin = m_session->admin();
    m_shownId = replayId;
    m_items->clear();
    if (!admin)
        return;
    m_itemsNote->setText(QStringLiteral("Loading the frozen selection…"));
    const quint64 generation = ++m_itemsGeneration;
    ApiReply *reply = admin->replay(replayId);
    connect(reply, &ApiReply::finished, this,
        [this, replayId, generation](const QJsonDocument &body, const ApiError &error) {
            if (generation != m_itemsGeneration)
                return; // the user moved on to another request
            if (!error.ok()) {
                m_itemsNote->setText(
                    QStringLiteral("The frozen selection could not be read: ") + error.message);
                return;
            }
            const QJsonObject o = body.object();
            QList<ReplayItem> items;
            const QJsonArray array = o.value(QLatin1String("items")).toArray();
            for (const auto &v : array) {
                auto item = ReplayItem::fromJson(v.toObject());
                if (!item) {
                    m_itemsNote->setText(
                        QStringLiteral("The frozen selection could not be read: ") + item.error());
                    return;
                }
                items.append(std::move(*item));
            }
            const int shown = int(items.size());
            m_items->setItems(std::move(items));
            m_itemTable->resizeColumnsToContents();
            const bool more = !o.value(QLatin1String("items_next_after")).isNull();
            m_itemsNote->setText(
                QStringLiteral("Frozen selection: %1%2, exactly as it will be replayed if approved.")
                    .arg(deliveriesText(shown),
                        more ? QStringLiteral(" shown (the first page of %1)")
                                   .arg(o.value(QLatin1String("count")).toInt())
                             : QString()));
            Q_EMIT itemsLoaded(replayId);
        });
}

void ApprovalsController::refresh()
{
    AdminClient *admin = m_session->admin();
    if (!admin)
        return;
    ApiReply *reply = admin->listReplays(toString(ReplayStatus::PendingApproval));
    connect(reply, &ApiReply::finished, this, [this](const QJsonDocument &body, const ApiError &error) {
        if (!error.ok()) {
            m_summary->setText(keepUnconfirmed(
                m_unconfirmed, QStringLiteral("Replay requests could not be read: ") + error.message));
            return;
        }
        QList<ReplayRecord> requests;
        int waiting = 0;
        const QJsonArray array = body.object().value(QLatin1String("items")).toArray();
        for (const auto &v : array) {
            auto r = ReplayRecord::fromJson(v.toObject());
            if (!r) {
                m_summary->setText(keepUnconfirmed(
                    m_unconfirmed, QStringLiteral("Replay requests could not be read: ") + r.error()));
                return;
            }
            if (r->status != ReplayStatus::PendingApproval)
                continue;
            if (r->requestedBy != m_session->user())
                ++waiting;
            requests.append(*r);
        }
        // The unconfirmed decision shows: its request no longer waits.
        if (std::none_of(requests.cbegin(), requests.cend(),
                [this](const ReplayRecord &r) { return r.id == m_unconfirmedId; })) {
            m_unconfirmed.clear();
            m_unconfirmedId = 0;
        }
        const ReplayRecord *current = m_model->requestAt(m_table->currentIndex());
        const qint64 keep = current ? current->id : 0;
        m_refreshing = true;
        m_model->setRequests(requests, m_session->user(), m_clock.nowMs());
        for (int row = 0; row < m_model->rowCount(); ++row) {
            if (m_model->requestAt(m_model->index(row, 0))->id == keep)
                m_table->selectRow(row);
        }
        m_refreshing = false;
        currentChanged();
        m_table->resizeColumnsToContents();
        m_summary->setText(keepUnconfirmed(m_unconfirmed,
            requests.isEmpty()
                ? QStringLiteral("No replay requests are waiting for approval.")
                : QStringLiteral("%1 for a decision. Check the effect and the frozen selection below, "
                                 "then approve or reject with a reason of your own.")
                      .arg(requests.size() == 1
                              ? QStringLiteral("1 replay request waits")
                              : QStringLiteral("%L1 replay requests wait").arg(requests.size()))));
        m_statusNote->setText(waiting == 1
                ? QStringLiteral("1 replay request waits for your approval")
                : QStringLiteral("%1 replay requests wait for your approval").arg(waiting));
        m_statusNote->setVisible(waiting > 0);
        if (waiting != m_pendingCount) {
            m_pendingCount = waiting;
            Q_EMIT pendingCountChanged(waiting);
        }
        Q_EMIT refreshed();
    });
}

void ApprovalsController::decide(bool approve)
{
    const QModelIndex current = m_table->selectionModel()->currentIndex();
    const ReplayRecord *r = m_model->requestAt(current);
    AdminClient *admin = m_session->admin();
    if (!r || !admin || m_model->isOwn(current) || !m_session->permissions().approve)
        return;
    const qint64 id = r->id;
    const QString hash = r->selectionHash;
    Prompter::Question q;
    q.title = approve ? QStringLiteral("Approve replay") : QStringLiteral("Reject replay");
    q.text = QStringLiteral("Replay #%1 requested by %2: %3.\nTheir reason: %4\n\n%5")
                 .arg(id)
                 .arg(r->requestedBy, deliveriesText(r->count), r->reason, r->summary.effect);
    q.confirmLabel = approve ? QStringLiteral("Approve replay #%1").arg(id)
                             : QStringLiteral("Reject replay #%1").arg(id);
    q.askReason = true;
    const Prompter::Answer answer = m_session->askBeforeActing(m_container, q);
    if (!answer.confirmed || answer.reason.isEmpty())
        return;
    m_unconfirmed.clear(); // acting again: this decision's outcome is what the page says next
    m_unconfirmedId = 0;
    // The decision binds to the selection that was shown; the receiver answers 409 if it differs.
    ApiReply *reply = approve ? admin->approveReplay(id, answer.reason, hash)
                              : admin->rejectReplay(id, answer.reason, hash);
    connect(
        reply, &ApiReply::finished, this, [this, id, approve](const QJsonDocument &, const ApiError &error) {
            if (!error.ok()) {
                // A hung receiver may still record the decision: say so rather than "was not".
                const QString text = actionErrorText(error,
                    QStringLiteral("The %1 of replay #%2 was not confirmed: ")
                        .arg(approve ? QStringLiteral("approval") : QStringLiteral("rejection"))
                        .arg(id),
                    QStringLiteral("Replay #%1 was not %2: ")
                        .arg(id)
                        .arg(approve ? QStringLiteral("approved") : QStringLiteral("rejected")));
                if (error.outcomeUnknown) {
                    m_unconfirmed = text;
                    m_unconfirmedId = id;
                }
                m_summary->setText(text);
                return;
            }
            Q_EMIT decided(id, approve);
            refresh();
        });
}

} // namespace redrive::ui
