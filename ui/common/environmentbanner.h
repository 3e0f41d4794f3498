// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#pragma once

#include <QLabel>

namespace redrive::ui {

// The strip across the top of every console window naming the environment in the profile's
// colour, so a production session cannot be mistaken for staging. Hidden when disconnected.
class EnvironmentBanner final : public QLabel {
    Q_OBJECT
public:
    explicit EnvironmentBanner(QWidget *parent = nullptr);
    void showEnvironment(const QString &label, const QColor &colour, const QString &profileName);
    void clearEnvironment();
};

} // namespace redrive::ui
