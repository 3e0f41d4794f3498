// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#include "destinationmodel.h"

#include "common/localeformat.h"
#include "common/plaintooltip.h"
#include "common/statuspalette.h"
#include "common/timeformat.h"

#include <QColor>

namespace redrive::ui {
namespace {

QString ago(qint64 nowMs, qint64 atMs)
{
    return nowMs >= atMs ? DestinationModel::tr("%1 ago").arg(LocaleFormat::duration(nowMs - atMs))
                         : DestinationModel::tr("just now");
}

} // namespace

DestinationModel::DestinationModel(QObject *parent)
    : RowTableModel(parent)
{
    static constexpr ColumnHeader columns[] = { { QT_TR_NOOP("Destination") }, { QT_TR_NOOP("State") },
        { QT_TR_NOOP("Backlog"),
            QT_TR_NOOP("Deliveries not yet succeeded or dead: pending, in flight and retrying") },
        { QT_TR_NOOP("Dead letters") }, { QT_TR_NOOP("Success (last hour)") },
        { QT_TR_NOOP("Last failure (24 h)") }, { QT_TR_NOOP("Paused / resumed") } };
    static_assert(std::size(columns) == ColumnCount);
    setColumns(columns);
    setNumberColumns({ BacklogColumn, DeadColumn, SuccessRateColumn });
}

void DestinationModel::setStatuses(QList<DestinationStatus> statuses, qint64 nowMs)
{
    m_now = nowMs;
    // The same names in the same order: update in place so the selection stays put.
    replaceRows(std::move(statuses), [](const DestinationStatus &fresh, const DestinationStatus &shown) {
        return fresh.name == shown.name;
    });
}

const DestinationStatus *DestinationModel::destinationAt(const QModelIndex &index) const
{
    return rowAt(index);
}

int DestinationModel::rowOf(const QString &name) const
{
    return findRow([&name](const DestinationStatus &d) { return d.name == name; });
}

int DestinationModel::pausedCount() const
{
    int n = 0;
    for (const DestinationStatus &d : rows())
        n += d.paused ? 1 : 0;
    return n;
}

QStringList DestinationModel::openCircuits() const
{
    QStringList names;
    for (const DestinationStatus &d : rows()) {
        if (d.circuitOpen)
            names.append(d.name);
    }
    return names;
}

QString DestinationModel::display(const DestinationStatus &d, int column) const
{
    switch (column) {
    case NameColumn:
        return d.name;
    case StateColumn:
        if (d.paused && d.pausedUntil)
            return tr("Paused until %1").arg(TimeFormat::display(*d.pausedUntil));
        if (d.paused)
            return tr("Paused");
        if (d.circuitOpen)
            return d.nextProbeAt ? tr("Circuit open, next probe %1").arg(TimeFormat::display(*d.nextProbeAt))
                                 : tr("Circuit open");
        return tr("Active");
    case BacklogColumn:
        return QStringLiteral("%L1").arg(d.backlog());
    case DeadColumn:
        return QStringLiteral("%L1").arg(d.dead);
    case SuccessRateColumn:
        if (const auto rate = d.successRate())
            return tr("%1 % of %L2")
                .arg(LocaleFormat::number(*rate * 100.0, d.recentSucceeded == d.recentAttempts ? 0 : 1))
                .arg(d.recentAttempts);
        return tr("— (no attempts)");
    case LastFailureColumn:
        if (!d.lastFailureAt)
            return QStringLiteral("—");
        return QStringLiteral("%1, %2").arg(
            categoryLabel(d.lastFailureCategory), ago(m_now, *d.lastFailureAt));
    case ChangedColumn:
        if (!d.changedAt)
            return QString();
        return (d.paused ? tr("Paused by %1, %2%3") : tr("Resumed by %1, %2%3"))
            .arg(d.changedBy.isEmpty() ? tr("(unknown)") : d.changedBy, ago(m_now, *d.changedAt),
                d.reason.isEmpty() ? QString() : QStringLiteral(": ") + d.reason);
    default:
        return {};
    }
}

QString DestinationModel::tooltip(const DestinationStatus &d, int column) const
{
    switch (column) {
    case NameColumn:
        if (d.configured && !d.hasDeliveries)
            return tr("Named in the receiver configuration; no deliveries yet");
        if (!d.configured && d.hasDeliveries)
            return tr("Seen in deliveries");
        return d.configured ? tr("Named in the receiver configuration, with deliveries")
                            : tr("Known only from its recorded pause state");
    case StateColumn:
        if (d.circuitOpen && !d.paused)
            return tr(
                "The circuit breaker of %1 opened %2: %3\nIts deliveries are held (no attempts spent, no dead "
                "letters); one probe is sent at a time, and the first that succeeds closes the circuit. "
                "An administrator may close it sooner.")
                .arg(d.name, d.circuitSince ? ago(m_now, *d.circuitSince) : tr("(time unknown)"),
                    d.circuitReason);
        if (d.paused && d.pausedUntil)
            return tr("Deliveries to %1 are held until %2, when the receiver resumes it by itself (or an "
                      "administrator resumes it sooner); new events still arrive and queue up.")
                .arg(d.name, TimeFormat::tooltip(*d.pausedUntil));
        return d.paused ? tr("Deliveries to %1 are held until an administrator resumes it; new events still "
                             "arrive and queue up.")
                              .arg(d.name)
                        : tr("Deliveries to %1 are being sent.").arg(d.name);
    case BacklogColumn:
        return tr("%L1 pending, %L2 in flight, %L3 retrying").arg(d.pending).arg(d.inFlight).arg(d.retrying);
    case DeadColumn:
        return tr("Deliveries that exhausted their attempts or failed permanently");
    case SuccessRateColumn:
        return tr("Attempts started in the last hour that succeeded: %L1 of %L2")
            .arg(d.recentSucceeded)
            .arg(d.recentAttempts);
    case LastFailureColumn:
        return d.lastFailureAt
            ? QStringLiteral("%1\n%2").arg(TimeFormat::tooltip(*d.lastFailureAt), d.lastFailureExplanation)
            : tr("No failed attempt in the last 24 hours");
    case ChangedColumn:
        return d.changedAt ? TimeFormat::display(*d.changedAt) : tr("Never paused");
    default:
        return {};
    }
}

QVariant DestinationModel::rowData(const DestinationStatus &d, int column, int role) const
{
    switch (role) {
    case NameRole:
        return d.name;
    case PausedRole:
        return d.paused;
    case BacklogRole:
        return d.backlog();
    case DeadRole:
        return d.dead;
    case Qt::DisplayRole:
        return display(d, column);
    case Qt::ToolTipRole:
        return plainToolTip(tooltip(d, column));
    case Qt::BackgroundRole:
    case Qt::ForegroundRole:
        if (column == StateColumn && d.paused)
            return cellColour(Tone::Caution, role);
        if (column == StateColumn && d.circuitOpen)
            return cellColour(statusLook(DeliveryStatus::Dead), role);
        if (column == DeadColumn && d.dead > 0)
            return cellColour(statusLook(DeliveryStatus::Dead), role);
        return {};
    default:
        return {};
    }
}

} // namespace redrive::ui
