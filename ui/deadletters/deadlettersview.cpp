// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#include "deadlettersview.h"

#include "common/tablepage.h"
#include "incidents/incidentsview.h"

#include <QAction>
#include <QLabel>
#include <QPushButton>
#include <QTableView>
#include <QVBoxLayout>

namespace redrive::ui {

DeadLettersView::DeadLettersView(QWidget *parent)
    : QWidget(parent)
    , m_groups(new TablePage(
          QStringLiteral("deadLetterTable"), tr("Dead letters by category and destination"), this))
    , m_incidents(new IncidentsView(this))
    , m_table(m_groups->table())
    , m_replayGroup(new QPushButton(tr("Replay group…"), m_groups))
    , m_replayAction(new QAction(tr("Replay group…"), this))
    , m_resolveGroup(new QPushButton(tr("Mark group resolved…"), m_groups))
    , m_resolveAction(new QAction(tr("Mark group resolved…"), this))
{
    setObjectName(QStringLiteral("deadLettersPage"));
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    // Above the dead-letter groups: what is new comes first.
    // The incidents table is a few rows high at most: the rest of the page is the groups'.
    layout->addWidget(m_incidents);
    layout->addWidget(m_groups, 1);
    m_groups->status()->setObjectName(QStringLiteral("deadLetterSummary"));
    // Enter and double-click both activate (the style decides which click does).
    connect(m_table, &QTableView::activated, this, &DeadLettersView::groupActivated);

    m_replayGroup->setObjectName(QStringLiteral("replayGroupButton"));
    m_replayGroup->setAccessibleName(tr("Replay the selected dead-letter group"));
    m_replayAction->setObjectName(QStringLiteral("replayGroupAction"));
    m_replayAction->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_R));
    m_groups->addRowCommand(m_replayGroup, m_replayAction);
    connect(m_replayAction, &QAction::triggered, this, &DeadLettersView::replayGroupRequested);
    connect(m_replayGroup, &QPushButton::clicked, this, &DeadLettersView::replayGroupRequested);

    // Handled another way (by hand, or not needed): the group leaves the dead letters unsent.
    m_resolveGroup->setObjectName(QStringLiteral("resolveGroupButton"));
    m_resolveGroup->setAccessibleName(tr("Mark the selected dead-letter group resolved"));
    m_resolveGroup->setToolTip(
        tr("The group's dead letters were handled another way: they leave the dead letters and are "
           "never sent again (Ctrl+Shift+M)."));
    m_resolveAction->setObjectName(QStringLiteral("resolveGroupAction"));
    m_resolveAction->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_M));
    m_groups->addRowCommand(m_resolveGroup, m_resolveAction);
    connect(m_resolveAction, &QAction::triggered, this, &DeadLettersView::resolveGroupRequested);
    connect(m_resolveGroup, &QPushButton::clicked, this, &DeadLettersView::resolveGroupRequested);
}

void DeadLettersView::setResolveAllowed(bool allowed)
{
    m_groups->offerRowCommand(m_resolveGroup, m_resolveAction, allowed);
}

void DeadLettersView::setResolveEnabled(bool enabled)
{
    m_resolveGroup->setEnabled(enabled);
    m_resolveAction->setEnabled(enabled);
}

void DeadLettersView::setSummary(const QString &text)
{
    m_groups->setSummary(text);
}

void DeadLettersView::setReplayAllowed(bool allowed)
{
    m_groups->offerRowCommand(m_replayGroup, m_replayAction, allowed);
}

void DeadLettersView::setReplayEnabled(bool enabled, const QString &toolTip)
{
    m_replayGroup->setEnabled(enabled);
    m_replayGroup->setToolTip(toolTip);
    m_replayAction->setEnabled(enabled);
}

} // namespace redrive::ui
