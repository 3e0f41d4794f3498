// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#pragma once

#include <QString>

namespace redrive::ui {

// How an event came in (events.origin), in the words every page uses: a webhook that arrived
// signed, or an event a reconciliation run found in the provider's API and recorded because its
// webhook never came ("reconciled").
[[nodiscard]] bool isReconciled(const QString &origin);
// "stripe · reconciled" for the list's source cell; the source alone for a webhook.
[[nodiscard]] QString sourceWithOrigin(const QString &source, const QString &origin);
// What a screen reader says for that cell: "stripe, recovered by reconciliation".
[[nodiscard]] QString sourceWithOriginAccessible(const QString &source, const QString &origin);
// The detail's Origin field and its explanation.
[[nodiscard]] QString originText(const QString &origin);
[[nodiscard]] QString originExplanation(const QString &origin);

} // namespace redrive::ui
