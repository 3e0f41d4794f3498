// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#include "eventscontroller.h"

#include "connection/session.h"
#include "events/eventsview.h"
#include "events/eventtablemodel.h"
#include "events/filterbar.h"
#include "events/savedviews.h"
#include "query/opsstats.h"

#include <QAction>
#include <QApplication>
#include <QClipboard>
#include <QHeaderView>
#include <QScrollBar>
#include <QTableView>
#include <QTimer>

#include <optional>

namespace redrive::ui {

EventsController::EventsController(Session *session, EventsView *view, QSettings &settings, QObject *parent)
    : QObject(parent)
    , m_session(session)
    , m_view(view)
    , m_model(new EventTableModel(session->events(), session->stats(), this))
    , m_views(std::make_unique<SavedViews>(settings, session->profile().name))
    , m_poll(new QTimer(this))
{
    QTableView *table = m_view->table();
    table->setModel(m_model);
    QHeaderView *header = table->horizontalHeader();
    const QFontMetrics fm = table->fontMetrics();
    header->resizeSection(EventTableModel::IdColumn, fm.horizontalAdvance(QStringLiteral("00000000")) + 12);
    header->resizeSection(
        EventTableModel::ReceivedColumn, fm.horizontalAdvance(QStringLiteral("2026-11-30 07:54:14")) + 16);
    header->resizeSection(
        EventTableModel::SourceColumn, fm.horizontalAdvance(QStringLiteral("standard-webhooks")));
    header->resizeSection(
        EventTableModel::TypeColumn, fm.horizontalAdvance(QStringLiteral("pull_request.opened__")));
    header->resizeSection(
        EventTableModel::ProviderIdColumn, fm.horizontalAdvance(QStringLiteral("evt_1NbG7q2eZvKYlo2C_x")));
    header->resizeSection(
        EventTableModel::StatusColumn, fm.horizontalAdvance(QStringLiteral("succeeded")) + 40);
    header->resizeSection(EventTableModel::AttemptsColumn,
        fm.horizontalAdvance(m_model->headerData(EventTableModel::AttemptsColumn, Qt::Horizontal).toString())
            + 12);
    header->resizeSection(
        EventTableModel::LastFailureColumn, fm.horizontalAdvance(QStringLiteral("Connection refused")) + 8);
    header->resizeSection(EventTableModel::DownstreamColumn,
        fm.horizontalAdvance(QStringLiteral("✔ Succeeded · REF-1000000")) + 24);
    // Why the newest failure failed takes the room that is left, last, so it is in sight on a
    // laptop screen without scrolling sideways; the full text is its tooltip.
    header->moveSection(
        header->visualIndex(EventTableModel::LastFailureColumn), EventTableModel::ColumnCount - 1);
    header->setStretchLastSection(true);

    // Clicking the ID or Received header flips between newest and oldest first.
    header->setSectionsClickable(true);
    header->setSortIndicatorShown(true);
    header->setSortIndicator(EventTableModel::ReceivedColumn, Qt::DescendingOrder);
    connect(header, &QHeaderView::sectionClicked, this, [this, header](int section) {
        if (section != EventTableModel::IdColumn && section != EventTableModel::ReceivedColumn) {
            header->setSortIndicator(EventTableModel::ReceivedColumn,
                m_model->order() == EventOrder::NewestFirst ? Qt::DescendingOrder : Qt::AscendingOrder);
            return;
        }
        const bool newest = m_model->order() == EventOrder::OldestFirst;
        m_model->setOrder(newest ? EventOrder::NewestFirst : EventOrder::OldestFirst);
        header->setSortIndicator(section, newest ? Qt::DescendingOrder : Qt::AscendingOrder);
    });

    FilterBar *bar = m_view->filterBar();
    bar->setSavedViews(m_views->names());
    connect(bar, &FilterBar::filterChanged, m_model, &EventTableModel::setFilter);
    connect(bar, &FilterBar::saveViewRequested, this, [this, bar](const QString &name) {
        m_views->save(name, bar->filter());
        bar->setSavedViews(m_views->names());
    });
    connect(bar, &FilterBar::savedViewChosen, this, [this](const QString &name) {
        if (auto f = m_views->load(name))
            applyFilter(*f);
    });

    connect(m_model, &EventTableModel::countChanged, this, &EventsController::updateCount);
    connect(m_model, &EventTableModel::newEventsAvailable, m_view, &EventsView::setNewEventCount);
    connect(m_model, &EventTableModel::loadFailed, m_view, [this](const QString &error) {
        m_view->setError(tr("The events could not be read: %1").arg(error));
    });
    connect(m_model, &EventTableModel::modelReset, m_view, [this] { m_view->setError({}); });
    connect(m_view, &EventsView::showNewEventsRequested, m_model, [this] {
        m_model->showNewEvents();
        m_view->table()->scrollToTop();
    });
    connect(table->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
        &EventsController::selectionChanged);
    // A page arriving can fill in the row the user already selected while it was loading.
    connect(m_model, &EventTableModel::pageLoaded, this, &EventsController::selectionChanged);
    // Another list (a filter, an order, a failed read): no row to select again.
    connect(m_model, &EventTableModel::modelReset, this, [this] { m_reselect = 0; });
    connect(m_model, &EventTableModel::loadFailed, this, [this] { m_reselect = 0; });

    auto *copy = m_copy = new QAction(tr("Copy event ID"), table);
    copy->setObjectName(QStringLiteral("copyEventIdAction"));
    copy->setShortcut(QKeySequence::Copy);
    copy->setShortcutContext(Qt::WidgetWithChildrenShortcut);
    connect(copy, &QAction::triggered, this, &EventsController::copySelectedIds);
    table->addAction(copy);
    const bool canReplay = session->admin() && session->permissions().replay;
    m_view->setReplayAllowed(canReplay);
    if (canReplay) {
        auto *replay = m_replay = new QAction(tr("Replay…"), table);
        replay->setObjectName(QStringLiteral("replayAction"));
        replay->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_R));
        replay->setShortcutContext(Qt::WidgetWithChildrenShortcut);
        connect(replay, &QAction::triggered, this, &EventsController::requestReplayOfSelection);
        table->addAction(replay);
    }
    if (session->admin() && session->permissions().resolveDeliveries) {
        // The selected events' dead letters, handled another way: from the context menu (the
        // Menu key or Shift+F10 opens it from the keyboard).
        auto *resolve = new QAction(tr("Mark dead letters resolved…"), table);
        resolve->setObjectName(QStringLiteral("resolveSelectionAction"));
        connect(resolve, &QAction::triggered, this, &EventsController::requestResolveOfSelection);
        table->addAction(resolve);
    }
    connect(m_view, &EventsView::replaySelectedRequested, this, &EventsController::requestReplayOfSelection);
    connect(m_view, &EventsView::replayFilterRequested, this,
        [this] { Q_EMIT replayFilterRequested(m_model->filter()); });
    connect(table->selectionModel(), &QItemSelectionModel::selectionChanged, this,
        [this] { m_view->setSelectionSize(int(m_view->table()->selectionModel()->selectedRows().size())); });
    table->setContextMenuPolicy(Qt::ActionsContextMenu);

    m_poll->setInterval(3'000);
    connect(m_poll, &QTimer::timeout, this, &EventsController::pollNow);
    m_poll->start();

    session->stats()->submit(
        this, &m_facetsGeneration, [](Db &db) { return fetchFilterFacets(db).value_or(FilterFacets {}); },
        [bar](const FilterFacets &f) { bar->setFacets(f.sources, f.types, f.destinations); });

    m_model->setFilter({});
}

