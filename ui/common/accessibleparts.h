// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#pragma once

#include <QCoreApplication>
#include <QLabel>
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
        button->setAccessibleName(
            QCoreApplication::translate("redrive::ui::AccessibleParts", "Clear %1").arg(name));
}

// A label that carries state (chain status, receiver health, the last action's outcome, a
// warning) is heard by what it shows: its accessible name stays empty so that it is the label's
// text, and QLabel announces each new text to assistive technology (QAccessible::NameChanged)
// only while no fixed name replaces it. What the label is for goes into its description, which
// screen readers read after the text; an empty `purpose` leaves the description to the tooltip.
inline void speakAsStatus(QLabel *label, const QString &purpose = QString())
{
    label->setAccessibleName(QString());
    if (!purpose.isEmpty())
        label->setAccessibleDescription(purpose);
}

} // namespace redrive::ui
