// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#pragma once

#include <QLabel>

namespace redrive::ui {

// An amber strip under the environment banner for conditions that put recorded webhooks at
// risk (a receiver that is down, or one that acknowledges before a power-loss-safe flush). It
// is hidden while there is nothing to say, and cannot be dismissed while the condition holds.
class WarningBanner final : public QLabel {
    Q_OBJECT
public:
    explicit WarningBanner(QWidget *parent = nullptr);
    // One line per warning; an empty list hides the banner.
    void showWarnings(const QStringList &warnings);
    [[nodiscard]] QStringList warnings() const { return m_warnings; }

private:
    QStringList m_warnings;
};

} // namespace redrive::ui
