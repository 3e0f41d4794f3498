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
class DeadLettersController;
class DestinationsController;
class DetailController;
class EventsController;
class OverviewController;
class ProfileStore;
class ReceiverHealthController;
class RejectionsController;
class ReplayController;
class ReplaysController;
class Session;

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
    [[nodiscard]] EventsController *events() const { return m_events; }
    [[nodiscard]] DetailController *detail() const { return m_detail; }
    [[nodiscard]] DeadLettersController *deadLetters() const { return m_deadLetters; }
    [[nodiscard]] RejectionsController *rejections() const { return m_rejections; }
    [[nodiscard]] OverviewController *overview() const { return m_overview; }
    [[nodiscard]] ReplayController *replay() const { return m_replay; }
    [[nodiscard]] ApprovalsController *approvals() const { return m_approvals; }
    [[nodiscard]] AuditController *audit() const { return m_audit; }
    [[nodiscard]] DestinationsController *destinations() const { return m_destinations; }
    [[nodiscard]] ReceiverHealthController *receivers() const { return m_receivers; }
    [[nodiscard]] ConnectionDialog *connectionDialog() const;
    [[nodiscard]] ReplaysController *replays() const { return m_replays; }

    // Opens the connection dialog (non-blocking), preselecting `profile` when given; with
    // `connectNow` it starts connecting at once (the dialog stays to show progress or a failure).
    void showConnectionDialog(const QString &profile = {}, bool connectNow = false);
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
    QPointer<Session> m_session;
    EventsController *m_events = nullptr;
    DetailController *m_detail = nullptr;
    DeadLettersController *m_deadLetters = nullptr;
    RejectionsController *m_rejections = nullptr;
    OverviewController *m_overview = nullptr;
    ReplayController *m_replay = nullptr;
    ApprovalsController *m_approvals = nullptr;
    AuditController *m_audit = nullptr;
    DestinationsController *m_destinations = nullptr;
    ReceiverHealthController *m_receivers = nullptr;
    QTimer *m_refresh;
    ReplaysController *m_replays = nullptr;
};

} // namespace redrive::ui
