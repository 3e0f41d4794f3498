// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#include "warningbanner.h"

#include "statuspalette.h"

namespace redrive::ui {

WarningBanner::WarningBanner(QWidget *parent)
    : QLabel(parent)
{
    setTextFormat(Qt::PlainText); // host names and settings come from the database
    setWordWrap(true);
    setMargin(6);
    setStyleSheet(bannerStyle());
    hide();
}

void WarningBanner::showWarnings(const QStringList &warnings)
{
    m_warnings = warnings;
    QStringList lines;
    for (const QString &w : warnings)
        lines.append(QStringLiteral("⚠ ") + w);
    setText(lines.join(u'\n'));
    setVisible(!warnings.isEmpty());
}

} // namespace redrive::ui
