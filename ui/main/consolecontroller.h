// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#pragma once

#include "main/mainwindow.h"

#include <QObject>
#include <QPointer>

#include <memory>

class QSettings;
class QTimer;

namespace redrive {
class Clock;
class SecretStore;
} // namespace redrive

namespace redrive::ui {

class ApprovalsController;
class AuditController;
class ConnectionDialog;
class DatabaseWatch;
class DeadLettersController;
class DestinationsController;
class DetailController;
class EventsController;
class IncidentsController;
class Notifier;
class OverviewController;
class ProfileStore;
class ReceiverHealthController;
class ReconcileController;
class RejectionsController;
class NewReplayController;
class ResolveController;
class ReplayHistoryController;
class Session;
struct SessionControllers;

// Wires the console together: the connection dialog, the session, and one controller per page.
// Owns the main window. Everything it depends on from outside (settings, keychain, clock) is
// injected, so tests run it against fixtures.
class ConsoleController final : public QObject {
    Q_OBJECT
public:
    ConsoleController(
        QSettings &settings, SecretStore &secrets, const Clock &clock, QObject *parent = nullptr);
    ~ConsoleController() override;

    [[nodiscard]] MainWindow *window() const { return m_window.get(); }
    [[nodiscard]] Session *session() const;
    [[nodiscard]] EventsController *events() const;
    [[nodiscard]] DetailController *detail() const;
    [[nodiscard]] DeadLettersController *deadLetters() const;
    [[nodiscard]] RejectionsController *rejections() const;
    [[nodiscard]] OverviewController *overview() const;
    [[nodiscard]] NewReplayController *newReplay() const;
    [[nodiscard]] ResolveController *resolve() const;
    [[nodiscard]] ApprovalsController *approvals() const;
    [[nodiscard]] AuditController *audit() const;
    [[nodiscard]] DestinationsController *destinations() const;
    [[nodiscard]] ReceiverHealthController *receivers() const;
    [[nodiscard]] ConnectionDialog *connectionDialog() const;
    [[nodiscard]] ReplayHistoryController *replayHistory() const;
    [[nodiscard]] IncidentsController *incidents() const;
    [[nodiscard]] ReconcileController *reconcile() const;
    // Where incident notifications go (default: the desktop). Not owned; set before connecting.
    void setNotifier(Notifier *notifier);
    [[nodiscard]] DatabaseWatch *database() const;
    // The saved connection profiles (names, settings; never secrets).
    [[nodiscard]] ProfileStore &profiles() const { return *m_profiles; }

    // Opens the connection dialog (non-blocking), preselecting `profile` when given; with
    // `connectNow` it starts connecting at once (the dialog stays to show progress or a failure).
    void showConnectionDialog(const QString &profile = {}, bool connectNow = false);
    // How often the visible page is read again in the background (default 10 s), as the
    // controllers' setPollInterval for their own timers.
    void setRefreshInterval(int ms);
    void adoptSession(Session *session);
    void disconnectSession();

Q_SIGNALS:
    void sessionStarted();

private:
    void refreshVisiblePage();

    QSettings &m_settings;
    SecretStore &m_secrets;
    const Clock &m_clock;
    std::unique_ptr<ProfileStore> m_profiles;
    std::unique_ptr<MainWindow> m_window;
    QPointer<ConnectionDialog> m_dialog;
    // The session and the controllers of its pages, created together when a session starts and
    // destroyed together (controllers first, then the session) when it ends.
    std::unique_ptr<SessionControllers> m_s;
    QTimer *m_refresh;
    std::unique_ptr<Notifier> m_desktopNotifier;
    Notifier *m_notifier = nullptr;
};

} // namespace redrive::ui
