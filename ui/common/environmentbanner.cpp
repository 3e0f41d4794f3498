// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#include "environmentbanner.h"

#include "plaintooltip.h"
#include "statuspalette.h"

namespace redrive::ui {

EnvironmentBanner::EnvironmentBanner(QWidget *parent)
    : QLabel(parent)
{
    setObjectName(QStringLiteral("environmentBanner"));
    setAlignment(Qt::AlignCenter);
    setTextFormat(Qt::PlainText);
    setMargin(4);
    setAutoFillBackground(true);
    hide();
}

void EnvironmentBanner::showEnvironment(
    const QString &label, const QColor &colour, const QString &profileName)
{
    setStyleSheet(bannerStyle(colour));
    setText(QStringLiteral("%1 — %2").arg(label.toUpper(), profileName));
    setToolTip(plainToolTip(tr("Connected to the %1 environment (profile \"%2\")").arg(label, profileName)));
    show();
}

void EnvironmentBanner::clearEnvironment()
{
    clear();
    hide();
}

} // namespace redrive::ui
