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
    // The chosen span, or 0 for "Fit to the data" (the controller sizes it; see overviewrange.h).
    [[nodiscard]] qint64 windowMs() const;
    // Names the span "Fit to the data" chose, e.g. "Fit to the data (last 10 minutes)".
    void showFittedSpan(const QString &label);

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
