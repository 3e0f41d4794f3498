// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#pragma once

// What eventdetailview.cpp (the layout) and eventdetailfill.cpp (filling it from an EventDetail)
// share: the columns of the deliveries and attempts trees, and a plain selectable label.

#include <QLabel>

namespace redrive::ui::detailparts {

enum DeliveryColumn {
    DDestination,
    DStatus,
    DDownstream,
    DAttempts,
    DNext,
    DReference,
    DLastFailure,
    DColumnCount
};
enum AttemptColumn {
    ANumber,
    ADestination,
    AStarted,
    ATrigger,
    AHttp,
    ADuration,
    ACategory,
    AExplanation,
    AColumnCount
};

inline QLabel *plainLabel(const QString &text, QWidget *parent)
{
    auto *l = new QLabel(text, parent);
    l->setTextFormat(Qt::PlainText);
    l->setTextInteractionFlags(Qt::TextSelectableByMouse);
    l->setWordWrap(true);
    return l;
}

} // namespace redrive::ui::detailparts
