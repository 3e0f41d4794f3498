// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#include "plaintooltip.h"

#include <QTextDocument>

namespace redrive::ui {

QString plainToolTip(const QString &text)
{
    if (!Qt::mightBeRichText(text))
        return text;
    return QStringLiteral("<p style='white-space:pre-wrap'>") + text.toHtmlEscaped() + QStringLiteral("</p>");
}

} // namespace redrive::ui
