// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#include "replayhistorycontroller.h"

#include "connection/session.h"
#include "replays/replayitemsmodel.h"
#include "replays/replaylistmodel.h"
#include "replays/replaysview.h"

#include <QJsonArray>
#include <QTableView>
#include <QTimer>

namespace redrive::ui {
namespace {
constexpr int kListPage = 100;
constexpr int kItemsPage = 200;

Result<QList<ReplayItem>> itemsOf(const QJsonObject &replay)
{
    QList<ReplayItem> items;
    const QJsonArray array = replay.value(QLatin1String("items")).toArray();
    for (const auto &v : array) {
        auto item = ReplayItem::fromJson(v.toObject());
        if (!item)
            return Failure(item.error());
        items.append(std::move(*item));
    }
    return items;
}

std::optional<qint64> nextAfterOf(const QJsonObject &replay)
{
    const QJsonValue v = replay.value(QLatin1String("items_next_after"));
    return v.isDouble() ? std::optional<qint64>(v.toInteger()) : std::nullopt;
}

} // namespace

ReplayHistoryController::ReplayHistoryController(Session *session, ReplaysView *view, QObject *parent)
    : QObject(parent)
    , m_session(session)
    , m_view(view)
    , m_model(new ReplayListModel(this))
    , m_items(new ReplayItemsModel(this))
    , m_poll(new QTimer(this))
{
    m_view->table()->setModel(m_model);
    m_view->itemsTable()->setModel(m_items);
    m_view->setSummary(tr("Replay requests, newest first."));
    m_view->setOutcome(tr("Select a replay request to see its deliveries."));

    connect(m_view, &ReplaysView::refreshRequested, this, &ReplayHistoryController::refresh);
    connect(m_view->table()->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
        &ReplayHistoryController::currentChanged);
    connect(m_view, &ReplaysView::openRequested, this, &ReplayHistoryController::openItem);
    connect(m_view->itemsTable()->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
        &ReplayHistoryController::updateButtons);
    connect(m_items, &QAbstractItemModel::modelReset, this, &ReplayHistoryController::updateButtons);
    connect(m_model, &ReplayListModel::fetchMoreRequested, this, &ReplayHistoryController::fetchReplays);
    connect(m_items, &ReplayItemsModel::fetchMoreRequested, this, &ReplayHistoryController::fetchItems);
    m_poll->setInterval(kPollIntervalMs);
    connect(m_poll, &QTimer::timeout, this, &ReplayHistoryController::poll);
    updateButtons();
}

qint64 ReplayHistoryController::currentReplayId() const
{
    const ReplayRecord *r = m_model->replayAt(m_view->table()->selectionModel()->currentIndex());
    return r ? r->id : 0;
}

bool ReplayHistoryController::isPolling() const
{
    return m_poll->isActive();
}

void ReplayHistoryController::showReplay(qint64 id)
{
    m_wanted = id;
    selectWanted();
    refresh();
}

void ReplayHistoryController::refresh()
{
    fetchReplays(QString());
}

void ReplayHistoryController::fetchReplays(const QString &cursor)
{
    AdminClient *admin = m_session->admin();
    if (!admin)
        return;
    const bool first = cursor.isEmpty();
    if (first)
        ++m_listGeneration; // a newer first page replaces whatever was asked before
    ApiReply *reply = admin->listReplays({}, kListPage, cursor);
    connect(reply, &ApiReply::finished, this,
        [this, first, generation = m_listGeneration](const QJsonDocument &body, const ApiError &error) {
            if (generation != m_listGeneration)
                return;
            if (!error.ok()) {
                m_view->setSummary(tr("Replay requests could not be read: %1").arg(error.message));
                return;
            }
            QList<ReplayRecord> replays;
            const QJsonArray array = body.object().value(QLatin1String("items")).toArray();
            for (const auto &v : array) {
                auto replay = ReplayRecord::fromJson(v.toObject());
                if (!replay) {
                    m_view->setSummary(tr("Replay requests could not be read: %1").arg(replay.error()));
                    return;
                }
                replays.append(std::move(*replay));
            }
            const QString next = body.object().value(QLatin1String("next_cursor")).toString();
            if (!first) {
                m_model->appendReplays(std::move(replays), next);
                selectWanted();
                return;
            }
            const qint64 keep = m_wanted ? m_wanted : currentReplayId();
            m_resetting = true; // the reset is not a change of mind; selectWanted() reselects
            m_model->setReplays(std::move(replays), next);
            m_resetting = false;
            m_wanted = keep;
            selectWanted();
            if (currentReplayId() == 0) {
                m_items->setItems(0, {}, std::nullopt);
                m_shown = 0;
                updateOutcome();
                updatePolling();
            }
            m_view->fitColumns();
            m_view->setSummary(m_model->rowCount() == 0
                    ? tr("No replay requests yet.")
                    : tr("Replay requests, newest first. Select one to see its deliveries; "
                         "Enter on a delivery opens its event at the replay's attempt."));
            Q_EMIT refreshed();
        });
}

void ReplayHistoryController::selectWanted()
{
    if (!m_wanted)
        return;
    const QModelIndex at = m_model->indexOf(m_wanted);
    if (!at.isValid())
        return;
    m_wanted = 0;
    m_resetting = true;
    m_view->showReplay(at);
    m_resetting = false;
    showSelected();
}

void ReplayHistoryController::currentChanged()
{
    if (m_resetting)
        return;
    m_wanted = 0; // the user chose
    showSelected();
}

void ReplayHistoryController::showSelected()
{
    const qint64 id = currentReplayId();
    if (id == 0) {
        ++m_detailGeneration;
        return; // keep what is shown until something else is chosen
    }
    // The same request again (a refresh): fresh counts in the same rows.
    const bool same = id == m_shown;
    if (!same) {
        m_items->setItems(0, {}, std::nullopt);
        m_shown = id;
    }
    updateOutcome();
    updatePolling(); // follow a live one from the moment it shows, not from its first read
    loadDetail(same);
}

void ReplayHistoryController::loadDetail(bool keepItems)
{
    AdminClient *admin = m_session->admin();
    const qint64 id = m_shown;
    if (!admin || id <= 0)
        return;
    const quint64 generation = ++m_detailGeneration;
    // A poll refreshes the rows already loaded (at least the first page, at most 1000).
    const int limit = keepItems ? qBound(kItemsPage, m_items->rowCount(), 1000) : kItemsPage;
    ++m_detailInFlight;
    ApiReply *reply = admin->replay(id, limit);
    connect(reply, &ApiReply::finished, this,
        [this, id, generation, keepItems](const QJsonDocument &body, const ApiError &error) {
            --m_detailInFlight;
            if (generation != m_detailGeneration || id != m_shown)
                return;
            if (!error.ok()) {
                m_view->setOutcome(tr("Replay #%1 could not be read: %2").arg(id).arg(error.message));
                updatePolling();
                return;
            }
            const QJsonObject o = body.object();
            const auto replay = ReplayRecord::fromJson(o);
            auto items = itemsOf(o);
            if (!replay || !items) {
                m_view->setOutcome(tr("Replay #%1 could not be read: %2")
                                       .arg(id)
                                       .arg(replay ? items.error() : replay.error()));
                updatePolling();
                return;
            }
            m_model->updateReplay(*replay);
            if (keepItems && m_items->replayId() == id)
                m_items->updateItems(id, *items);
            else
                m_items->setItems(id, std::move(*items), nextAfterOf(o));
            if (!keepItems)
                m_view->fitItemColumns();
            updateOutcome();
            updatePolling();
            Q_EMIT replayLoaded(id);
        });
}

void ReplayHistoryController::fetchItems(qint64 replayId, qint64 after)
{
    AdminClient *admin = m_session->admin();
    if (!admin)
        return;
    ApiReply *reply = admin->replay(replayId, kItemsPage, after);
    connect(
        reply, &ApiReply::finished, this, [this, replayId](const QJsonDocument &body, const ApiError &error) {
            if (!error.ok()) {
                if (replayId == m_shown)
                    m_view->setOutcome(tr("More deliveries of replay #%1 could not be read: %2")
                                           .arg(replayId)
                                           .arg(error.message));
                return;
            }
            auto items = itemsOf(body.object());
            if (!items) {
                if (replayId == m_shown)
                    m_view->setOutcome(tr("More deliveries of replay #%1 could not be read: %2")
                                           .arg(replayId)
                                           .arg(items.error()));
                return;
            }
            m_items->appendItems(replayId, std::move(*items), nextAfterOf(body.object()));
        });
}

void ReplayHistoryController::poll()
{
    if (!m_view->isVisible()) {
        m_poll->stop(); // the page shows again through refresh(), which resumes
        return;
    }
    if (m_detailInFlight > 0)
        return; // the last read has not answered: never two at once
    loadDetail(true);
}

void ReplayHistoryController::updatePolling()
{
    const ReplayRecord *r = m_model->replayAt(m_model->indexOf(m_shown));
    const bool live = r && r->isLive() && m_view->isVisible();
    if (live && !m_poll->isActive())
        m_poll->start();
    else if (!live)
        m_poll->stop();
}

void ReplayHistoryController::updateOutcome()
{
    const ReplayRecord *r = m_model->replayAt(m_model->indexOf(m_shown));
    if (!r) {
        m_view->setOutcome(tr("Select a replay request to see its deliveries."));
        return;
    }
    QString text = tr("Replay #%1 · %2\nRequested by %3: %4")
                       .arg(r->id)
                       .arg(replayOutcome(*r), r->requestedBy, r->reason);
    if (!r->ticket.isEmpty())
        text += tr(" (ticket %1)").arg(r->ticket);
    // Who let it run, and why: the second pair of eyes belongs next to the first.
    if (r->canQueue() && !r->decidedBy.isEmpty()) {
        text += r->decisionReason.isEmpty() ? tr("\nApproved by %1").arg(r->decidedBy)
                                            : tr("\nApproved by %1: %2").arg(r->decidedBy, r->decisionReason);
    }
    m_view->setOutcome(text);
}

void ReplayHistoryController::updateButtons()
{
    const ReplayItem *item = m_items->itemAt(m_view->itemsTable()->selectionModel()->currentIndex());
    m_view->setOpenEnabled(item && item->eventId);
}

void ReplayHistoryController::openItem(const QModelIndex &index)
{
    const ReplayItem *item = m_items->itemAt(index);
    if (!item)
        return;
    if (!item->eventId) {
        m_view->setOutcome(
            tr("Delivery %1 no longer exists (retention may have removed it).").arg(item->deliveryId));
        return;
    }
    Q_EMIT openEvent(*item->eventId, m_items->replayId());
}

} // namespace redrive::ui
