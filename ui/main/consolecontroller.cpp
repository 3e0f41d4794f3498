// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#include "consolecontroller.h"

#include "approvals/approvalscontroller.h"
#include "approvals/approvalsview.h"
#include "auditor/auditcontroller.h"
#include "auditor/auditmodel.h"
#include "auditor/auditview.h"
#include "common/environmentbanner.h"
#include "common/timeformat.h"
#include "connection/connectiondialog.h"
#include "connection/databasewatch.h"
#include "connection/session.h"
#include "deadletters/deadletterscontroller.h"
#include "deadletters/deadlettersview.h"
#include "destinations/destinationscontroller.h"
#include "destinations/destinationsview.h"
#include "detail/detailcontroller.h"
#include "detail/eventdetailview.h"
#include "events/eventscontroller.h"
#include "events/eventtablemodel.h"
#include "incidents/incidentscontroller.h"
#include "incidents/notifier.h"
#include "newreplay/newreplaycontroller.h"
#include "overview/overviewcontroller.h"
#include "reconcile/reconcilecontroller.h"
#include "reconcile/reconcileview.h"
#include "rejections/rejectionmodel.h"
#include "rejections/rejectionscontroller.h"
#include "rejections/rejectionsview.h"
#include "replays/replayhistorycontroller.h"
#include "replays/replaysview.h"
#include "resolve/resolvecontroller.h"
#include "statusbar/receiverhealthcontroller.h"
#include "statusbar/replicacontroller.h"

#include <QSettings>
#include <QStatusBar>
#include <QTimer>

