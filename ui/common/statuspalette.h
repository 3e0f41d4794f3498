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
QString categoryLabel(const QString &category); // "http_retryable" → "HTTP retryable"

} // namespace redrive::ui
