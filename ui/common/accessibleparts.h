// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#pragma once

#include <QLineEdit>
#include <QString>
#include <QToolButton>

namespace redrive::ui {

// Names the parts Qt builds inside a line edit after the control they belong to: the edit
// itself when it has no name (an editable combo box's edit), and its clear button. Screen
// readers reach both over AT-SPI and would otherwise announce "text" and "push button".
inline void nameEditParts(QLineEdit *edit, const QString &name)
{
    if (!edit)
        return;
    if (edit->accessibleName().isEmpty())
        edit->setAccessibleName(name);
    for (QToolButton *button : edit->findChildren<QToolButton *>())
        button->setAccessibleName(QStringLiteral("Clear %1").arg(name));
}

} // namespace redrive::ui
