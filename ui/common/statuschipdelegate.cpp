// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#include "statuschipdelegate.h"

#include <QApplication>
#include <QPainter>

namespace redrive::ui {

void StatusChipDelegate::paint(
    QPainter *painter, const QStyleOptionViewItem &option, const QModelIndex &index) const
{
    QStyleOptionViewItem opt = option;
    initStyleOption(&opt, index);
    const QString text = opt.text;
    const QVariant bg = index.data(Qt::BackgroundRole);
    const QVariant fg = index.data(Qt::ForegroundRole);
    // Let the style draw selection and focus, without text or the model's background.
    opt.text.clear();
    opt.backgroundBrush = QBrush();
    const QWidget *widget = option.widget;
    QStyle *style = widget ? widget->style() : QApplication::style();
    style->drawControl(QStyle::CE_ItemViewItem, &opt, painter, widget);
    if (text.isEmpty())
        return;

    painter->save();
    painter->setRenderHint(QPainter::Antialiasing);
    painter->setFont(opt.font); // measure and draw with the same font
    const QFontMetrics fm(opt.font);
    const int pad = 6;
    const int height = std::min(opt.rect.height() - 4, fm.height() + 4);
    // A few pixels of slack: integer advances can round below what elidedText() needs.
    const int width = std::min(opt.rect.width() - 4, fm.horizontalAdvance(text) + 2 * pad + 4);
    const QRect chip(opt.rect.left() + 2, opt.rect.top() + (opt.rect.height() - height) / 2, width, height);
    painter->setPen(Qt::NoPen);
    painter->setBrush(bg.canConvert<QColor>() ? bg.value<QColor>() : opt.palette.midlight().color());
    painter->drawRoundedRect(chip, height / 2.0, height / 2.0);
    painter->setPen(fg.canConvert<QColor>() ? fg.value<QColor>() : opt.palette.text().color());
    painter->drawText(chip.adjusted(pad, 0, -pad + 2, 0), Qt::AlignVCenter | Qt::AlignLeft,
        fm.elidedText(text, Qt::ElideRight, chip.width() - 2 * pad + 2));
    painter->restore();
}

QSize StatusChipDelegate::sizeHint(const QStyleOptionViewItem &option, const QModelIndex &index) const
{
    QSize size = QStyledItemDelegate::sizeHint(option, index);
    size.rwidth() += 16;
    return size;
}

} // namespace redrive::ui
