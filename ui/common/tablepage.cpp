// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#include "tablepage.h"

#include <QAction>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QItemSelectionModel>
#include <QLabel>
#include <QPushButton>
#include <QSplitter>
#include <QTableView>
#include <QVBoxLayout>

namespace redrive::ui {

TablePage::TablePage(const QString &tableName, const QString &accessibleName, QWidget *parent)
    : QWidget(parent)
    , m_filters(new QWidget(this))
    , m_filterRow(new QHBoxLayout(m_filters))
    , m_status(new QLabel(this))
    , m_split(new QSplitter(Qt::Vertical, this))
    , m_table(new QTableView(m_split))
    , m_buttonRow(new QHBoxLayout)
{
    setupTableView(m_table, tableName, accessibleName);
    m_filterRow->setContentsMargins(0, 0, 0, 0);
    m_filters->hide();
    m_status->setTextFormat(Qt::PlainText);
    m_status->setWordWrap(true);
    // Spare height goes to the table, never to the line above it (a short table, the incidents',
    // would otherwise leave its status line floating in a blank band).
    m_status->setSizePolicy(QSizePolicy::Preferred, QSizePolicy::Maximum);
    m_split->addWidget(m_table);
    m_split->setChildrenCollapsible(false);
    m_buttonRow->addStretch(1);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(6, 6, 6, 6);
    layout->addWidget(m_filters);
    layout->addWidget(m_status);
    layout->addWidget(m_split, 1);
    layout->addLayout(m_buttonRow);
}

void TablePage::setSummary(const QString &text)
{
    m_status->setText(text);
}

void TablePage::addFilter(QWidget *widget, int stretch)
{
    m_filterRow->addWidget(widget, stretch);
    m_filters->show();
}

void TablePage::addButton(QPushButton *button)
{
    m_buttonRow->addWidget(button);
}

QVBoxLayout *TablePage::addDetailPane()
{
    auto *pane = new QWidget(m_split);
    auto *layout = new QVBoxLayout(pane);
    layout->setContentsMargins(0, 0, 0, 0);
    m_split->addWidget(pane);
    return layout;
}

void TablePage::addRowCommand(QPushButton *button, QAction *action)
{
    action->setShortcutContext(Qt::WidgetShortcut);
    button->setVisible(false);
    addButton(button);
}

void TablePage::offerRowCommand(QPushButton *button, QAction *action, bool offered)
{
    button->setVisible(offered);
    if (offered) {
        m_table->addAction(action);
        m_table->setContextMenuPolicy(Qt::ActionsContextMenu);
    } else {
        m_table->removeAction(action);
        m_table->setContextMenuPolicy(Qt::DefaultContextMenu);
    }
}

void TablePage::setupTableView(QTableView *table, const QString &name, const QString &accessibleName)
{
    table->setObjectName(name);
    table->setAccessibleName(accessibleName);
    table->setSelectionBehavior(QAbstractItemView::SelectRows);
    table->setSelectionMode(QAbstractItemView::SingleSelection);
    table->setSortingEnabled(false);
    table->setAlternatingRowColors(true);
    table->setWordWrap(false);
    table->setTabKeyNavigation(false); // Tab leaves the table for the next control
    table->verticalHeader()->hide();
    table->verticalHeader()->setSectionResizeMode(QHeaderView::Fixed);
    table->verticalHeader()->setDefaultSectionSize(table->fontMetrics().height() + 8);
    table->horizontalHeader()->setStretchLastSection(true);
    table->horizontalHeader()->setHighlightSections(false);
}

void TablePage::followCurrentRow(QTableView *table, QObject *context, const std::function<void()> &update)
{
    connect(table->selectionModel(), &QItemSelectionModel::currentRowChanged, context, update);
    connect(table->model(), &QAbstractItemModel::modelReset, context, update);
    connect(table->model(), &QAbstractItemModel::dataChanged, context, update);
}

} // namespace redrive::ui
