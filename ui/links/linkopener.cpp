// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#include "linkopener.h"

#include "connection/connectiondialog.h"
#include "connection/connectionprofile.h"
#include "connection/session.h"
#include "destinations/destinationscontroller.h"
#include "detail/detailcontroller.h"
#include "events/eventsview.h"
#include "incidents/incidentscontroller.h"
#include "links/linkbanner.h"
#include "main/consolecontroller.h"
#include "main/mainwindow.h"
#include "replays/replayhistorycontroller.h"
#include "replays/replaylistmodel.h"

#include <QTableView>

namespace redrive::ui {

LinkOpener::LinkOpener(ConsoleController &console, QObject *parent)
    : QObject(parent)
    , m_console(console)
{
    // Queued: the session's pages are all wired (and its first page shown) before the link's.
    connect(
        &m_console, &ConsoleController::sessionStarted, this,
        [this] {
            if (m_pending)
                open(*m_pending);
        },
        Qt::QueuedConnection);
    connect(m_console.window()->linkBanner(), &LinkBanner::switchRequested, this, &LinkOpener::switchProfile);
}

QString LinkOpener::what(const ConsoleLink &link) const
{
    switch (link.target) {
    case LinkTarget::Event:
        return tr("event %1").arg(link.id);
    case LinkTarget::Incident:
        return tr("incident #%1").arg(link.id);
    case LinkTarget::Replay:
        return tr("replay #%1").arg(link.id);
    case LinkTarget::Destination:
        return tr("destination %1").arg(link.id);
    }
    return link.id;
}

void LinkOpener::raiseWindow()
{
    MainWindow *w = m_console.window();
    w->setWindowState((w->windowState() & ~Qt::WindowMinimized) | Qt::WindowActive);
    w->show();
    w->raise();
    w->activateWindow();
}

// NOLINTNEXTLINE(performance-unnecessary-value-param): a copy, it may be the pending link it replaces
void LinkOpener::open(ConsoleLink link)
{
    disconnect(m_wait); // a newer link replaces the wish of an older one
    disconnect(m_waitMissing);
    m_mismatch.reset();
    raiseWindow();
    LinkBanner *banner = m_console.window()->linkBanner();
    const Session *session = m_console.session();
    const bool known = link.profile.isEmpty() || m_console.profiles().names().contains(link.profile);
    if (!session) {
        m_pending = link;
        if (m_console.connectionDialog() && m_console.connectionDialog()->isVisible()) {
            // The person is choosing or connecting already: the link waits, it does not take over.
            banner->showMessage(link.profile.isEmpty()
                    ? tr("Opens %1 once connected.").arg(what(link))
                    : tr("Opens %1 once connected with profile %2.").arg(what(link), link.profile));
        } else if (!known) {
            banner->showMessage(
                tr("The link to %1 names the profile \"%2\", which this console does not have. "
                   "Connect with the profile of that receiver to open it.")
                    .arg(what(link), link.profile));
            m_console.showConnectionDialog();
        } else if (link.profile.isEmpty()) {
            banner->showMessage(tr("Connect to open %1.").arg(what(link)));
            m_console.showConnectionDialog();
        } else {
            banner->showMessage(tr("Connecting with profile %1 to open %2…").arg(link.profile, what(link)));
            m_console.showConnectionDialog(link.profile, true);
        }
        return;
    }
    const QString current = session->profile().name;
    if (!link.profile.isEmpty() && link.profile != current) {
        // Not shown under the wrong receiver's data: the same id there is another thing.
        m_pending.reset();
        m_mismatch = link;
        if (known)
            banner->showMessage(tr("The link to %1 is for profile %2, but the console is connected with %3; "
                                   "it was not opened here.")
                                    .arg(what(link), link.profile, current),
                tr("Switch to %1").arg(link.profile));
        else
            banner->showMessage(tr("The link to %1 is for profile \"%2\", which this console does not have "
                                   "(it is connected with %3); it was not opened here.")
                                    .arg(what(link), link.profile, current));
        return;
    }
    m_pending.reset();
    banner->clear();
    navigate(link);
}

void LinkOpener::openWhenConnected(const ConsoleLink &link)
{
    if (m_console.session()) {
        open(link);
        return;
    }
    m_pending = link;
    m_console.window()->linkBanner()->showMessage(tr("Opens %1 once connected.").arg(what(link)));
}

void LinkOpener::switchProfile()
{
    if (!m_mismatch)
        return;
    const ConsoleLink link = *m_mismatch;
    m_mismatch.reset();
    m_console.disconnectSession();
    open(link); // not connected now: connects with the link's profile, then opens it
}

void LinkOpener::finish(const ConsoleLink &link, bool found, const QString &missingText)
{
    disconnect(m_wait);
    disconnect(m_waitMissing);
    if (!found)
        m_console.window()->linkBanner()->showMessage(missingText);
    Q_EMIT opened(link, found);
}

void LinkOpener::navigate(const ConsoleLink &link)
{
    MainWindow *w = m_console.window();
    const QString profile = m_console.session()->profile().name;
    switch (link.target) {
    case LinkTarget::Event: {
        DetailController *detail = m_console.detail();
        const qint64 id = link.number();
        w->showPage(MainWindow::EventsPage);
        // The list's highlight would name another event than the detail shows: none is highlighted.
        w->events()->table()->setCurrentIndex(QModelIndex());
        w->events()->table()->clearSelection();
        m_wait = connect(detail, &DetailController::loaded, this, [this, link, id](qint64 loaded) {
            if (loaded == id)
                finish(link, true, QString());
        });
        m_waitMissing
            = connect(detail, &DetailController::missing, this, [this, link, id, profile](qint64 missing) {
                  if (missing == id)
                      finish(link, false,
                          tr("Event %1 is not in this receiver's database (profile %2).")
                              .arg(link.id, profile));
              });
        detail->showEvent(id);
        break;
    }
    case LinkTarget::Incident: {
        IncidentsController *incidents = m_console.incidents();
        w->showPage(MainWindow::DeadLettersPage);
        m_wait = connect(incidents, &IncidentsController::incidentShown, this,
            [this, link, profile](qint64 id, bool found) {
                if (id == link.number())
                    finish(link, found,
                        tr("Incident #%1 is not open in this receiver's database (profile %2): it was "
                           "resolved, or never opened there.")
                            .arg(link.id, profile));
            });
        incidents->showIncident(link.number());
        break;
    }
    case LinkTarget::Replay: {
        if (!w->isPageAvailable(MainWindow::ReplaysPage)) {
            finish(link, false,
                tr("Replay #%1 cannot be shown: replay requests are read through the admin API, and this "
                   "profile (%2) has none or its role may not read them.")
                    .arg(link.id, profile));
            break;
        }
        ReplayHistoryController *replays = m_console.replayHistory();
        const qint64 before = replays->currentReplayId();
        w->showPage(MainWindow::ReplaysPage);
        m_wait = connect(
            replays, &ReplayHistoryController::refreshed, this, [this, link, profile, replays, before] {
                if (replays->currentReplayId() == link.number()) {
                    finish(link, true, QString());
                    return;
                }
                if (before > 0)
                    replays->showReplay(before); // what was shown stays, and the link's id is not awaited
                if (replays->model()->canFetchMore({}))
                    finish(link, false,
                        tr("Replay #%1 is not among the newest replay requests of this receiver (profile %2); "
                           "scroll the list for older ones.")
                            .arg(link.id, profile));
                else
                    finish(link, false,
                        tr("Replay #%1 is not in this receiver's database (profile %2).")
                            .arg(link.id, profile));
            });
        replays->showReplay(link.number());
        break;
    }
    case LinkTarget::Destination: {
        DestinationsController *destinations = m_console.destinations();
        w->showPage(MainWindow::DestinationsPage);
        m_wait = connect(destinations, &DestinationsController::destinationShown, this,
            [this, link, profile](const QString &name, bool found) {
                if (name == link.id)
                    finish(link, found,
                        tr("Destination %1 is not known to this receiver (profile %2).")
                            .arg(link.id, profile));
            });
        destinations->showDestination(link.id);
        break;
    }
    }
}

} // namespace redrive::ui
