// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#include "rejectionsview.h"

#include "common/tablepage.h"

#include <QLabel>
#include <QTableView>
#include <QVBoxLayout>

namespace redrive::ui {

RejectionsView::RejectionsView(QWidget *parent)
    : QWidget(parent)
    , m_page(new TablePage(QStringLiteral("rejectionTable"), tr("Rejected requests"), this))
    , m_table(m_page->table())
{
    setObjectName(QStringLiteral("rejectionsPage"));
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_page);
    m_page->status()->setObjectName(QStringLiteral("rejectionSummary"));
}

void RejectionsView::setSummary(const QString &text)
{
    m_page->status()->setText(text);
}

} // namespace redrive::ui
