// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#include "incidentsview.h"

#include <QAction>
#include <QHeaderView>
#include <QLabel>
#include <QPushButton>
#include <QTableView>

namespace redrive::ui {

IncidentsView::IncidentsView(QWidget *parent)
    : TablePage(QStringLiteral("incidentTable"), tr("Open incidents"), parent)
    , m_acknowledge(new QPushButton(tr("Ac&knowledge…"), this))
    , m_acknowledgeAction(new QAction(tr("Acknowledge…"), this))
{
    setObjectName(QStringLiteral("incidentsPanel"));
    table()->setMaximumHeight(table()->verticalHeader()->defaultSectionSize() * 6);
    status()->setObjectName(QStringLiteral("incidentSummary"));

    m_acknowledge->setObjectName(QStringLiteral("acknowledgeIncidentButton"));
    m_acknowledge->setAccessibleName(tr("Acknowledge the selected incident with a note"));
    m_acknowledge->setToolTip(tr("Say you are on it, with a note the next person reads (Ctrl+K)."));
    m_acknowledgeAction->setObjectName(QStringLiteral("acknowledgeIncidentAction"));
    m_acknowledgeAction->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_K));
    addRowCommand(m_acknowledge, m_acknowledgeAction);
    connect(m_acknowledgeAction, &QAction::triggered, this, &IncidentsView::acknowledgeRequested);
    connect(m_acknowledge, &QPushButton::clicked, this, &IncidentsView::acknowledgeRequested);
}

void IncidentsView::setAcknowledgeAllowed(bool allowed)
{
    offerRowCommand(m_acknowledge, m_acknowledgeAction, allowed);
}

void IncidentsView::setAcknowledgeEnabled(bool enabled)
{
    m_acknowledge->setEnabled(enabled);
    m_acknowledgeAction->setEnabled(enabled);
}

} // namespace redrive::ui
