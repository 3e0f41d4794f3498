// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#include "replayhistorycontroller.h"

#include "common/accessibleparts.h"
#include "connection/session.h"
#include "replays/replayitemsmodel.h"
#include "replays/replaylistmodel.h"

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

QTableView *makeTable(const QString &name, const QString &accessibleName, QWidget *parent)
{
    auto *table = new QTableView(parent);
    table->setObjectName(name);
    table->setAccessibleName(accessibleName);
    table->setSelectionBehavior(QAbstractItemView::SelectRows);
    table->setSelectionMode(QAbstractItemView::SingleSelection);
    table->setAlternatingRowColors(true);
    table->verticalHeader()->hide();
    table->horizontalHeader()->setStretchLastSection(true);
    return table;
}
} // namespace

ReplayHistoryController::ReplayHistoryController(Session *session, QWidget *page, QObject *parent)
    : QObject(parent)
    , m_session(session)
    , m_container(new QWidget)
    , m_model(new ReplayListModel(this))
    , m_items(new ReplayItemsModel(this))
    , m_summary(new QLabel(m_container))
    , m_refresh(new QPushButton(QStringLiteral("Refresh"), m_container))
    , m_table(makeTable(QStringLiteral("replayTable"), QStringLiteral("Replay requests"), m_container))
    , m_outcome(new QLabel(m_container))
    , m_itemsTable(makeTable(QStringLiteral("replayItemsTable"),
          QStringLiteral("Deliveries of the selected replay"), m_container))
    , m_open(new QPushButton(QStringLiteral("Open event"), m_container))
    , m_poll(new QTimer(this))
{
    page->layout()->addWidget(m_container);
    m_table->setModel(m_model);
    m_itemsTable->setModel(m_items);
    m_summary->setObjectName(QStringLiteral("replaySummary"));
    m_summary->setTextFormat(Qt::PlainText);
    m_summary->setWordWrap(true);
    m_outcome->setObjectName(QStringLiteral("replayOutcome"));
    speakAsStatus(m_outcome, QStringLiteral("Outcome of the selected replay"));
    m_outcome->setTextFormat(Qt::PlainText); // reasons are user text
    m_outcome->setWordWrap(true);
    m_outcome->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_refresh->setObjectName(QStringLiteral("replayRefreshButton"));
    m_refresh->setAccessibleName(QStringLiteral("Refresh replay requests"));
    m_refresh->setToolTip(QStringLiteral("Reload the replay requests (F5)"));
    m_open->setObjectName(QStringLiteral("replayOpenEventButton"));
    m_open->setAccessibleName(QStringLiteral("Open the selected delivery's event"));
    m_open->setToolTip(QStringLiteral("Show the event on the Events page, at this replay's attempt (Enter)"));

    auto *top = new QHBoxLayout;
    top->addWidget(m_summary, 1);
    top->addWidget(m_refresh);
    auto *lower = new QWidget;
    auto *lowerLayout = new QVBoxLayout(lower);
    lowerLayout->setContentsMargins(0, 0, 0, 0);
    lowerLayout->addWidget(m_outcome);
    lowerLayout->addWidget(m_itemsTable, 1);
    auto *buttons = new QHBoxLayout;
    buttons->addStretch(1);
    buttons->addWidget(m_open);
    lowerLayout->addLayout(buttons);
    auto *split = new QSplitter(Qt::Vertical, m_container);
    split->addWidget(m_table);
    split->addWidget(lower);
    split->setChildrenCollapsible(false);
    auto *layout = new QVBoxLayout(m_container);
    layout->setContentsMargins(6, 6, 6, 6);
    layout->addLayout(top);
    layout->addWidget(split, 1);
    m_summary->setText(QStringLiteral("Replay requests, newest first."));
    m_outcome->setText(QStringLiteral("Select a replay request to see its deliveries."));

    connect(m_refresh, &QPushButton::clicked, this, &ReplayHistoryController::refresh);
    connect(m_table->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
        &ReplayHistoryController::currentChanged);
    // Enter and double-click both activate (the style decides which click does).
    connect(m_itemsTable, &QTableView::activated, this, &ReplayHistoryController::openItem);
    connect(m_open, &QPushButton::clicked, this, [this] { openItem(m_itemsTable->currentIndex()); });
    connect(m_itemsTable->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
        &ReplayHistoryController::updateButtons);
    connect(m_items, &QAbstractItemModel::modelReset, this, &ReplayHistoryController::updateButtons);
    connect(m_model, &ReplayListModel::fetchMoreRequested, this, &ReplayHistoryController::fetchReplays);
    connect(m_items, &ReplayItemsModel::fetchMoreRequested, this, &ReplayHistoryController::fetchItems);
    m_poll->setInterval(kPollIntervalMs);
    connect(m_poll, &QTimer::timeout, this, &ReplayHistoryController::poll);
    updateButtons();
}

