// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#include "reconcilerunmodel.h"

#include "common/localeformat.h"
#include "common/plaintooltip.h"
#include "common/statuspalette.h"
#include "common/timeformat.h"

#include <algorithm>

namespace redrive::ui {
namespace {

QString ago(qint64 nowMs, qint64 atMs)
{
    return nowMs >= atMs ? ReconcileRunModel::tr("%1 ago").arg(LocaleFormat::duration(nowMs - atMs))
                         : ReconcileRunModel::tr("just now");
}

Tone toneOf(const reconcile::Run &r)
{
    switch (runShown(r)) {
    case RunShown::Ok:
        return r.missing > r.recovered ? Tone::Caution : Tone::Good;
    case RunShown::Failed:
        return Tone::Bad;
    case RunShown::Running:
        return Tone::Info;
    case RunShown::NeverRun:
    case RunShown::Unknown:
        break;
    }
    return Tone::Muted;
}

} // namespace

RunShown runShown(const reconcile::Run &run)
{
    if (run.id == 0)
        return RunShown::NeverRun;
    const std::optional<ReconcileRunStatus> stored = run.status.value();
    if (!stored)
        return RunShown::Unknown;
    switch (*stored) {
    case ReconcileRunStatus::Running:
        return RunShown::Running;
    case ReconcileRunStatus::Ok:
        return RunShown::Ok;
    case ReconcileRunStatus::Failed:
        return RunShown::Failed;
    }
    return RunShown::Unknown;
}

ReconcileRunModel::ReconcileRunModel(QObject *parent)
    : RowTableModel(parent)
{
    static constexpr ColumnHeader columns[] = { { QT_TR_NOOP("Source") }, { QT_TR_NOOP("Provider") },
        { QT_TR_NOOP("Started") }, { QT_TR_NOOP("Status") }, { QT_TR_NOOP("Checked") },
        { QT_TR_NOOP("Missing") }, { QT_TR_NOOP("Recovered") }, { QT_TR_NOOP("Outcome") } };
    static_assert(std::size(columns) == ColumnCount);
    setColumns(columns);
    setNumberColumns({ CheckedColumn, MissingColumn, RecoveredColumn });
}

void ReconcileRunModel::setRuns(QList<reconcile::Run> runs, qint64 nowMs)
{
    m_now = nowMs;
    // The same runs in the same order: update in place so the selection stays put.
    replaceRows(std::move(runs), [](const reconcile::Run &fresh, const reconcile::Run &shown) {
        return fresh.id == shown.id && fresh.source == shown.source;
    });
}

const reconcile::Run *ReconcileRunModel::runAt(const QModelIndex &index) const
{
    return rowAt(index);
}

int ReconcileRunModel::rowOfSource(const QString &source) const
{
    return findRow([&source](const reconcile::Run &r) { return r.source == source; });
}

bool ReconcileRunModel::anyRunning() const
{
    return std::any_of(rows().cbegin(), rows().cend(),
        [](const reconcile::Run &r) { return runShown(r) == RunShown::Running; });
}

QString ReconcileRunModel::statusLabel(const reconcile::Run &run)
{
    switch (runShown(run)) {
    case RunShown::Running:
        return tr("Running");
    case RunShown::Ok:
        return tr("OK");
    case RunShown::Failed:
        return tr("Failed");
    case RunShown::NeverRun:
        return tr("Not run yet");
    case RunShown::Unknown:
        break;
    }
    return run.status.name(); // as stored: a status this console does not know
}

QString ReconcileRunModel::outcome(const reconcile::Run &run, qint64 nowMs)
{
    switch (runShown(run)) {
    case RunShown::Running:
        return tr("Running for %1").arg(LocaleFormat::duration(qMax<qint64>(0, nowMs - run.startedAtMs)));
    case RunShown::Failed:
        // The first line of the receiver's reason; the tooltip has all of it.
        return tr("Failed: %1")
            .arg(run.error.isEmpty() ? tr("(no reason recorded)")
                                     : run.error.section(QLatin1Char('\n'), 0, 0));
    case RunShown::Ok:
        if (run.missing == 0)
            return tr("Nothing missed (%L1 checked)").arg(run.checked);
        if (run.recovered >= run.missing)
            return tr("%L1 missing, all recovered").arg(run.missing);
        return tr("%L1 missing, %L2 recovered").arg(run.missing).arg(run.recovered);
    case RunShown::NeverRun:
        return tr("Configured; no run yet (Run now, or wait for its schedule)");
    case RunShown::Unknown:
        break;
    }
    return tr("Status “%1”").arg(run.status.name());
}

QString ReconcileRunModel::display(const reconcile::Run &r, int column) const
{
    const bool finished = runShown(r) == RunShown::Ok;
    switch (column) {
    case SourceColumn:
        return r.source;
    case ProviderColumn:
        return r.provider;
    case StartedColumn:
        return r.id == 0 ? QStringLiteral("—") : ago(m_now, r.startedAtMs);
    case StatusColumn:
        return statusLabel(r);
    case CheckedColumn:
        return finished ? QStringLiteral("%L1").arg(r.checked) : QStringLiteral("—");
    case MissingColumn:
        return finished ? QStringLiteral("%L1").arg(r.missing) : QStringLiteral("—");
    case RecoveredColumn:
        return finished ? QStringLiteral("%L1").arg(r.recovered) : QStringLiteral("—");
    case OutcomeColumn:
        return outcome(r, m_now);
    default:
        return {};
    }
}

QString ReconcileRunModel::tooltip(const reconcile::Run &r, int column) const
{
    switch (column) {
    case StartedColumn: {
        if (r.id == 0)
            return tr("Named in the receiver configuration; it has not run yet");
        QString text = tr("Run #%1 started %2").arg(r.id).arg(TimeFormat::tooltip(r.startedAtMs));
        if (r.finishedAtMs)
            text += tr("\nfinished after %1").arg(LocaleFormat::duration(*r.finishedAtMs - r.startedAtMs));
        text
            += r.requestedBy.isEmpty() ? tr("\non its schedule") : tr("\nasked for by %1").arg(r.requestedBy);
        return text;
    }
    case CheckedColumn:
        return r.provider == u"github" ? tr("Deliveries GitHub listed for the hook inside the lookback")
                                       : tr("Events the provider listed inside the lookback");
    case MissingColumn:
        return tr("Listed by the provider but never received by Redrive");
    case RecoveredColumn:
        return r.provider == u"github"
            ? tr("Missing deliveries GitHub was asked to send again")
            : tr("Missing events recorded from the provider's list and delivered (origin "
                 "“reconciled”)");
    case OutcomeColumn:
        if (runShown(r) == RunShown::Failed)
            return r.error.isEmpty() ? tr("The receiver recorded no reason") : r.error;
        return outcome(r, m_now);
    default:
        return {};
    }
}

QVariant ReconcileRunModel::rowData(const reconcile::Run &r, int column, int role) const
{
    switch (role) {
    case RunIdRole:
        return r.id;
    case SourceRole:
        return r.source;
    case StatusRole:
        return r.status.name();
    case Qt::DisplayRole:
        return display(r, column);
    case Qt::ToolTipRole: {
        const QString text = tooltip(r, column);
        return text.isEmpty() ? QVariant() : QVariant(plainToolTip(text));
    }
    case Qt::AccessibleTextRole:
        if (column == StatusColumn)
            return tr("Reconciliation %1").arg(statusLabel(r));
        return {};
    case Qt::BackgroundRole:
        if (column == StatusColumn)
            return toneBackground(toneOf(r));
        return {};
    case Qt::ForegroundRole:
        if (column == StatusColumn || (column == OutcomeColumn && runShown(r) == RunShown::Failed))
            return toneText(toneOf(r));
        return {};
    default:
        return {};
    }
}

} // namespace redrive::ui
