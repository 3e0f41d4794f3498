// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#include "overviewview.h"

#include "common/localeformat.h"
#include "common/niceaxis.h"
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
    // Tick and bar labels in the user's locale ("1.204" in German).
    chart->setLocalizeNumbers(true);
    chart->setLocale(QLocale());
    auto *view = new QChartView(chart);
    view->setObjectName(objectName);
    view->setRenderHint(QPainter::Antialiasing);
    view->setMinimumHeight(220);
    return view;
}

// A count axis from 0 on round ticks; whole numbers only, so a count never reads "2.5".
QValueAxis *countAxis(qint64 peak)
{
    const NiceValueAxis nice = niceValueAxis(0, double(peak), 5, true);
    auto *axis = new QValueAxis;
    axis->setRange(nice.min, nice.max);
    axis->setTickCount(nice.intervals + 1);
    // With localized numbers QtCharts reads only "%.<precision><conversion>" formats ("%d" draws
    // no labels); whole-number ticks with no decimals.
    axis->setLabelFormat(QStringLiteral("%.0f"));
    return axis;
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
          tr("Per interval: events received, attempts succeeded and retried, deliveries dead-lettered")))
    , m_categories(chartView(QStringLiteral("categoryChart"), tr("Failed attempts by category")))
    , m_destinations(chartView(
          QStringLiteral("destinationChart"), tr("Destinations: attempt success rate (mean latency)")))
{
    setObjectName(QStringLiteral("overviewView"));
    m_window->setObjectName(QStringLiteral("overviewWindow"));
    m_window->setAccessibleName(tr("Overview time range"));
    // The first entry sizes the range to the data stored, so a receiver that started minutes ago
    // is not drawn into the last pixel of a day.
    m_window->addItem(tr("Fit to the data"), qint64(0));
    m_window->addItem(tr("Last hour"), qint64(3'600'000));
    m_window->addItem(tr("Last 24 hours"), qint64(86'400'000));
    m_window->addItem(tr("Last 7 days"), qint64(7 * 86'400'000LL));
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
    m_window->setItemText(0, tr("Fit to the data (last %1)").arg(label));
}

void OverviewView::showError(const QString &text)
{
    m_backlog->setText(text);
}

void OverviewView::showOverview(const Overview &o, qint64 nowMs)
{
    m_backlog->setText(o.oldestPendingSince
            ? tr("%Ln deliver(y|ies) waiting; the oldest has waited %1.", nullptr, int(o.backlog))
                  .arg(LocaleFormat::duration(nowMs - *o.oldestPendingSince))
            : tr("Nothing is waiting for delivery."));

    // Traffic per bucket: lines over time.
    QChart *traffic = m_traffic->chart();
    resetChart(traffic);
    struct Line {
        const char *name = nullptr;
        qint64 OverviewBucket::*field = nullptr;
        QColor colour;
    };
    const Line lines[] = { { QT_TR_NOOP("received"), &OverviewBucket::received, receivedSeriesColour() },
        { QT_TR_NOOP("succeeded"), &OverviewBucket::succeeded,
            statusLook(EventStatus::Succeeded).foreground },
        { QT_TR_NOOP("retried"), &OverviewBucket::retried, retriedSeriesColour() },
        { QT_TR_NOOP("dead"), &OverviewBucket::dead, statusLook(EventStatus::Dead).foreground } };
    // The range on round minutes or hours around the buckets, one tick per step.
    const qint64 toMs = o.fromMs + o.bucketMs * std::max<qsizetype>(1, o.buckets.size());
    const qint64 offsetMs = qint64(QDateTime::fromMSecsSinceEpoch(o.fromMs).offsetFromUtc()) * 1000;
    const NiceTimeAxis niceTime = niceTimeAxis(o.fromMs, toMs, offsetMs);
    auto *time = new QDateTimeAxis;
    time->setFormat(LocaleFormat::axisTimeFormat(niceTime.unit, niceTime.spansDays));
    time->setRange(
        QDateTime::fromMSecsSinceEpoch(niceTime.fromMs), QDateTime::fromMSecsSinceEpoch(niceTime.toMs));
    time->setTickCount(niceTime.intervals + 1);
    qint64 peak = 0;
    for (const OverviewBucket &b : o.buckets) {
        for (const Line &line : lines)
            peak = std::max(peak, b.*line.field);
    }
    QValueAxis *counts = countAxis(peak);
    traffic->addAxis(time, Qt::AlignBottom);
    traffic->addAxis(counts, Qt::AlignLeft);
    for (const Line &line : lines) {
        auto *series = new QLineSeries;
        series->setName(tr(line.name));
        series->setColor(line.colour);
        for (const OverviewBucket &b : o.buckets) {
            const qint64 midMs = b.startMs + o.bucketMs / 2; // whole milliseconds
            series->append(double(midMs), double(b.*line.field));
        }
        traffic->addSeries(series);
        series->attachAxis(time);
        series->attachAxis(counts);
    }

    // Failure categories: one horizontal bar each.
    QChart *categories = m_categories->chart();
    resetChart(categories);
    auto *set = new QBarSet(tr("failed attempts"));
    set->setColor(failedAttemptsColour());
    QStringList names;
    qint64 most = 0;
    for (const auto &[category, n] : o.failureCategories) {
        *set << double(n);
        names.append(categoryLabel(category));
        most = std::max(most, n);
    }
    auto *bars = new QHorizontalBarSeries;
    bars->append(set);
    categories->addSeries(bars);
    auto *catAxis = new QBarCategoryAxis;
    catAxis->append(names.isEmpty() ? QStringList { tr("none") } : names);
    QValueAxis *catValues = countAxis(most);
    categories->addAxis(catAxis, Qt::AlignLeft);
    categories->addAxis(catValues, Qt::AlignBottom);
    bars->attachAxis(catAxis);
    bars->attachAxis(catValues);
    categories->legend()->hide();

    // Destinations: success rate of attempts; the mean latency goes into the label, since
    // percent and milliseconds do not share an axis.
    QChart *dest = m_destinations->chart();
    resetChart(dest);
    auto *rate = new QBarSet(tr("attempts succeeded %"));
    rate->setColor(statusLook(EventStatus::Succeeded).foreground);
    QStringList destNames;
    for (const DestinationHealth &d : o.destinations) {
        *rate << d.successRate() * 100.0;
        destNames.append(QStringLiteral("%1 (%2)").arg(
            d.destination, LocaleFormat::milliseconds(qRound64(d.meanLatencyMs))));
    }
    auto *destBars = new QBarSeries;
    destBars->append(rate);
    destBars->setLabelsVisible(true);
    destBars->setLabelsFormat(tr("@value %"));
    destBars->setLabelsPrecision(3);
    dest->addSeries(destBars);
    auto *destAxis = new QBarCategoryAxis;
    destAxis->append(destNames.isEmpty() ? QStringList { tr("none") } : destNames);
    const NiceValueAxis percent = niceValueAxis(0, 100, 5, true); // 0, 20, … 100
    auto *destValues = new QValueAxis;
    destValues->setRange(percent.min, percent.max);
    destValues->setTickCount(percent.intervals + 1);
    destValues->setLabelFormat(QStringLiteral("%.0f%"));
    dest->addAxis(destAxis, Qt::AlignBottom);
    dest->addAxis(destValues, Qt::AlignLeft);
    destBars->attachAxis(destAxis);
    destBars->attachAxis(destValues);
    dest->legend()->hide();
}

} // namespace redrive::ui
