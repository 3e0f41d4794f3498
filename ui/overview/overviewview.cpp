// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#include "overviewview.h"

#include "common/statuspalette.h"
#include "common/timeformat.h"

#include <QBarCategoryAxis>
#include <QBarSeries>
#include <QBarSet>
#include <QChart>
#include <QChartView>
#include <QComboBox>
#include <QDateTime>
#include <QDateTimeAxis>
#include <QGridLayout>
#include <QHorizontalBarSeries>
#include <QLabel>
#include <QLineSeries>
#include <QValueAxis>

namespace redrive::ui {
namespace {

QChartView *chartView(const QString &objectName, const QString &title)
{
    auto *chart = new QChart;
    chart->setTitle(title);
    chart->legend()->setAlignment(Qt::AlignBottom);
    chart->setAnimationOptions(QChart::NoAnimation);
    auto *view = new QChartView(chart);
    view->setObjectName(objectName);
    view->setRenderHint(QPainter::Antialiasing);
    view->setMinimumHeight(220);
    return view;
}

void resetChart(QChart *chart)
{
    chart->removeAllSeries();
    for (QAbstractAxis *axis : chart->axes()) {
        chart->removeAxis(axis);
        delete axis;
    }
}

} // namespace

OverviewView::OverviewView(QWidget *parent)
    : QWidget(parent)
    , m_window(new QComboBox(this))
    , m_backlog(new QLabel(this))
    , m_traffic(chartView(QStringLiteral("trafficChart"),
          QStringLiteral(
              "Per interval: events received, attempts succeeded and retried, deliveries dead-lettered")))
    , m_categories(chartView(QStringLiteral("categoryChart"), QStringLiteral("Failed attempts by category")))
    , m_destinations(chartView(QStringLiteral("destinationChart"),
          QStringLiteral("Destinations: attempt success rate (mean latency)")))
{
    setObjectName(QStringLiteral("overviewView"));
    m_window->setObjectName(QStringLiteral("overviewWindow"));
    m_window->setAccessibleName(QStringLiteral("Overview time range"));
    // The first entry sizes the range to the data stored, so a receiver that started minutes ago
    // is not drawn into the last pixel of a day.
    m_window->addItem(QStringLiteral("Fit to the data"), qint64(0));
    m_window->addItem(QStringLiteral("Last hour"), qint64(3'600'000));
    m_window->addItem(QStringLiteral("Last 24 hours"), qint64(86'400'000));
    m_window->addItem(QStringLiteral("Last 7 days"), qint64(7 * 86'400'000LL));
    m_window->setCurrentIndex(0);
    m_window->setSizeAdjustPolicy(QComboBox::AdjustToContents); // the fitted span renames item 0
    connect(m_window, &QComboBox::currentIndexChanged, this, &OverviewView::windowChanged);
    m_backlog->setObjectName(QStringLiteral("backlogLabel"));
    m_backlog->setTextFormat(Qt::PlainText);
    QFont f = m_backlog->font();
    f.setPointSizeF(f.pointSizeF() * 1.15);
    m_backlog->setFont(f);

    auto *layout = new QGridLayout(this);
    layout->addWidget(m_backlog, 0, 0);
    layout->addWidget(m_window, 0, 1, Qt::AlignRight);
    layout->addWidget(m_traffic, 1, 0, 1, 2);
    layout->addWidget(m_categories, 2, 0);
    layout->addWidget(m_destinations, 2, 1);
    layout->setRowStretch(1, 3);
    layout->setRowStretch(2, 2);
}

qint64 OverviewView::windowMs() const
{
    return m_window->currentData().toLongLong();
}

void OverviewView::showFittedSpan(const QString &label)
{
    m_window->setItemText(0, QStringLiteral("Fit to the data (last %1)").arg(label));
}

void OverviewView::showError(const QString &text)
{
    m_backlog->setText(text);
}

void OverviewView::showOverview(const Overview &o, qint64 nowMs)
{
    m_backlog->setText(o.oldestPendingSince
            ? QStringLiteral("%L1 deliveries waiting; the oldest has waited %2.")
                  .arg(o.backlog)
                  .arg(TimeFormat::duration(nowMs - *o.oldestPendingSince))
            : QStringLiteral("Nothing is waiting for delivery."));

    // Traffic per bucket: lines over time.
    QChart *traffic = m_traffic->chart();
    resetChart(traffic);
    struct Line {
        const char *name = nullptr;
        qint64 OverviewBucket::*field = nullptr;
        QColor colour;
    };
    const Line lines[] = { { "received", &OverviewBucket::received, receivedSeriesColour() },
        { "succeeded", &OverviewBucket::succeeded, statusLook(EventStatus::Succeeded).foreground },
        { "retried", &OverviewBucket::retried, retriedSeriesColour() },
        { "dead", &OverviewBucket::dead, statusLook(EventStatus::Dead).foreground } };
    auto *time = new QDateTimeAxis;
    // Seconds matter on a span of minutes (a fitted range can be one minute long).
    const qint64 spanMs = o.bucketMs * std::max<qsizetype>(1, o.buckets.size());
    time->setFormat(o.bucketMs >= 3'600'000 ? QStringLiteral("MM-dd HH:mm")
            : spanMs <= 15LL * 60'000       ? QStringLiteral("HH:mm:ss")
                                            : QStringLiteral("HH:mm"));
    time->setRange(QDateTime::fromMSecsSinceEpoch(o.fromMs),
        QDateTime::fromMSecsSinceEpoch(o.fromMs + o.bucketMs * std::max<qsizetype>(1, o.buckets.size())));
    auto *counts = new QValueAxis;
    counts->setLabelFormat(QStringLiteral("%d"));
    traffic->addAxis(time, Qt::AlignBottom);
    traffic->addAxis(counts, Qt::AlignLeft);
    qint64 peak = 1;
    for (const Line &line : lines) {
        auto *series = new QLineSeries;
        series->setName(QLatin1String(line.name));
        series->setColor(line.colour);
        for (const OverviewBucket &b : o.buckets) {
            const qint64 midMs = b.startMs + o.bucketMs / 2; // whole milliseconds
            series->append(double(midMs), double(b.*line.field));
            peak = std::max(peak, b.*line.field);
        }
        traffic->addSeries(series);
        series->attachAxis(time);
        series->attachAxis(counts);
    }
    counts->setRange(0, double(peak) * 1.1);

    // Failure categories: one horizontal bar each.
    QChart *categories = m_categories->chart();
    resetChart(categories);
    auto *set = new QBarSet(QStringLiteral("failed attempts"));
    set->setColor(failedAttemptsColour());
    QStringList names;
    qint64 most = 1;
    for (const auto &[category, n] : o.failureCategories) {
        *set << double(n);
        names.append(categoryLabel(category));
        most = std::max(most, n);
    }
    auto *bars = new QHorizontalBarSeries;
    bars->append(set);
    categories->addSeries(bars);
    auto *catAxis = new QBarCategoryAxis;
    catAxis->append(names.isEmpty() ? QStringList { QStringLiteral("none") } : names);
    auto *catValues = new QValueAxis;
    catValues->setRange(0, double(most) * 1.1);
    catValues->setLabelFormat(QStringLiteral("%d"));
    categories->addAxis(catAxis, Qt::AlignLeft);
    categories->addAxis(catValues, Qt::AlignBottom);
    bars->attachAxis(catAxis);
    bars->attachAxis(catValues);
    categories->legend()->hide();

    // Destinations: success rate of attempts; the mean latency goes into the label, since
    // percent and milliseconds do not share an axis.
    QChart *dest = m_destinations->chart();
    resetChart(dest);
    auto *rate = new QBarSet(QStringLiteral("attempts succeeded %"));
    rate->setColor(statusLook(EventStatus::Succeeded).foreground);
    QStringList destNames;
    for (const DestinationHealth &d : o.destinations) {
        *rate << d.successRate() * 100.0;
        destNames.append(QStringLiteral("%1 (%2 ms)").arg(d.destination).arg(qRound(d.meanLatencyMs)));
    }
    auto *destBars = new QBarSeries;
    destBars->append(rate);
    destBars->setLabelsVisible(true);
    destBars->setLabelsFormat(QStringLiteral("@value %"));
    destBars->setLabelsPrecision(3);
    dest->addSeries(destBars);
    auto *destAxis = new QBarCategoryAxis;
    destAxis->append(destNames.isEmpty() ? QStringList { QStringLiteral("none") } : destNames);
    auto *destValues = new QValueAxis;
    destValues->setRange(0, 100);
    destValues->setLabelFormat(QStringLiteral("%d%%"));
    dest->addAxis(destAxis, Qt::AlignBottom);
    dest->addAxis(destValues, Qt::AlignLeft);
    destBars->attachAxis(destAxis);
    destBars->attachAxis(destValues);
    dest->legend()->hide();
}

} // namespace redrive::ui
