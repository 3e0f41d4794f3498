// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#include "rejectionscontroller.h"

#include "connection/session.h"
#include "rejections/rejectionmodel.h"

#include <QHeaderView>
#include <QLabel>
#include <QTableView>
#include <QVBoxLayout>

namespace redrive::ui {

RejectionsController::RejectionsController(Session *session, QWidget *page, QObject *parent)
    : QObject(parent)
    , m_container(new QWidget)
    , m_model(new RejectionModel(session->stats(), this))
    , m_table(new QTableView(m_container))
    , m_summary(new QLabel(m_container))
{
    page->layout()->addWidget(m_container);
    m_table->setObjectName(QStringLiteral("rejectionTable"));
    m_table->setAccessibleName(QStringLiteral("Rejected requests"));
    m_table->setModel(m_model);
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->verticalHeader()->hide();
    m_table->verticalHeader()->setSectionResizeMode(QHeaderView::Fixed);
    m_table->horizontalHeader()->setStretchLastSection(true);
    m_table->setAlternatingRowColors(true);
    m_table->setWordWrap(false);
    m_summary->setObjectName(QStringLiteral("rejectionSummary"));
    m_summary->setTextFormat(Qt::PlainText);
    m_summary->setWordWrap(true);
    m_summary->setText(
        QStringLiteral("Requests the receiver refused (bad signature, unknown source, too large, …). A run "
                       "of signature failures from one source usually means its secret was rotated."));
    auto *layout = new QVBoxLayout(m_container);
    layout->setContentsMargins(6, 6, 6, 6);
    layout->addWidget(m_summary);
    layout->addWidget(m_table, 1);
    connect(m_model, &RejectionModel::loaded, this, [this] {
        if (m_model->rowCount() <= RejectionModel::kPageSize)
            m_table->resizeColumnsToContents();
    });
    connect(m_model, &RejectionModel::loadFailed, this, [this](const QString &error) {
        m_summary->setText(QStringLiteral("Rejections could not be read: ") + error);
    });
}

RejectionsController::~RejectionsController()
{
    delete m_container;
}

void RejectionsController::refresh()
{
    m_model->reload();
}

} // namespace redrive::ui
