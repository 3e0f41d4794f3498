// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#pragma once

#include "query/downstream.h"

#include <QColor>
#include <QString>

namespace redrive::ui {

// The colours and words every view uses for statuses, so "dead" looks the same everywhere.
struct StatusLook {
    QColor background;
    QColor foreground;
    QString label;
};

StatusLook statusLook(const QString &status); // event or delivery status as stored
StatusLook downstreamLook(DownstreamState state);
QString categoryLabel(const QString &category); // "http_retryable" → "HTTP retryable"

} // namespace redrive::ui
