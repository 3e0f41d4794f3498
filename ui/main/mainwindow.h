// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#pragma once

#include <QMainWindow>
#include <QStringList>

#include <optional>

class QLabel;
class QSplitter;
class QTabWidget;

namespace redrive::ui {

class ApprovalsView;
class AuditView;
class DeadLettersView;
class DestinationsView;
class EnvironmentBanner;
class EventDetailView;
class EventsView;
class LinkBanner;
class OverviewView;
class ReconcileView;
class RejectionsView;
class ReplaysView;
class WarningBanner;

// Lays out the console and says what the user wants; it decides nothing. It creates every page's
// passive view, which a controller drives (docs/architecture.md, "How a page is built"). Every
// page has a shortcut (Ctrl+1 … Ctrl+9), Ctrl+F searches events, F5 refreshes.
class MainWindow final : public QMainWindow {
    Q_OBJECT
public:
    enum Page {
        OverviewPage,
        EventsPage,
        DeadLettersPage,
        RejectionsPage,
        ReplaysPage,
        ApprovalsPage,
        AuditPage,
        DestinationsPage,
        ReconciliationPage,
        PageCount
    };

    explicit MainWindow(QWidget *parent = nullptr);

    // The pages' names on the command line (`redrive --page approvals`), in page order.
    static QStringList pageNames();
    static std::optional<Page> pageFromName(const QString &name);

    [[nodiscard]] EnvironmentBanner *banner() const { return m_banner; }
    [[nodiscard]] OverviewView *overview() const { return m_overview; }
    [[nodiscard]] EventsView *events() const { return m_events; }
    [[nodiscard]] EventDetailView *detail() const { return m_detail; }
    [[nodiscard]] DeadLettersView *deadLettersPage() const { return m_deadLetters; }
    [[nodiscard]] RejectionsView *rejectionsPage() const { return m_rejections; }
    [[nodiscard]] ReplaysView *replaysPage() const { return m_replays; }
    [[nodiscard]] ApprovalsView *approvalsPage() const { return m_approvals; }
    [[nodiscard]] AuditView *auditPage() const { return m_audit; }
    [[nodiscard]] DestinationsView *destinationsPage() const { return m_destinations; }
    [[nodiscard]] ReconcileView *reconciliationPage() const { return m_reconciliation; }
    // Receiver health: warnings under the environment banner, the receivers in the status bar.
    [[nodiscard]] WarningBanner *receiverWarning() const { return m_receiverWarning; }
    [[nodiscard]] QLabel *receiverStatus() const { return m_receiverStatus; }
    // A PostgreSQL hot standby: its lag in the status bar, too much lag in an amber banner.
    [[nodiscard]] WarningBanner *replicaWarning() const { return m_replicaWarning; }
    [[nodiscard]] QLabel *replicaStatus() const { return m_replicaStatus; }
    // The database cannot be reached: since when, and that the pages are stale meanwhile.
    [[nodiscard]] WarningBanner *databaseWarning() const { return m_databaseWarning; }
    // What became of a redrive:// link that could not simply be shown (ui/links).
    [[nodiscard]] LinkBanner *linkBanner() const { return m_linkBanner; }
    // "3 replay requests wait for your approval", in the status bar; hidden while none wait.
    [[nodiscard]] QLabel *approvalsNote() const { return m_approvalsNote; }
    // Pages a role cannot use are not shown (and their shortcuts do nothing).
    void setPageAvailable(Page page, bool available);
    [[nodiscard]] bool isPageAvailable(Page page) const;
    [[nodiscard]] Page currentPage() const;
    void showPage(Page page);
    // A count after the tab's title, e.g. "&Approvals (3)"; 0 shows the title alone.
    void setPageCount(Page page, int count);

    // Window geometry and the events page's split, as one value a profile keeps (QSettings).
    // Restoring a state from another screen or version keeps what is there and says false.
    [[nodiscard]] QByteArray layoutState() const;
    bool restoreLayoutState(const QByteArray &state);

    void setIdentity(const QString &text);
    void setConnectionText(const QString &text);
    void setConnected(bool connected);

Q_SIGNALS:
    void connectRequested();
    void disconnectRequested();
    void findRequested();
    void refreshRequested();
    void pageChanged(redrive::ui::MainWindow::Page page);
    void utcTimesToggled(bool utc);

protected:
    void resizeEvent(QResizeEvent *event) override;

private:
    // The tab's title with its mnemonic ("&Approvals").
    [[nodiscard]] static QString pageTitle(Page page);

    EnvironmentBanner *m_banner;
    WarningBanner *m_receiverWarning;
    QTabWidget *m_pages;
    OverviewView *m_overview;
    EventsView *m_events;
    EventDetailView *m_detail;
    QSplitter *m_eventsSplit;
    DeadLettersView *m_deadLetters;
    RejectionsView *m_rejections;
    ReplaysView *m_replays;
    ApprovalsView *m_approvals;
    AuditView *m_audit;
    DestinationsView *m_destinations;
    ReconcileView *m_reconciliation;
    QLabel *m_receiverStatus;
    QLabel *m_identity;
    QLabel *m_connection;
    QAction *m_disconnect;
    WarningBanner *m_replicaWarning;
    QLabel *m_replicaStatus;
    WarningBanner *m_databaseWarning;
    LinkBanner *m_linkBanner;
    QLabel *m_approvalsNote;
};

} // namespace redrive::ui
