// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#pragma once

#include <QString>

namespace redrive::ui {

// `text` as a tooltip that shows exactly these characters. QToolTip lays a tip out as HTML
// whenever Qt::mightBeRichText() takes it for markup (a known tag such as "<img …>", or "&lt;",
// on its first line), and tooltips carry text from the database and the admin API that anyone
// can put there: a rejected request's path, business keys, JSON key names, notes, reasons.
// Text Qt would take for markup comes back HTML-escaped inside a pre-wrap paragraph, which
// renders as the text itself (line breaks and spaces kept); other text comes back unchanged.
// Every tooltip that carries such data goes through here.
[[nodiscard]] QString plainToolTip(const QString &text);

} // namespace redrive::ui
