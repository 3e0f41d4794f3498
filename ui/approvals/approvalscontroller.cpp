// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#include "approvalscontroller.h"

#include "api/adminclient.h"
#include "approvals/approvalmodel.h"
#include "approvals/approvalsview.h"
#include "common/prompter.h"
#include "connection/session.h"
#include "newreplay/replaypreview.h"
#include "replays/replayitemsmodel.h"
#include "util/clock.h"

#include <QJsonArray>
#include <QLabel>
#include <QTableView>
#include <QTimer>

#include <algorithm>

namespace redrive::ui {
ApprovalsController::ApprovalsController(
    Session *session, ApprovalsView *view, QLabel *statusNote, const Clock &clock, QObject *parent)
    : QObject(parent)
    , m_session(session)
    , m_clock(clock)
    , m_view(view)
    , m_model(new ApprovalModel(this))
    , m_items(new ReplayItemsModel(this, ReplayItemsModel::View::FrozenSelection))
    , m_table(view->table())
    , m_statusNote(statusNote)
    , m_poll(new QTimer(this))
{
    m_table->setModel(m_model);
    m_view->itemsTable()->setModel(m_items);
    m_view->setSummary(QString());
    m_statusNote->clear();
    m_statusNote->hide();
    connect(m_view, &ApprovalsView::approveRequested, this, [this] { decide(true); });
    connect(m_view, &ApprovalsView::rejectRequested, this, [this] { decide(false); });
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

void ApprovalsController::setPollInterval(int ms)
{
    m_poll->setInterval(ms);
}

void ApprovalsController::updateButtons()
{
    const QModelIndex current = m_table->selectionModel()->currentIndex();
    const bool can
        = m_session->permissions().approve && m_model->requestAt(current) && !m_model->isOwn(current);
    m_view->setDecisionEnabled(can,
        m_model->isOwn(current) ? tr("You requested this replay; another operator must decide it.")
                                : QString());
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
        m_view->setEffect(
            m_model->rowCount() > 0 ? tr("Select a request to see what it would do.") : QString());
        m_view->setItemsNote(QString());
        return;
    }
    // The effect the requester saw, and why it needs a second person, in words.
    QString text = r->summary.effect.isEmpty() ? tr("%1 would be sent again.").arg(deliveriesText(r->count))
                                               : r->summary.effect;
    const QStringList reasons = approvalReasonsInWords(r->summary);
    if (!reasons.isEmpty())
        text += tr("\nNeeds approval because: %1.").arg(reasons.join(QLatin1String("; ")));
    if (m_model->isOwn(current))
        text += tr("\nYou requested this replay; another operator must decide it.");
    m_view->setEffect(text);
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
    m_view->setItemsNote(tr("Loading the frozen selection…"));
    const quint64 generation = ++m_itemsGeneration;
    ApiReply *reply = admin->replay(replayId);
    connect(reply, &ApiReply::finished, this,
        [this, replayId, generation](const QJsonDocument &body, const ApiError &error) {
            if (generation != m_itemsGeneration)
                return; // the user moved on to another request
            if (!error.ok()) {
                m_view->setItemsNote(tr("The frozen selection could not be read: %1").arg(error.message));
                return;
            }
            const QJsonObject o = body.object();
            QList<ReplayItem> items;
            const QJsonArray array = o.value(QLatin1String("items")).toArray();
            for (const auto &v : array) {
                auto item = ReplayItem::fromJson(v.toObject());
                if (!item) {
                    m_view->setItemsNote(tr("The frozen selection could not be read: %1").arg(item.error()));
                    return;
                }
                items.append(std::move(*item));
            }
            const int shown = int(items.size());
            m_items->setItems(std::move(items));
            m_view->fitItemColumns();
            const bool more = !o.value(QLatin1String("items_next_after")).isNull();
            m_view->setItemsNote(more
                    ? tr("Frozen selection: %1 shown (the first page of %2), exactly as it will be replayed "
                         "if approved.")
                          .arg(deliveriesText(shown))
                          .arg(o.value(QLatin1String("count")).toInt())
                    : tr("Frozen selection: %1, exactly as it will be replayed if approved.")
                          .arg(deliveriesText(shown)));
            Q_EMIT itemsLoaded(replayId);
        });
}

void ApprovalsController::refresh()
{
    AdminClient *admin = m_session->admin();
    if (!admin)
        return;
    ApiReply *reply = admin->listReplays(ReplayStatus::PendingApproval);
    connect(reply, &ApiReply::finished, this, [this](const QJsonDocument &body, const ApiError &error) {
        if (!error.ok()) {
            m_view->setSummary(keepUnconfirmed(
                m_unconfirmed, tr("Replay requests could not be read: %1").arg(error.message)));
            return;
        }
        QList<ReplayRecord> requests;
        int waiting = 0;
        const QJsonArray array = body.object().value(QLatin1String("items")).toArray();
        for (const auto &v : array) {
            auto r = ReplayRecord::fromJson(v.toObject());
            if (!r) {
                m_view->setSummary(keepUnconfirmed(
                    m_unconfirmed, tr("Replay requests could not be read: %1").arg(r.error())));
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
        m_view->fitColumns();
        m_view->setSummary(keepUnconfirmed(m_unconfirmed,
            requests.isEmpty() ? tr("No replay requests are waiting for approval.")
                // The verb agrees with the count, which the "(s)" notation cannot say: one
                // sentence for one request, a numerus one for the rest.
                : requests.size() == 1
                ? tr("1 replay request waits for a decision. Check the effect and the frozen selection "
                     "below, then approve or reject with a reason of your own.")
                : tr("%Ln replay requests wait for a decision. Check the effect and the frozen selection "
                     "below, then approve or reject with a reason of your own.",
                    nullptr, int(requests.size()))));
        m_statusNote->setText(waiting == 1
                ? tr("1 replay request waits for your approval")
                : tr("%n replay requests wait for your approval", nullptr, waiting));
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
    q.title = approve ? tr("Approve replay") : tr("Reject replay");
    q.text = tr("Replay #%1 requested by %2: %3.\nTheir reason: %4\n\n%5")
                 .arg(id)
                 .arg(r->requestedBy, deliveriesText(r->count), r->reason, r->summary.effect);
    q.confirmLabel = approve ? tr("Approve replay #%1").arg(id) : tr("Reject replay #%1").arg(id);
    q.askReason = true;
    const Prompter::Answer answer = m_session->askBeforeActing(m_view, q);
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
                const QString text = approve
                    ? actionErrorText(error, tr("The approval of replay #%1 was not confirmed: ").arg(id),
                        tr("Replay #%1 was not approved: ").arg(id))
                    : actionErrorText(error, tr("The rejection of replay #%1 was not confirmed: ").arg(id),
                        tr("Replay #%1 was not rejected: ").arg(id));
                if (error.outcomeUnknown) {
                    m_unconfirmed = text;
                    m_unconfirmedId = id;
                }
                m_view->setSummary(text);
                return;
            }
            Q_EMIT decided(id, approve);
            refresh();
        });
}

} // namespace redrive::ui
