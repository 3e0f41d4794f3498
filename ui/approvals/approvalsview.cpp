// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#include "approvalsview.h"

#include "common/accessibleparts.h"
#include "common/tablepage.h"

#include <QLabel>
#include <QPushButton>
#include <QTableView>
#include <QVBoxLayout>

namespace redrive::ui {
namespace {

QLabel *plainLabel(QWidget *parent, const char *name)
{
    auto *l = new QLabel(parent);
    l->setObjectName(QLatin1String(name));
    l->setTextFormat(Qt::PlainText);
    l->setWordWrap(true);
    return l;
}

} // namespace

ApprovalsView::ApprovalsView(QWidget *parent)
    : QWidget(parent)
    , m_page(new TablePage(QStringLiteral("approvalTable"), tr("Replay requests waiting for approval"), this))
    , m_table(m_page->table())
    , m_itemsTable(new QTableView(m_page))
    , m_effect(plainLabel(m_page, "approvalEffect"))
    , m_itemsNote(plainLabel(m_page, "approvalItemsNote"))
    , m_approve(new QPushButton(tr("Approve…"), m_page))
    , m_reject(new QPushButton(tr("Reject…"), m_page))
{
    setObjectName(QStringLiteral("approvalsPage"));
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_page);
    m_itemsTable->setObjectName(QStringLiteral("approvalItemsTable"));
    TablePage::setupTableView(m_itemsTable, tr("Frozen selection of the request"));
    speakAsStatus(m_effect, tr("What the request would do"));
    m_effect->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_approve->setObjectName(QStringLiteral("approveButton"));
    m_approve->setAccessibleName(tr("Approve the selected request"));
    m_reject->setObjectName(QStringLiteral("rejectButton"));
    m_reject->setAccessibleName(tr("Reject the selected request"));
    m_page->status()->setObjectName(QStringLiteral("approvalSummary"));
    m_page->addButton(m_reject);
    m_page->addButton(m_approve);
    auto *detail = new QWidget;
    auto *detailLayout = new QVBoxLayout(detail);
    detailLayout->setContentsMargins(0, 0, 0, 0);
    detailLayout->addWidget(m_effect);
    detailLayout->addWidget(m_itemsNote);
    detailLayout->addWidget(m_itemsTable, 1);
    m_page->setDetail(detail);
    connect(m_approve, &QPushButton::clicked, this, &ApprovalsView::approveRequested);
    connect(m_reject, &QPushButton::clicked, this, &ApprovalsView::rejectRequested);
}

void ApprovalsView::setSummary(const QString &text)
{
    m_page->status()->setText(text);
}

void ApprovalsView::setEffect(const QString &text)
{
    m_effect->setText(text);
}

void ApprovalsView::setItemsNote(const QString &text)
{
    m_itemsNote->setText(text);
}

void ApprovalsView::setDecisionEnabled(bool enabled, const QString &why)
{
    m_approve->setEnabled(enabled);
    m_reject->setEnabled(enabled);
    m_approve->setToolTip(why);
    m_reject->setToolTip(why);
}

void ApprovalsView::fitColumns()
{
    m_table->resizeColumnsToContents();
}

void ApprovalsView::fitItemColumns()
{
    m_itemsTable->resizeColumnsToContents();
}

} // namespace redrive::ui
