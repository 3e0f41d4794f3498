// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#pragma once

#include <QRect>
#include <QSize>

namespace redrive::ui {

// The main window's first geometry: the size it prefers, shrunk to the screen's available area
// less room for the window manager's frame, and centred there. A 1366x768 laptop keeps the status
// bar and the buttons at the bottom of each page on screen.
QRect firstWindowGeometry(QSize preferred, const QRect &available);

// Below this width the events page puts the detail under the list instead of beside it, so
// neither the list's columns nor the detail's buttons need a horizontal scroll bar.
inline constexpr int kSideBySideMinWidth = 1500;

} // namespace redrive::ui
