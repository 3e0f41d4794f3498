// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#pragma once

#include "query/opsstats.h"

#include <QWidget>

class QChart;
class QChartView;
class QComboBox;
class QLabel;

namespace redrive::ui {

// Charts of the last hours: traffic per interval, failure categories, per-destination success
// rate and latency, and the age of the oldest undelivered delivery. Passive.
class OverviewView final : public QWidget {
    Q_OBJECT
public:
    explicit OverviewView(QWidget *parent = nullptr);
    void showOverview(const Overview &overview, qint64 nowMs);
    void showError(const QString &text);
    [[nodiscard]] qint64 windowMs() const;

Q_SIGNALS:
    void windowChanged();

private:
    QComboBox *m_window;
    QLabel *m_backlog;
    QChartView *m_traffic;
    QChartView *m_categories;
    QChartView *m_destinations;
};

} // namespace redrive::ui
