// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#include "reconcilecontroller.h"

#include "api/adminclient.h"
#include "connection/session.h"
#include "reconcile/reconcilerunmodel.h"
#include "reconcile/reconcileview.h"
#include "statusbar/replicacontroller.h"
#include "util/clock.h"

#include <QJsonObject>
#include <QTableView>
#include <QTimer>

#include <algorithm>

namespace redrive::ui {
namespace {

constexpr int kRecentRuns = 50;

} // namespace

ReconcileController::ReconcileController(
    Session *session, ReconcileView *view, const Clock &clock, QObject *parent)
    : QObject(parent)
    , m_session(session)
    , m_clock(clock)
    , m_view(view)
    , m_sources(new ReconcileRunModel(this))
    , m_runs(new ReconcileRunModel(this))
    , m_sourceTable(view->sourceTable())
    , m_follow(new QTimer(this))
{
    m_sourceTable->setModel(m_sources);
    m_view->runTable()->setModel(m_runs);
    m_view->setSummary(QString(), false);
    m_view->setRunsHeading(QString());
    m_view->setResult(QString(), false);
    // Offered to whoever the admin API lets start a run; the others see why not.
    if (!session->admin())
        m_cannotRun = tr("Starting a reconciliation needs the admin API; this profile has none.");
    else if (!session->permissions().reconcile)
        m_cannotRun = tr("Only operators and administrators can start a reconciliation; you are "
                         "signed in as %1.")
                          .arg(session->role() ? toString(*session->role()) : tr("no role"));
    connect(m_view, &ReconcileView::runNowRequested, this, &ReconcileController::runNow);
    connect(m_sourceTable->selectionModel(), &QItemSelectionModel::currentRowChanged, this, [this] {
        updateButton();
        refresh(); // that source's runs
    });
    connect(m_sources, &QAbstractItemModel::modelReset, this, &ReconcileController::updateButton);
    connect(m_sources, &QAbstractItemModel::dataChanged, this, &ReconcileController::updateButton);
    m_follow->setSingleShot(true);
    m_follow->setInterval(1'000);
    connect(m_follow, &QTimer::timeout, this, [this] {
        if (m_view->isVisible())
            refresh();
    });
    updateButton();
}

void ReconcileController::setFollowInterval(int ms)
{
    m_follow->setInterval(ms);
}

QString ReconcileController::selectedSource() const
{
    const reconcile::Run *r = m_sources->runAt(m_sourceTable->selectionModel()->currentIndex());
    return r ? r->source : QString();
}

void ReconcileController::updateButton()
{
    const reconcile::Run *r = m_sources->runAt(m_sourceTable->selectionModel()->currentIndex());
    QString why = m_cannotRun;
    if (why.isEmpty() && !r)
        why = tr("Select a source to reconcile it now.");
    else if (why.isEmpty() && runShown(*r) == RunShown::Running)
        why = tr("A reconciliation of %1 is running; it can be started again once it finishes.")
                  .arg(r->source);
    else if (why.isEmpty() && m_starting)
        why = tr("Starting…");
    m_view->setRunNow(r ? r->source : QString(), r ? r->provider : QString(), why);
}

void ReconcileController::refresh()
{
    if (!m_gate.enter())
        return;
    struct Runs {
        QList<reconcile::Run> latest; // each source's newest run
        QList<reconcile::Run> recent; // the selected source's
    };
    const QString source = selectedSource();
    // Sources the receiver's configuration (when the profile names a copy) reconciles: listed
    // before their first run, so Run now can start it.
    QList<std::pair<QString, QString>> configured;
    if (const auto &config = m_session->retrySchedules())
        configured = config->reconciledSources;
    m_session->stats()->submit(
        this, &m_generation,
        [source, configured](Db &db) -> Result<Runs> {
            auto latest = reconcile::lastRunPerSource(db);
            if (!latest)
                return Failure(latest.error());
            for (const auto &entry : configured) {
                const QString &name = entry.first;
                if (std::none_of(latest->cbegin(), latest->cend(),
                        [&name](const reconcile::Run &r) { return r.source == name; })) {
                    reconcile::Run never;
                    never.source = name;
                    never.provider = entry.second;
                    latest->append(never);
                }
            }
            std::sort(latest->begin(), latest->end(),
                [](const reconcile::Run &x, const reconcile::Run &y) { return x.source < y.source; });
            auto recent = reconcile::listRuns(db, source, std::nullopt, kRecentRuns);
            if (!recent)
                return Failure(recent.error());
            return Runs { std::move(*latest), std::move(*recent) };
        },
        [this, source](Result<Runs> runs) {
            if (m_gate.leave()) {
                refresh(); // asked again while reading: this answer may already be stale
                return;
            }
            if (!runs) {
                m_view->setSummary(tr("Reconciliation runs could not be read: ") + runs.error(), false);
                return;
            }
            const qint64 now = m_clock.nowMs();
            const bool firstFill = m_sources->rowCount() == 0;
            m_sources->setRuns(std::move(runs->latest), now);
            if (m_sourceTable->selectionModel()->currentIndex().row() < 0 && m_sources->rowCount() > 0) {
                m_sourceTable->selectRow(0); // reads again, for that source's runs
            } else if (const int row = m_sources->rowOfSource(source);
                       row >= 0 && m_sourceTable->currentIndex().row() != row) {
                m_sourceTable->selectRow(row);
            }
            m_runs->setRuns(std::move(runs->recent), now);
            if (firstFill && m_sources->rowCount() > 0)
                m_view->fitColumns();
            m_view->setRunsHeading(
                source.isEmpty() ? tr("Recent runs") : tr("Recent runs of %1").arg(source));
            int failed = 0;
            for (int row = 0; row < m_sources->rowCount(); ++row)
                failed += runShown(*m_sources->runAt(m_sources->index(row, 0))) == RunShown::Failed ? 1 : 0;
            QString text = m_sources->rowCount() == 0
                ? tr("No reconciliation has run yet. A source with [sources.reconcile] in the "
                     "receiver's configuration shows here after its first run.")
                : tr("%Ln source(s) reconcile(s|) with their provider", nullptr, m_sources->rowCount())
                    + (failed ? tr("; the last run of %Ln failed.", nullptr, failed)
                              : tr("; none failed its last run."));
            if (!m_cannotRun.isEmpty() && m_sources->rowCount() > 0)
                text += QLatin1Char(' ') + m_cannotRun;
            m_view->setSummary(text, failed > 0);
            updateButton();
            // Follow a running run until it finishes, so its counts show without a manual refresh.
            if (m_sources->anyRunning() || m_runs->anyRunning())
                m_follow->start();
            Q_EMIT refreshed();
        });
}

void ReconcileController::runNow()
{
    const reconcile::Run *r = m_sources->runAt(m_sourceTable->selectionModel()->currentIndex());
    AdminClient *admin = m_session->admin();
    if (!r || !admin || !m_cannotRun.isEmpty() || m_starting)
        return;
    const QString source = r->source;
    m_starting = true;
    m_view->setResult({}, false);
    updateButton();
    ApiReply *reply = admin->reconcileSource(source);
    connect(
        reply, &ApiReply::finished, this, [this, source](const QJsonDocument &body, const ApiError &error) {
            m_starting = false;
            if (!error.ok()) {
                const QString said = body.object().value(QStringLiteral("message")).toString();
                QString text;
                switch (error.kind) {
                case ApiError::Kind::Forbidden:
                    text = tr("The receiver refused to start a reconciliation of %1 for your role "
                              "(HTTP 403). The attempt is in its audit log.")
                               .arg(source);
                    break;
                case ApiError::Kind::NotFound:
                    text = tr("The receiver knows no source named %1 (HTTP 404): its configuration "
                              "may have changed since this page was read.")
                               .arg(source);
                    break;
                case ApiError::Kind::Conflict:
                    // One already running, or the source has no [sources.reconcile]: the receiver says which.
                    text = tr("The receiver did not start a reconciliation of %1 (HTTP 409): %2")
                               .arg(source,
                                   said.isEmpty() ? tr("one is already running, or the source does "
                                                       "not reconcile.")
                                                  : said);
                    break;
                default:
                    text = actionErrorText(error,
                        tr("Starting a reconciliation of %1 was not confirmed: ").arg(source),
                        tr("The reconciliation of %1 was not started: ").arg(source));
                    break;
                }
                m_view->setResult(text, true);
                updateButton();
                refresh(); // a 409's running run, or the page as it is now
                return;
            }
            const QJsonObject run = body.object();
            const qint64 id = run.value(QStringLiteral("id")).toInteger();
            m_view->setResult(id > 0
                    ? tr("Reconciliation of %1 started (run #%2); this page follows it until "
                         "it finishes.")
                          .arg(source)
                          .arg(id)
                    : tr("Reconciliation of %1 started.").arg(source),
                false);
            Q_EMIT runStarted(source, id);
            updateButton();
            afterReplicaShows(m_session, this, [this] {
                m_generation.advance();
                m_gate.abandon();
                refresh();
            });
        });
}

} // namespace redrive::ui
