// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#include "rejectionscontroller.h"

#include "common/tablepage.h"
#include "connection/session.h"
#include "rejections/rejectionmodel.h"

#include <QHeaderView>
#include <QLabel>
#include <QTableView>
#include <QVBoxLayout>

namespace redrive::ui {

RejectionsController::RejectionsController(Session *session, QWidget *page, QObject *parent)
    : QObject(parent)
    , m_container(new TablePage(QStringLiteral("rejectionTable"), QStringLiteral("Rejected requests")))
    , m_model(new RejectionModel(session->stats(), this))
    , m_table(m_container->table())
    , m_summary(m_container->status())
{
    page->layout()->addWidget(m_container);
    m_table->setModel(m_model);
    m_summary->setObjectName(QStringLiteral("rejectionSummary"));
    m_summary->setText(
        QStringLiteral("Requests the receiver refused (bad signature, unknown source, too large, …). A run "
                       "of signature failures from one source usually means its secret was rotated."));
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
