// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#include "rejectionscontroller.h"

#include "connection/session.h"
#include "rejections/rejectionmodel.h"
#include "rejections/rejectionsview.h"

#include <QTableView>

namespace redrive::ui {

RejectionsController::RejectionsController(Session *session, RejectionsView *view, QObject *parent)
    : QObject(parent)
    , m_view(view)
    , m_model(new RejectionModel(session->stats(), this))
{
    m_view->table()->setModel(m_model);
    m_view->setSummary(
        tr("Requests the receiver refused (bad signature, unknown source, too large, …). A run "
           "of signature failures from one source usually means its secret was rotated."));
    connect(m_model, &RejectionModel::loaded, this, [this] {
        if (m_model->rowCount() <= RejectionModel::kPageSize)
            m_view->table()->resizeColumnsToContents();
    });
    connect(m_model, &RejectionModel::loadFailed, this,
        [this](const QString &error) { m_view->setSummary(tr("Rejections could not be read: ") + error); });
}

void RejectionsController::refresh()
{
    m_model->reload();
}

} // namespace redrive::ui
