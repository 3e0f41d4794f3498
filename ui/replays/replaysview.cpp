// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#include "replaysview.h"

#include "common/accessibleparts.h"
#include "common/tablepage.h"

#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QSplitter>
#include <QTableView>
#include <QVBoxLayout>

namespace redrive::ui {
namespace {

QTableView *makeTable(const QString &name, const QString &accessibleName, QWidget *parent)
{
    auto *table = new QTableView(parent);
    TablePage::setupTableView(table, name, accessibleName);
    return table;
}

} // namespace

ReplaysView::ReplaysView(QWidget *parent)
    : QWidget(parent)
    , m_summary(new QLabel(this))
    , m_refresh(new QPushButton(tr("Refresh"), this))
    , m_table(makeTable(QStringLiteral("replayTable"), tr("Replay requests"), this))
    , m_outcome(new QLabel(this))
    , m_itemsTable(
          makeTable(QStringLiteral("replayItemsTable"), tr("Deliveries of the selected replay"), this))
    , m_open(new QPushButton(tr("Open event"), this))
{
    setObjectName(QStringLiteral("replaysPage"));
    m_summary->setObjectName(QStringLiteral("replaySummary"));
    m_summary->setTextFormat(Qt::PlainText);
    m_summary->setWordWrap(true);
    m_outcome->setObjectName(QStringLiteral("replayOutcome"));
    speakAsStatus(m_outcome, tr("Outcome of the selected replay"));
    m_outcome->setTextFormat(Qt::PlainText); // reasons are user text
    m_outcome->setWordWrap(true);
    m_outcome->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_refresh->setObjectName(QStringLiteral("replayRefreshButton"));
    m_refresh->setAccessibleName(tr("Refresh replay requests"));
    m_refresh->setToolTip(tr("Reload the replay requests (F5)"));
    m_open->setObjectName(QStringLiteral("replayOpenEventButton"));
    m_open->setAccessibleName(tr("Open the selected delivery's event"));
    m_open->setToolTip(tr("Show the event on the Events page, at this replay's attempt (Enter)"));

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
    auto *split = new QSplitter(Qt::Vertical, this);
    split->addWidget(m_table);
    split->addWidget(lower);
    split->setChildrenCollapsible(false);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(6, 6, 6, 6);
    layout->addLayout(top);
    layout->addWidget(split, 1);

    connect(m_refresh, &QPushButton::clicked, this, &ReplaysView::refreshRequested);
    // Enter and double-click both activate (the style decides which click does).
    connect(m_itemsTable, &QTableView::activated, this, &ReplaysView::openRequested);
    connect(
        m_open, &QPushButton::clicked, this, [this] { Q_EMIT openRequested(m_itemsTable->currentIndex()); });
}

void ReplaysView::setSummary(const QString &text)
{
    m_summary->setText(text);
}

void ReplaysView::setOutcome(const QString &text)
{
    m_outcome->setText(text);
}

void ReplaysView::setOpenEnabled(bool enabled)
{
    m_open->setEnabled(enabled);
}

void ReplaysView::showReplay(const QModelIndex &index)
{
    m_table->setCurrentIndex(index);
    m_table->scrollTo(index);
}

void ReplaysView::fitColumns()
{
    m_table->resizeColumnsToContents();
}

void ReplaysView::fitItemColumns()
{
    m_itemsTable->resizeColumnsToContents();
}

} // namespace redrive::ui