ReplayHistoryController::~ReplayHistoryController()
{
    delete m_container;
}

qint64 ReplayHistoryController::currentReplayId() const
{
    const ReplayRecord *r = m_model->replayAt(m_table->selectionModel()->currentIndex());
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
                m_summary->setText(QStringLiteral("Replay requests could not be read: ") + error.message);
                return;
            }
            QList<ReplayRecord> replays;
            const QJsonArray array = body.object().value(QLatin1String("items")).toArray();
            for (const auto &v : array) {
                auto replay = ReplayRecord::fromJson(v.toObject());
                if (!replay) {
                    m_summary->setText(
                        QStringLiteral("Replay requests could not be read: ") + replay.error());
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
            m_table->resizeColumnsToContents();
            m_summary->setText(m_model->rowCount() == 0
                    ? QStringLiteral("No replay requests yet.")
                    : QStringLiteral("Replay requests, newest first. Select one to see its deliveries; "
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
    m_table->setCurrentIndex(at);
    m_resetting = false;
    m_table->scrollTo(at);
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
                m_outcome->setText(
                    QStringLiteral("Replay #%1 could not be read: %2").arg(id).arg(error.message));
                updatePolling();
                return;
            }
            const QJsonObject o = body.object();
            const auto replay = ReplayRecord::fromJson(o);
            auto items = itemsOf(o);
            if (!replay || !items) {
                m_outcome->setText(QStringLiteral("Replay #%1 could not be read: %2")
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
                m_itemsTable->resizeColumnsToContents();
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
                    m_outcome->setText(QStringLiteral("More deliveries of replay #%1 could not be read: %2")
                                           .arg(replayId)
                                           .arg(error.message));
                return;
            }
            auto items = itemsOf(body.object());
            if (!items) {
                if (replayId == m_shown)
                    m_outcome->setText(QStringLiteral("More deliveries of replay #%1 could not be read: %2")
                                           .arg(replayId)
                                           .arg(items.error()));
                return;
            }
            m_items->appendItems(replayId, std::move(*items), nextAfterOf(body.object()));
        });
}

void ReplayHistoryController::poll()
{
    if (!m_container->isVisible()) {
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
    const bool live = r && r->isLive() && m_container->isVisible();
    if (live && !m_poll->isActive())
        m_poll->start();
    else if (!live)
        m_poll->stop();
}

void ReplayHistoryController::updateOutcome()
{
    const ReplayRecord *r = m_model->replayAt(m_model->indexOf(m_shown));
    if (!r) {
        m_outcome->setText(QStringLiteral("Select a replay request to see its deliveries."));
        return;
    }
    QString text = QStringLiteral("Replay #%1 · %2\nRequested by %3: %4")
                       .arg(r->id)
                       .arg(replayOutcome(*r), r->requestedBy, r->reason);
    if (!r->ticket.isEmpty())
        text += QStringLiteral(" (ticket %1)").arg(r->ticket);
    // Who let it run, and why: the second pair of eyes belongs next to the first.
    if (r->canQueue() && !r->decidedBy.isEmpty()) {
        text += QStringLiteral("\nApproved by %1").arg(r->decidedBy);
        if (!r->decisionReason.isEmpty())
            text += QStringLiteral(": ") + r->decisionReason;
    }
    m_outcome->setText(text);
}

void ReplayHistoryController::updateButtons()
{
    const ReplayItem *item = m_items->itemAt(m_itemsTable->selectionModel()->currentIndex());
    m_open->setEnabled(item && item->eventId);
}

void ReplayHistoryController::openItem(const QModelIndex &index)
{
    const ReplayItem *item = m_items->itemAt(index);
    if (!item)
        return;
    if (!item->eventId) {
        m_outcome->setText(QStringLiteral("Delivery %1 no longer exists (retention may have removed it).")
                               .arg(item->deliveryId));
        return;
    }
    Q_EMIT openEvent(*item->eventId, m_items->replayId());
}

} // namespace redrive::ui
