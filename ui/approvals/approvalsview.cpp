// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#include "approvalsview.h"

#include "common/accessibleparts.h"

#include <QLabel>
#include <QPushButton>
#include <QTableView>
#include <QVBoxLayout>

namespace redrive::ui {
namespace {

QLabel *plainLabel(const char *name)
{
    auto *l = new QLabel;
    l->setObjectName(QLatin1String(name));
    l->setTextFormat(Qt::PlainText);
    l->setWordWrap(true);
    return l;
}

} // namespace

ApprovalsView::ApprovalsView(QWidget *parent)
    : TablePage(QStringLiteral("approvalTable"), tr("Replay requests waiting for approval"), parent)
    // The detail pane's widgets join the page when it takes them, so Tab reaches them after the
    // buttons.
    , m_itemsTable(new QTableView)
    , m_effect(plainLabel("approvalEffect"))
    , m_itemsNote(plainLabel("approvalItemsNote"))
    , m_approve(new QPushButton(tr("Approve…"), this))
    , m_reject(new QPushButton(tr("Reject…"), this))
{
    setObjectName(QStringLiteral("approvalsPage"));
    setupTableView(m_itemsTable, QStringLiteral("approvalItemsTable"), tr("Frozen selection of the request"));
    speakAsStatus(m_effect, tr("What the request would do"));
    m_effect->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_approve->setObjectName(QStringLiteral("approveButton"));
    m_approve->setAccessibleName(tr("Approve the selected request"));
    m_reject->setObjectName(QStringLiteral("rejectButton"));
    m_reject->setAccessibleName(tr("Reject the selected request"));
    status()->setObjectName(QStringLiteral("approvalSummary"));
    addButton(m_reject);
    addButton(m_approve);
    QVBoxLayout *detail = addDetailPane();
    detail->addWidget(m_effect);
    detail->addWidget(m_itemsNote);
    detail->addWidget(m_itemsTable, 1);
    connect(m_approve, &QPushButton::clicked, this, &ApprovalsView::approveRequested);
    connect(m_reject, &QPushButton::clicked, this, &ApprovalsView::rejectRequested);
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
    table()->resizeColumnsToContents();
}

void ApprovalsView::fitItemColumns()
{
    m_itemsTable->resizeColumnsToContents();
}

} // namespace redrive::ui
