// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#include "windowfit.h"

#include <algorithm>

namespace redrive::ui {

namespace {
// What a window manager's title bar and borders take, at most, on the desktops the console runs.
constexpr int kFrameWidth = 16;
constexpr int kFrameHeight = 48;
} // namespace

QRect firstWindowGeometry(QSize preferred, const QRect &available)
{
    const int width = std::max(1, std::min(preferred.width(), available.width() - kFrameWidth));
    const int height = std::max(1, std::min(preferred.height(), available.height() - kFrameHeight));
    QRect r(0, 0, width, height);
    r.moveCenter(available.center());
    return r;
}

} // namespace redrive::ui
