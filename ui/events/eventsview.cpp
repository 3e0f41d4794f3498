// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#include "eventsview.h"

#include "common/statuschipdelegate.h"
#include "common/statuspalette.h"
#include "common/tablepage.h"
#include "events/eventtablemodel.h"
#include "events/filterbar.h"

#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QTableView>
#include <QVBoxLayout>

namespace redrive::ui {

EventsView::EventsView(QWidget *parent)
    : QWidget(parent)
    , m_filterBar(new FilterBar(this))
    , m_newEvents(new QPushButton(this))
    , m_table(new QTableView(this))
    , m_count(new QLabel(this))
    , m_error(new QLabel(this))
    , m_replaySelected(new QPushButton(tr("Replay selected…"), this))
    , m_replayFilter(new QPushButton(tr("Replay all matching…"), this))
{
    setObjectName(QStringLiteral("eventsView"));
    m_newEvents->setObjectName(QStringLiteral("newEventsButton"));
    m_newEvents->setFlat(true);
    m_newEvents->setStyleSheet(infoButtonStyle());
    m_newEvents->hide();
    connect(m_newEvents, &QPushButton::clicked, this, &EventsView::showNewEventsRequested);

    // The console's table setup; its fixed row heights matter most here: the view never measures
    // rows, so a million rows cost what a hundred do.
    TablePage::setupTableView(m_table, QStringLiteral("eventsTable"), tr("Events"));
    // Where the events list differs from the others: several events are selected at once (to
    // replay them together), Tab still moves from cell to cell, no grid, a row per scroll step.
    m_table->setSelectionMode(QAbstractItemView::ExtendedSelection);
    m_table->setTabKeyNavigation(true);
    m_table->setShowGrid(false);
    m_table->setVerticalScrollMode(QAbstractItemView::ScrollPerItem);
    auto *chips = new StatusChipDelegate(m_table);
    m_table->setItemDelegateForColumn(EventTableModel::StatusColumn, chips);
    m_table->setItemDelegateForColumn(EventTableModel::DownstreamColumn, chips);

    m_count->setObjectName(QStringLiteral("eventCount"));
    m_error->setObjectName(QStringLiteral("eventsError"));
    m_error->setStyleSheet(toneTextStyle(Tone::Bad));
    m_error->setWordWrap(true);
    m_error->hide();

    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(6, 6, 6, 6);
    layout->addWidget(m_filterBar);
    layout->addWidget(m_newEvents);
    layout->addWidget(m_error);
    layout->addWidget(m_table, 1);
    auto *bottom = new QHBoxLayout;
    bottom->addWidget(m_count, 1);
    bottom->addWidget(m_replaySelected);
    bottom->addWidget(m_replayFilter);
    layout->addLayout(bottom);
    m_replaySelected->setObjectName(QStringLiteral("replaySelectedButton"));
    m_replaySelected->setToolTip(
        tr("Preview and request a replay of the selected events' deliveries (Ctrl+R)"));
    m_replayFilter->setObjectName(QStringLiteral("replayFilterButton"));
    m_replayFilter->setToolTip(
        tr("Preview and request a replay of every event the filter matches, not just the visible ones"));
    connect(m_replaySelected, &QPushButton::clicked, this, &EventsView::replaySelectedRequested);
    connect(m_replayFilter, &QPushButton::clicked, this, &EventsView::replayFilterRequested);
    setReplayAllowed(false);
    setSelectionSize(0);
}

void EventsView::setReplayAllowed(bool allowed)
{
    m_replaySelected->setVisible(allowed);
    m_replayFilter->setVisible(allowed);
}

void EventsView::setSelectionSize(int events)
{
    m_replaySelected->setEnabled(events > 0);
    m_replaySelected->setText(events > 1 ? tr("Replay %L1 selected…").arg(events) : tr("Replay selected…"));
}

void EventsView::setNewEventCount(qint64 count)
{
    if (count <= 0) {
        m_newEvents->hide();
        return;
    }
    m_newEvents->setText(count > EventTableModel::kMaxNewRows
            ? tr("More than %L1 new events — click to reload").arg(EventTableModel::kMaxNewRows)
            : tr("%Ln new event(s) — click to show", nullptr, int(count)));
    m_newEvents->show();
}

void EventsView::setCountText(const QString &text)
{
    m_count->setText(text);
}

void EventsView::setError(const QString &text)
{
    m_error->setText(text);
    m_error->setVisible(!text.isEmpty());
}

} // namespace redrive::ui
