// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#include "consolecontroller.h"

#include "approvals/approvalscontroller.h"
#include "audit/auditcontroller.h"
#include "audit/auditmodel.h"
#include "common/environmentbanner.h"
#include "common/timeformat.h"
#include "connection/connectiondialog.h"
#include "connection/session.h"
#include "deadletters/deadletterscontroller.h"
#include "destinations/destinationscontroller.h"
#include "detail/detailcontroller.h"
#include "detail/eventdetailview.h"
#include "events/eventscontroller.h"
#include "events/eventtablemodel.h"
#include "overview/overviewcontroller.h"
#include "receivers/receiverhealthcontroller.h"
#include "rejections/rejectionmodel.h"
#include "rejections/rejectionscontroller.h"
#include "replay/replaycontroller.h"
#include "replays/replayscontroller.h"

#include <QSettings>
#include <QStatusBar>
#include <QTimer>

namespace redrive::ui {

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
        if (!m_events)
            return;
        m_window->showPage(MainWindow::EventsPage);
        m_events->focusSearch();
    });
    connect(m_window.get(), &MainWindow::refreshRequested, this, [this] {
        if (m_events && m_window->currentPage() == MainWindow::EventsPage)
            m_events->model()->reload();
        refreshVisiblePage();
    });
    connect(m_window.get(), &MainWindow::pageChanged, this, &ConsoleController::refreshVisiblePage);
    connect(m_window.get(), &MainWindow::utcTimesToggled, this, [this](bool on) {
        TimeFormat::setPrimary(on ? TimeFormat::Primary::Utc : TimeFormat::Primary::Local);
        m_settings.setValue(QStringLiteral("display/utc"), on);
        m_window->update();
        if (m_events)
            Q_EMIT m_events->model()->headerDataChanged(Qt::Horizontal, 0, EventTableModel::ColumnCount - 1);
    });
    m_refresh->setInterval(10'000);
    connect(m_refresh, &QTimer::timeout, this, &ConsoleController::refreshVisiblePage);
}

ConsoleController::~ConsoleController()
{
    disconnectSession();
}

Session *ConsoleController::session() const
{
    return m_session.data();
}

