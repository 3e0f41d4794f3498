// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#include "incidentsview.h"

#include "common/tablepage.h"

#include <QAction>
#include <QHeaderView>
#include <QLabel>
#include <QPushButton>
#include <QTableView>
#include <QVBoxLayout>

namespace redrive::ui {

IncidentsView::IncidentsView(QWidget *parent)
    : QWidget(parent)
    , m_page(new TablePage(QStringLiteral("incidentTable"), tr("Open incidents"), this))
    , m_table(m_page->table())
    , m_acknowledge(new QPushButton(tr("Ac&knowledge…"), m_page))
    , m_acknowledgeAction(new QAction(tr("Acknowledge…"), this))
{
    setObjectName(QStringLiteral("incidentsPanel"));
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_page);
    m_table->setMaximumHeight(m_table->verticalHeader()->defaultSectionSize() * 6);
    m_page->status()->setObjectName(QStringLiteral("incidentSummary"));

    m_acknowledge->setObjectName(QStringLiteral("acknowledgeIncidentButton"));
    m_acknowledge->setAccessibleName(tr("Acknowledge the selected incident with a note"));
    m_acknowledge->setToolTip(tr("Say you are on it, with a note the next person reads (Ctrl+K)."));
    m_acknowledge->setVisible(false);
    m_page->addButton(m_acknowledge);
    m_acknowledgeAction->setObjectName(QStringLiteral("acknowledgeIncidentAction"));
    m_acknowledgeAction->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_K));
    m_acknowledgeAction->setShortcutContext(Qt::WidgetShortcut);
    connect(m_acknowledgeAction, &QAction::triggered, this, &IncidentsView::acknowledgeRequested);
    connect(m_acknowledge, &QPushButton::clicked, this, &IncidentsView::acknowledgeRequested);
}

void IncidentsView::setSummary(const QString &text)
{
    m_page->status()->setText(text);
}

void IncidentsView::setAcknowledgeAllowed(bool allowed)
{
    m_acknowledge->setVisible(allowed);
    if (allowed) {
        m_table->addAction(m_acknowledgeAction);
        m_table->setContextMenuPolicy(Qt::ActionsContextMenu);
    } else {
        m_table->removeAction(m_acknowledgeAction);
        m_table->setContextMenuPolicy(Qt::DefaultContextMenu);
    }
}

void IncidentsView::setAcknowledgeEnabled(bool enabled)
{
    m_acknowledge->setEnabled(enabled);
    m_acknowledgeAction->setEnabled(enabled);
}

} // namespace redrive::ui