namespace redrive::ui {

// Everything that lives exactly as long as one session. Members are destroyed in reverse order of
// declaration: the controllers first (they hold pointers into the session and widgets in the
// window), the session and its database threads last.
struct SessionControllers {
    std::unique_ptr<Session> session;
    std::unique_ptr<ReplicaController> replica;
    std::unique_ptr<ReconcileController> reconcile;
    std::unique_ptr<ReplayHistoryController> replayHistory;
    std::unique_ptr<ReceiverHealthController> receivers;
    std::unique_ptr<DestinationsController> destinations;
    std::unique_ptr<AuditController> audit;
    std::unique_ptr<ApprovalsController> approvals;
    std::unique_ptr<NewReplayController> newReplay;
    std::unique_ptr<ResolveController> resolve;
    std::unique_ptr<OverviewController> overview;
    std::unique_ptr<RejectionsController> rejections;
    std::unique_ptr<DeadLettersController> deadLetters;
    std::unique_ptr<DetailController> detail;
    std::unique_ptr<EventsController> events;
    std::unique_ptr<IncidentsController> incidents;
    std::unique_ptr<DatabaseWatch> database;
};

namespace {
// Where a profile keeps its window layout, next to its connection settings.
QString layoutKey(const QString &profile)
{
    return QStringLiteral("layout/%1/window").arg(profile);
}
} // namespace

ConsoleController::ConsoleController(
    QSettings &settings, SecretStore &secrets, const Clock &clock, QObject *parent)
    : QObject(parent)
    , m_settings(settings)
    , m_secrets(secrets)
    , m_clock(clock)
    , m_profiles(std::make_unique<ProfileStore>(settings))
    , m_window(std::make_unique<MainWindow>())
    , m_refresh(new QTimer(this))
{
    const bool utc = m_settings.value(QStringLiteral("display/utc"), false).toBool();
    TimeFormat::setPrimary(utc ? TimeFormat::Primary::Utc : TimeFormat::Primary::Local);
    connect(m_window.get(), &MainWindow::connectRequested, this, [this] { showConnectionDialog(); });
    connect(m_window.get(), &MainWindow::disconnectRequested, this, &ConsoleController::disconnectSession);
    connect(m_window.get(), &MainWindow::findRequested, this, [this] {
        if (!events())
            return;
        m_window->showPage(MainWindow::EventsPage);
        events()->focusSearch();
    });
    connect(m_window.get(), &MainWindow::refreshRequested, this, [this] {
        if (events() && m_window->currentPage() == MainWindow::EventsPage) {
            events()->reload(); // keeps the open event selected
            detail()->reload(); // and reads it again
        }
        refreshVisiblePage();
    });
    connect(m_window.get(), &MainWindow::pageChanged, this, &ConsoleController::refreshVisiblePage);
    connect(m_window.get(), &MainWindow::utcTimesToggled, this, [this](bool on) {
        TimeFormat::setPrimary(on ? TimeFormat::Primary::Utc : TimeFormat::Primary::Local);
        m_settings.setValue(QStringLiteral("display/utc"), on);
        m_window->update();
        if (events())
            Q_EMIT events()->model()->headerDataChanged(Qt::Horizontal, 0, EventTableModel::ColumnCount - 1);
    });
    m_desktopNotifier = std::make_unique<DesktopNotifier>();
    m_notifier = m_desktopNotifier.get();
    m_refresh->setInterval(10'000);
    connect(m_refresh, &QTimer::timeout, this, &ConsoleController::refreshVisiblePage);
}

ConsoleController::~ConsoleController()
{
    disconnectSession();
}

Session *ConsoleController::session() const
{
    return m_s ? m_s->session.get() : nullptr;
}

// While a session ends (m_s is reset, so already null) and between sessions these are null.
EventsController *ConsoleController::events() const
{
    return m_s ? m_s->events.get() : nullptr;
}

DetailController *ConsoleController::detail() const
{
    return m_s ? m_s->detail.get() : nullptr;
}

DeadLettersController *ConsoleController::deadLetters() const
{
    return m_s ? m_s->deadLetters.get() : nullptr;
}

RejectionsController *ConsoleController::rejections() const
{
    return m_s ? m_s->rejections.get() : nullptr;
}

OverviewController *ConsoleController::overview() const
{
    return m_s ? m_s->overview.get() : nullptr;
}

NewReplayController *ConsoleController::newReplay() const
{
    return m_s ? m_s->newReplay.get() : nullptr;
}

ResolveController *ConsoleController::resolve() const
{
    return m_s ? m_s->resolve.get() : nullptr;
}

ApprovalsController *ConsoleController::approvals() const
{
    return m_s ? m_s->approvals.get() : nullptr;
}

AuditController *ConsoleController::audit() const
{
    return m_s ? m_s->audit.get() : nullptr;
}

DestinationsController *ConsoleController::destinations() const
{
    return m_s ? m_s->destinations.get() : nullptr;
}

ReceiverHealthController *ConsoleController::receivers() const
{
    return m_s ? m_s->receivers.get() : nullptr;
}

IncidentsController *ConsoleController::incidents() const
{
    return m_s ? m_s->incidents.get() : nullptr;
}

ReconcileController *ConsoleController::reconcile() const
{
    return m_s ? m_s->reconcile.get() : nullptr;
}

void ConsoleController::setNotifier(Notifier *notifier)
{
    m_notifier = notifier ? notifier : m_desktopNotifier.get();
}

ReplayHistoryController *ConsoleController::replayHistory() const
{
    return m_s ? m_s->replayHistory.get() : nullptr;
}

DatabaseWatch *ConsoleController::database() const
{
    return m_s ? m_s->database.get() : nullptr;
}

ConnectionDialog *ConsoleController::connectionDialog() const
{
    return m_dialog.data();
}

void ConsoleController::setRefreshInterval(int ms)
{
    m_refresh->setInterval(ms);
}

void ConsoleController::showConnectionDialog(const QString &profile, bool connectNow)
{
    if (!m_dialog) {
        m_dialog = new ConnectionDialog(*m_profiles, m_secrets, m_window.get());
        m_dialog->setAttribute(Qt::WA_DeleteOnClose);
        connect(m_dialog, &ConnectionDialog::sessionReady, this, &ConsoleController::adoptSession);
        connect(m_dialog, &ConnectionDialog::keychainNotice, m_window.get(),
            [this](const QString &text) { m_window->statusBar()->showMessage(text, 60'000); });
    }
    if (!profile.isEmpty())
        m_dialog->selectProfile(profile);
    m_dialog->open();
    if (connectNow && !profile.isEmpty() && m_profiles->names().contains(profile))
        m_dialog->connectNow();
}

void ConsoleController::adoptSession(Session *session)
{
    disconnectSession();
    // Built aside and adopted whole at the end, so nothing sees a half-wired session.
    auto built = std::make_unique<SessionControllers>();
    session->setParent(nullptr); // owned here from now on, not by the dialog that made it
    built->session.reset(session);
    SessionControllers &c = *built;
    const ConnectionProfile &p = session->profile();
    MainWindow *w = m_window.get();
    w->banner()->showEnvironment(p.environment, p.colour, p.name);
    // The platform adds the application's name ("… — Redrive") to the title itself.
    w->setWindowTitle(QStringLiteral("%1 (%2)").arg(p.environment.toUpper(), p.name));
    w->restoreLayoutState(m_settings.value(layoutKey(p.name)).toByteArray());
    w->setConnectionText(QStringLiteral("%1 · %2").arg(p.databaseDescription(),
        session->admin() ? session->admin()->baseUrl().toString() : tr("no admin API (read-only)")));
    w->setIdentity(session->role()
            ? QStringLiteral("%1 · %2").arg(session->user(), toString(*session->role()))
            : tr("read-only (no admin API)"));
    w->setConnected(true);

    // First, so every page's action can wait for a hot standby to show what it changed.
    c.replica = std::make_unique<ReplicaController>(session, w->replicaWarning(), w->replicaStatus());
    session->setReplica(c.replica.get());
    if (session->admin())
        connect(session->admin(), &AdminClient::committed, c.replica.get(), &ReplicaController::expect);
    connect(c.replica.get(), &ReplicaController::replayed, this, [this] {
        refreshVisiblePage();
        if (DetailController *d = detail())
            d->reload();
    });
    c.events = std::make_unique<EventsController>(session, w->events(), m_settings);
    c.detail = std::make_unique<DetailController>(session, w->detail(), m_clock);
    connect(c.events.get(), &EventsController::eventSelected, c.detail.get(), &DetailController::showEvent);
    c.deadLetters = std::make_unique<DeadLettersController>(session, w->deadLettersPage());
    connect(c.deadLetters.get(), &DeadLettersController::openEvents, this, [this](const EventFilter &f) {
        m_window->showPage(MainWindow::EventsPage);
        events()->applyFilter(f);
    });
    connect(c.detail.get(), &DetailController::keySearchRequested, this, [this](const QString &search) {
        EventFilter f;
        f.search = search;
        m_window->showPage(MainWindow::EventsPage);
        events()->applyFilter(f);
    });
    c.incidents = std::make_unique<IncidentsController>(
        session, w->deadLettersPage()->incidents(), *m_notifier, m_settings);
    connect(c.incidents.get(), &IncidentsController::attentionCountChanged, this,
        [this](int n) { m_window->setPageCount(MainWindow::DeadLettersPage, n); });
    c.rejections = std::make_unique<RejectionsController>(session, w->rejectionsPage());
    c.overview = std::make_unique<OverviewController>(session, w->overview(), m_clock);
    const Permissions can = session->permissions();
    c.newReplay = std::make_unique<NewReplayController>(session, w);
    connect(c.events.get(), &EventsController::replayDeliveriesRequested, c.newReplay.get(),
        &NewReplayController::replayDeliveries);
    connect(c.events.get(), &EventsController::replayFilterRequested, c.newReplay.get(),
        &NewReplayController::replayFilter);
    connect(c.deadLetters.get(), &DeadLettersController::replayRequested, c.newReplay.get(),
        &NewReplayController::replayFilter);
    connect(c.detail.get(), &DetailController::replayDeliveryRequested, c.newReplay.get(),
        [this](qint64 id) { newReplay()->replayDeliveries({ id }); });
    connect(c.newReplay.get(), &NewReplayController::requested, this,
        [this](qint64 id, const Stored<ReplayStatus> &status) {
            m_window->statusBar()->showMessage(status == ReplayStatus::PendingApproval
                    ? tr("Replay #%1 requested; it waits for an operator's approval.").arg(id)
                    : tr("Replay #%1 requested (%2).").arg(id).arg(status.name()),
                30'000);
            afterReplicaShows(this->session(), this, [this] {
                if (DetailController *d = detail())
                    d->reload();
            });
        });
    c.resolve = std::make_unique<ResolveController>(session, w);
    connect(c.events.get(), &EventsController::resolveDeliveriesRequested, c.resolve.get(),
        &ResolveController::resolveDeliveries);
    connect(c.deadLetters.get(), &DeadLettersController::resolveRequested, c.resolve.get(),
        &ResolveController::resolveFilter);
    connect(c.detail.get(), &DetailController::resolveDeliveryRequested, c.resolve.get(),
        [this](qint64 id) { resolve()->resolveDeliveries({ id }); });
    connect(c.resolve.get(), &ResolveController::resolved, this, [this](int count) {
        m_window->statusBar()->showMessage(
            tr("Marked %Ln dead letter(s) resolved; they will not be sent again.", nullptr, count), 30'000);
        afterReplicaShows(this->session(), this, [this] {
            if (DetailController *d = detail())
                d->reload();
            if (m_s && m_s->deadLetters)
                m_s->deadLetters->refresh();
        });
    });
    c.approvals
        = std::make_unique<ApprovalsController>(session, w->approvalsPage(), w->approvalsNote(), m_clock);
    connect(c.approvals.get(), &ApprovalsController::pendingCountChanged, this,
        [this](int n) { m_window->setPageCount(MainWindow::ApprovalsPage, n); });
    c.audit = std::make_unique<AuditController>(session, w->auditPage(), m_settings, m_clock);
    w->setPageAvailable(MainWindow::ApprovalsPage, session->admin() && can.approve);
    w->setPageAvailable(MainWindow::AuditPage, can.readAudit);
    c.destinations = std::make_unique<DestinationsController>(session, w->destinationsPage(), m_clock);
    connect(c.destinations.get(), &DestinationsController::pausedChanged, this,
        [this](const QString &name, bool paused) {
            m_window->statusBar()->showMessage(paused
                    ? tr("%1 paused: its deliveries wait until it is resumed.").arg(name)
                    : tr("%1 resumed.").arg(name),
                30'000);
        });
    c.receivers = std::make_unique<ReceiverHealthController>(
        session, w->receiverWarning(), w->receiverStatus(), m_clock);
    c.replayHistory = std::make_unique<ReplayHistoryController>(session, w->replaysPage());
    w->setPageAvailable(MainWindow::ReplaysPage, session->admin() && can.readReplays);
    connect(c.replayHistory.get(), &ReplayHistoryController::openEvent, this,
        [this](qint64 eventId, qint64 replayId) {
            m_window->showPage(MainWindow::EventsPage);
            detail()->showEventAttempt(eventId, replayId);
        });
    connect(c.newReplay.get(), &NewReplayController::requested, this,
        [this](qint64 id, const Stored<ReplayStatus> &) {
            if (!m_window->isPageAvailable(MainWindow::ReplaysPage))
                return;
            m_window->showPage(MainWindow::ReplaysPage);
            replayHistory()->showReplay(id);
        });
    c.reconcile = std::make_unique<ReconcileController>(session, w->reconciliationPage(), m_clock);
    connect(c.reconcile.get(), &ReconcileController::runStarted, this, [this](const QString &source, qint64) {
        m_window->statusBar()->showMessage(
            tr("Reconciliation of %1 started; the Reconciliation page follows it.").arg(source), 30'000);
    });
    c.database = std::make_unique<DatabaseWatch>(session, w->databaseWarning(), m_clock);
    connect(c.database.get(), &DatabaseWatch::recovered, this, [this](qint64 downForMs) {
        m_window->statusBar()->showMessage(
            tr("The database can be reached again (it could not for %1); the pages were refreshed.")
                .arg(TimeFormat::duration(downForMs)),
            60'000);
        if (m_window->currentPage() == MainWindow::EventsPage)
            events()->reload(); // keeps the open event selected
        if (DetailController *d = detail())
            d->reload();
        refreshVisiblePage();
    });
    m_s = std::move(built);
    m_refresh->start();
    w->showPage(MainWindow::EventsPage);
    refreshVisiblePage();
    Q_EMIT sessionStarted();
}

void ConsoleController::disconnectSession()
{
    m_refresh->stop();
    if (m_s && m_window)
        m_settings.setValue(layoutKey(m_s->session->profile().name), m_window->layoutState());
    m_s.reset(); // the controllers, then the session and its threads (see SessionControllers)
    if (m_window) {
        m_window->setPageCount(MainWindow::ApprovalsPage, 0);
        m_window->setPageCount(MainWindow::DeadLettersPage, 0);
        m_window->detail()->showEmpty();
        m_window->setConnected(false);
        m_window->setWindowTitle(QString());
    }
}

void ConsoleController::refreshVisiblePage()
{
    if (!m_s)
        return;
    SessionControllers &c = *m_s;
    // The database cannot be reached: the pages keep what they show (the banner says it is
    // stale) and refresh once it is back.
    if (c.database && c.database->down())
        return;
    // Receiver health shows on every page.
    c.receivers->refresh();
    c.replica->refresh();
    c.incidents->refresh(); // every page: a new incident is notified wherever the user is
    // A hot standby that has not shown the user's last change yet: the pages keep what they show
    // (the status bar says it waits) and refresh when it arrives.
    if (c.replica->waiting())
        return;
    switch (m_window->currentPage()) {
    case MainWindow::OverviewPage:
        c.overview->refresh();
        break;
    case MainWindow::DeadLettersPage:
        c.deadLetters->refresh();
        break;
    case MainWindow::ApprovalsPage:
        c.approvals->refresh();
        break;
    case MainWindow::AuditPage:
        c.audit->refresh(); // new entries and the chain status, every time
        break;
    case MainWindow::RejectionsPage:
        if (c.rejections->model()->rowCount() == 0)
            c.rejections->refresh();
        break;
    case MainWindow::DestinationsPage:
        c.destinations->refresh();
        break;
    case MainWindow::ReplaysPage:
        c.replayHistory->refresh();
        break;
    case MainWindow::ReconciliationPage:
        c.reconcile->refresh();
        break;
    default:
        break;
    }
}

} // namespace redrive::ui
