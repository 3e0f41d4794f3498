// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#pragma once

#include <QStringList>

class QWidget;

namespace redrive::test {

// Walks the accessible tree under `root` the way a screen reader over AT-SPI does
// (QAccessible::queryAccessibleInterface and its children) and lists every visible interactive
// control that has no accessible name — a button, field, box, table, tree, list or tab a blind
// user would hear as just "push button" or "table". Each entry says where it is and what it is.
// Cells of item views are not walked: their names come from the model.
QStringList unnamedControls(QWidget *root);

// How many visible interactive controls the walk saw (so a test can tell an empty walk from a
// clean one).
int interactiveControlCount(QWidget *root);

// The keyboard path: every visible control under `root` a user acts on (button, field, box, item
// view, tab bar) must take focus from Tab, or have a shortcut or a mnemonic (its own, or a
// label's whose buddy it is). An editable text box that keeps Tab for itself is a trap and is
// listed too. Each entry says where it is and what is wrong.
QStringList keyboardUnreachableControls(QWidget *root);

} // namespace redrive::test