ConnectionDialog *ConsoleController::connectionDialog() const
{
    return m_dialog.data();
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
    m_session = session;
    session->setParent(this);
    const ConnectionProfile &p = session->profile();
    MainWindow *w = m_window.get();
    w->banner()->showEnvironment(p.environment, p.colour, p.name);
    w->setWindowTitle(QStringLiteral("Redrive — %1 (%2)").arg(p.environment.toUpper(), p.name));
    w->setConnectionText(QStringLiteral("%1 · %2").arg(p.databaseDescription(),
        session->admin() ? session->admin()->baseUrl().toString()
                         : QStringLiteral("no admin API (read-only)")));
    w->setIdentity(session->role()
            ? QStringLiteral("%1 · %2").arg(session->user(), toString(*session->role()))
            : QStringLiteral("read-only (no admin API)"));
    w->setConnected(true);

    m_events = new EventsController(session, w->events(), m_settings, this);
    m_detail = new DetailController(session, w->detail(), m_clock, this);
    connect(m_events, &EventsController::eventSelected, m_detail, &DetailController::showEvent);
    m_deadLetters = new DeadLettersController(session, w->deadLettersPage(), this);
    connect(m_deadLetters, &DeadLettersController::openEvents, this, [this](const EventFilter &f) {
        m_window->showPage(MainWindow::EventsPage);
        m_events->applyFilter(f);
    });
    connect(m_detail, &DetailController::keySearchRequested, this, [this](const QString &search) {
        EventFilter f;
        f.search = search;
        m_window->showPage(MainWindow::EventsPage);
        m_events->applyFilter(f);
    });
    m_rejections = new RejectionsController(session, w->rejectionsPage(), this);
    m_overview = new OverviewController(session, w->overview(), m_clock, this);
    const Permissions can = session->permissions();
    m_replay = new ReplayController(session, w, this);
    connect(m_events, &EventsController::replayDeliveriesRequested, m_replay,
        &ReplayController::replayDeliveries);
    connect(m_events, &EventsController::replayFilterRequested, m_replay, &ReplayController::replayFilter);
    connect(
        m_deadLetters, &DeadLettersController::replayRequested, m_replay, &ReplayController::replayFilter);
    connect(m_detail, &DetailController::replayDeliveryRequested, m_replay,
        [this](qint64 id) { m_replay->replayDeliveries({ id }); });
    connect(m_replay, &ReplayController::requested, this, [this](qint64 id, const QString &status) {
        m_window->statusBar()->showMessage(status == u"pending_approval"
                ? QStringLiteral("Replay #%1 requested; it waits for an operator's approval.").arg(id)
                : QStringLiteral("Replay #%1 requested (%2).").arg(id).arg(status),
            30'000);
        if (m_detail)
            m_detail->reload();
    });
    m_approvals = new ApprovalsController(session, w->approvalsPage(), m_clock, this);
    w->statusBar()->addPermanentWidget(m_approvals->statusNote());
    connect(m_approvals, &ApprovalsController::pendingCountChanged, this, [this](int n) {
        m_window->setPageTitle(MainWindow::ApprovalsPage,
            n > 0 ? QStringLiteral("&Approvals (%1)").arg(n) : QStringLiteral("&Approvals"));
    });
    m_audit = new AuditController(session, w->auditPage(), m_settings, m_clock, this);
    w->setPageAvailable(MainWindow::ApprovalsPage, session->admin() && can.approve);
    w->setPageAvailable(MainWindow::AuditPage, can.readAudit);
    m_destinations = new DestinationsController(session, w->destinationsPage(), m_clock, this);
    connect(m_destinations, &DestinationsController::pausedChanged, this,
        [this](const QString &name, bool paused) {
            m_window->statusBar()->showMessage(paused
                    ? QStringLiteral("%1 paused: its deliveries wait until it is resumed.").arg(name)
                    : QStringLiteral("%1 resumed.").arg(name),
                30'000);
        });
    m_receivers
        = new ReceiverHealthController(session, w->receiverWarning(), w->receiverStatus(), m_clock, this);
    m_replays = new ReplaysController(session, w->replaysPage(), this);
    w->setPageAvailable(MainWindow::ReplaysPage, session->admin() && can.readReplays);
    connect(m_replays, &ReplaysController::openEvent, this, [this](qint64 eventId, qint64 replayId) {
        m_window->showPage(MainWindow::EventsPage);
        m_detail->showEventAttempt(eventId, replayId);
    });
    connect(m_replay, &ReplayController::requested, this, [this](qint64 id, const QString &) {
        if (!m_window->isPageAvailable(MainWindow::ReplaysPage))
            return;
        m_window->showPage(MainWindow::ReplaysPage);
        m_replays->showReplay(id);
    });
    m_refresh->start();
    w->showPage(MainWindow::EventsPage);
    refreshVisiblePage();
    Q_EMIT sessionStarted();
}

void ConsoleController::disconnectSession()
{
    m_refresh->stop();
    // Controllers first (they hold pointers into the session), then the session and its threads.
    delete m_events;
    delete m_detail;
    delete m_deadLetters;
    delete m_rejections;
    delete m_overview;
    delete m_replay;
    delete m_approvals;
    delete m_audit;
    delete m_destinations;
    delete m_receivers;
    delete m_replays;
    m_replays = nullptr;
    m_destinations = nullptr;
    m_receivers = nullptr;
    m_replay = nullptr;
    m_approvals = nullptr;
    m_audit = nullptr;
    m_events = nullptr;
    m_detail = nullptr;
    m_deadLetters = nullptr;
    m_rejections = nullptr;
    m_overview = nullptr;
    delete m_session.data();
    if (m_window) {
        m_window->setPageTitle(MainWindow::ApprovalsPage, QStringLiteral("&Approvals"));
        m_window->detail()->showEmpty();
        m_window->setConnected(false);
        m_window->setWindowTitle(QStringLiteral("Redrive"));
    }
}

void ConsoleController::refreshVisiblePage()
{
    if (!m_session)
        return;
    // Receiver health shows on every page.
    m_receivers->refresh();
    switch (m_window->currentPage()) {
    case MainWindow::OverviewPage:
        m_overview->refresh();
        break;
    case MainWindow::DeadLettersPage:
        m_deadLetters->refresh();
        break;
    case MainWindow::ApprovalsPage:
        m_approvals->refresh();
        break;
    case MainWindow::AuditPage:
        m_audit->refresh(); // new entries and the chain status, every time
        break;
    case MainWindow::RejectionsPage:
        if (m_rejections->model()->rowCount() == 0)
            m_rejections->refresh();
        break;
    case MainWindow::DestinationsPage:
        m_destinations->refresh();
        break;
    case MainWindow::ReplaysPage:
        m_replays->refresh();
        break;
    default:
        break;
    }
}

} // namespace redrive::ui
