// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#include "tablepage.h"

#include <QHBoxLayout>
#include <QHeaderView>
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
    m_table->setObjectName(tableName);
    setupTableView(m_table, accessibleName);
    m_filterRow->setContentsMargins(0, 0, 0, 0);
    m_filters->hide();
    m_status->setTextFormat(Qt::PlainText);
    m_status->setWordWrap(true);
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

void TablePage::addFilter(QWidget *widget, int stretch)
{
    m_filterRow->addWidget(widget, stretch);
    m_filters->show();
}

void TablePage::addButton(QPushButton *button)
{
    m_buttonRow->addWidget(button);
}

void TablePage::setDetail(QWidget *detail)
{
    m_split->addWidget(detail);
}

void TablePage::setupTableView(QTableView *table, const QString &accessibleName)
{
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

} // namespace redrive::ui