EventsController::~EventsController()
{
    delete m_copy;
    delete m_replay;
    m_view->table()->setModel(nullptr);
    m_view->setNewEventCount(0);
}

void EventsController::setPollInterval(int ms)
{
    m_poll->setInterval(ms);
}

void EventsController::reload()
{
    const qint64 open = m_selectedId;
    m_model->reload(); // resets the model, which forgets the current row
    m_reselect = open;
}

void EventsController::pollNow()
{
    m_model->checkForNewEvents();
    QTableView *table = m_view->table();
    const int first = table->rowAt(0);
    const int last = table->rowAt(table->viewport()->height() - 1);
    if (first >= 0)
        m_model->refreshRows(first, last >= 0 ? last : first + 64);
}

void EventsController::applyFilter(const EventFilter &filter)
{
    m_view->filterBar()->setFilter(filter);
    m_model->setFilter(filter);
}

void EventsController::focusSearch()
{
    m_view->filterBar()->focusSearch();
}

void EventsController::copySelectedIds()
{
    QStringList ids;
    const QModelIndexList rows = m_view->table()->selectionModel()->selectedRows();
    for (const QModelIndex &index : rows) {
        if (const EventRow *row = m_model->eventAt(index))
            ids.append(QString::number(row->id));
    }
    if (ids.isEmpty() && m_selectedId > 0)
        ids.append(QString::number(m_selectedId));
    if (!ids.isEmpty())
        QApplication::clipboard()->setText(ids.join(u'\n'));
}

