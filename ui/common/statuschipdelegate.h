// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#pragma once

#include <QStyledItemDelegate>

namespace redrive::ui {

// Draws a cell as a rounded "chip": the model's DisplayRole text on its BackgroundRole colour,
// in its ForegroundRole colour. Used for statuses and downstream indicators.
class StatusChipDelegate final : public QStyledItemDelegate {
    Q_OBJECT
public:
    using QStyledItemDelegate::QStyledItemDelegate;
    void paint(
        QPainter *painter, const QStyleOptionViewItem &option, const QModelIndex &index) const override;
    [[nodiscard]] QSize sizeHint(const QStyleOptionViewItem &option, const QModelIndex &index) const override;
};

} // namespace redrive::ui
