// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#include "rejectionsview.h"

#include <QLabel>

namespace redrive::ui {

RejectionsView::RejectionsView(QWidget *parent)
    : TablePage(QStringLiteral("rejectionTable"), tr("Rejected requests"), parent)
{
    setObjectName(QStringLiteral("rejectionsPage"));
    status()->setObjectName(QStringLiteral("rejectionSummary"));
}

} // namespace redrive::ui