void EventsController::requestReplayOfSelection()
{
    // Proposed: what has not reached its destination (dead, retrying, outcome unknown). Already
    // succeeded deliveries are only offered: replaying them sends them again and needs approval.
    QList<qint64> proposed, succeeded, onTheirWay;
    const QModelIndexList rows = m_view->table()->selectionModel()->selectedRows();
    for (const QModelIndex &index : rows) {
        const EventRow *row = m_model->eventAt(index);
        if (!row)
            continue;
        for (const DeliverySummary &d : row->deliveries) {
            switch (d.status.value().value_or(DeliveryStatus::Dead)) {
            case DeliveryStatus::Succeeded:
                succeeded.append(d.id);
                break;
            case DeliveryStatus::Pending:
            case DeliveryStatus::InFlight:
                onTheirWay.append(d.id);
                break;
            case DeliveryStatus::Retrying:
            case DeliveryStatus::Dead:
                proposed.append(d.id);
                break;
            case DeliveryStatus::Resolved: // handled by hand: sending it again would act twice
                break;
            }
        }
    }
    // Only deliveries already on their way: the receiver's preview says why none can be replayed.
    if (proposed.isEmpty() && succeeded.isEmpty())
        proposed = onTheirWay;
    if (!proposed.isEmpty() || !succeeded.isEmpty())
        Q_EMIT replayDeliveriesRequested(proposed, succeeded);
}

void EventsController::requestResolveOfSelection()
{
    QList<qint64> dead;
    for (const QModelIndex &index : m_view->table()->selectionModel()->selectedRows()) {
        if (const EventRow *row = m_model->eventAt(index)) {
            for (const DeliverySummary &d : row->deliveries) {
                if (d.status == DeliveryStatus::Dead)
                    dead.append(d.id);
            }
        }
    }
    if (dead.isEmpty()) {
        m_view->setError(tr("None of the selected events has a dead letter to mark resolved."));
        return;
    }
    Q_EMIT resolveDeliveriesRequested(dead);
}

void EventsController::updateCount()
{
    const int rows = m_model->rowCount();
    const bool filtered = !m_model->filter().isEmpty();
    QString text;
    switch (m_model->countKind()) {
    case EventTableModel::CountKind::Estimated:
        text = filtered ? tr("About %Ln event(s) (counting…) (matches|match) the filter", nullptr, rows)
                        : tr("About %Ln event(s) (counting…)", nullptr, rows);
        break;
    case EventTableModel::CountKind::Growing:
        text = filtered ? tr("%L1+ events (counting…) match the filter").arg(rows)
                        : tr("%L1+ events (counting…)").arg(rows);
        break;
    case EventTableModel::CountKind::Exact:
        text = filtered ? tr("%Ln event(s) (matches|match) the filter", nullptr, rows)
                        : tr("%Ln event(s)", nullptr, rows);
        break;
    }
    m_view->setCountText(text);
}

void EventsController::selectionChanged()
{
    const QModelIndex current = m_view->table()->selectionModel()->currentIndex();
    if (m_reselect > 0 && !current.isValid()) {
        // After reload(): select the open event again once its row is read; until then (and if
        // the reloaded pages never show it) it stays open.
        if (const std::optional<int> again = m_model->cachedRowOf(m_reselect)) {
            m_reselect = 0;
            m_view->table()->selectRow(*again); // the same event: nothing new to announce
        } else if (!m_model->isLoading()) {
            m_reselect = 0;
        }
        return;
    }
    m_reselect = 0;
    const EventRow *row = m_model->eventAt(current);
    const qint64 id = row ? row->id : 0;
    if (id == m_selectedId || (!row && current.isValid()))
        return; // unchanged, or still loading (pageLoaded will call again)
    m_selectedId = id;
    Q_EMIT eventSelected(id);
}

} // namespace redrive::ui
