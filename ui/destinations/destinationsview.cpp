// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#include "destinationsview.h"

#include "destinations/destinationmodel.h"

#include <QHeaderView>
#include <QLabel>
#include <QPushButton>
#include <QTableView>

namespace redrive::ui {

DestinationsView::DestinationsView(QWidget *parent)
    : TablePage(QStringLiteral("destinationTable"), tr("Destinations"), parent)
    , m_pause(new QPushButton(tr("Pause…"), this))
    , m_resume(new QPushButton(tr("Resume…"), this))
    , m_closeCircuit(new QPushButton(tr("Close circuit…"), this))
{
    setObjectName(QStringLiteral("destinationsPage"));
    status()->setObjectName(QStringLiteral("destinationSummary"));
    m_pause->setObjectName(QStringLiteral("pauseButton"));
    m_resume->setObjectName(QStringLiteral("resumeButton"));
    m_closeCircuit->setObjectName(QStringLiteral("closeCircuitButton"));
    m_closeCircuit->setToolTip(tr("Send the deliveries an open circuit holds without waiting for a probe"));
    addButton(m_closeCircuit);
    addButton(m_resume);
    addButton(m_pause);
    connect(m_closeCircuit, &QPushButton::clicked, this, &DestinationsView::closeCircuitRequested);
    connect(m_pause, &QPushButton::clicked, this, &DestinationsView::pauseRequested);
    connect(m_resume, &QPushButton::clicked, this, &DestinationsView::resumeRequested);
    setActionsAllowed(false);
    setSelectedDestination(QString(), false, false);
}

void DestinationsView::setActionsAllowed(bool allowed)
{
    m_pause->setVisible(allowed);
    m_resume->setVisible(allowed);
    m_closeCircuit->setVisible(allowed);
}

void DestinationsView::setSelectedDestination(
    const QString &name, bool canPause, bool canResume, bool canCloseCircuit)
{
    // The button names what it does to which destination.
    m_pause->setText(name.isEmpty() ? tr("Pause…") : tr("Pause %1…").arg(name));
    m_resume->setText(name.isEmpty() ? tr("Resume…") : tr("Resume %1…").arg(name));
    m_closeCircuit->setText(name.isEmpty() ? tr("Close circuit…") : tr("Close circuit of %1…").arg(name));
    m_pause->setEnabled(canPause);
    m_resume->setEnabled(canResume);
    m_closeCircuit->setEnabled(canCloseCircuit);
}

void DestinationsView::fitColumns()
{
    table()->resizeColumnsToContents();
    // Wide enough for "Paused" even when every destination was active at first.
    QHeaderView *header = table()->horizontalHeader();
    const int pausedWidth = table()->fontMetrics().horizontalAdvance(DestinationModel::tr("Paused")) + 24;
    if (header->sectionSize(DestinationModel::StateColumn) < pausedWidth)
        header->resizeSection(DestinationModel::StateColumn, pausedWidth);
}

} // namespace redrive::ui
