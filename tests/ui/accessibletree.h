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

// What a sighted user reads that a screen reader would not say: every visible label under `root`
// with text whose accessible name and description together do not contain that text (a fixed
// accessible name such as "Audit chain status" replaces "Chain broken at #6 ..."). Rich text is
// compared as the plain text it shows. Each entry says where the label is and what it shows.
QStringList silentLabels(QWidget *root);

// What a sighted user on this screen cannot reach without a horizontal scroll bar or moving the
// window: the window itself when its frame does not fit the screen's available area, and every
// visible button, field or box under `window` that is cut off (by the window's edge, a splitter,
// or a scroll area's viewport). Parts of compound controls and cells of item views are skipped.
QStringList controlsOutOfSight(QWidget *window);

// A label's text as a screen reader would get it: rich text as plain text, whitespace simplified.
QString spokenText(const QString &labelText);

} // namespace redrive::test
