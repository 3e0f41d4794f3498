// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#pragma once

#include "domain/types.h"
#include "query/downstream.h"

#include <QColor>
#include <QString>

class QTreeWidgetItem;

namespace redrive::ui {

// The colours and words every view uses for statuses, so "dead" looks the same everywhere.
struct StatusLook {
    QColor background;
    QColor foreground;
    QString label;
};

StatusLook statusLook(EventStatus status);
// Shows `look` in one cell of a tree row: the label on the status colours.
void paintChip(QTreeWidgetItem *item, int column, const StatusLook &look);
StatusLook statusLook(DeliveryStatus status);
// An event or delivery status as stored, parsed here once; an unknown one is shown as it came.
StatusLook statusLook(const QString &status);
StatusLook downstreamLook(DownstreamState state);
QString categoryLabel(FailureCategory category); // HttpRetryable → "HTTP retryable"
// A category as stored: an unknown one is shown as it came, a null one as empty text.
QString categoryLabel(const Stored<FailureCategory> &category);
// A status as read from a row; an unknown one is shown as it came.
StatusLook statusLook(const Stored<EventStatus> &status);
StatusLook statusLook(const Stored<DeliveryStatus> &status);

} // namespace redrive::ui
