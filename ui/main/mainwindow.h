// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#pragma once

#include <QMainWindow>

class QLabel;
class QSplitter;
class QTabWidget;

namespace redrive::ui {

class EnvironmentBanner;
class EventDetailView;
class EventsView;
class OverviewView;

// Lays out the console and says what the user wants; it decides nothing. Controllers fill the
// pages. Every page has a shortcut (Ctrl+1 … Ctrl+4), Ctrl+F searches events, F5 refreshes.
class MainWindow final : public QMainWindow {
    Q_OBJECT
public:
    enum Page { OverviewPage, EventsPage, DeadLettersPage, RejectionsPage, ApprovalsPage, AuditPage, PageCount };

    explicit MainWindow(QWidget *parent = nullptr);

    [[nodiscard]] EnvironmentBanner *banner() const { return m_banner; }
    [[nodiscard]] OverviewView *overview() const { return m_overview; }
    [[nodiscard]] EventsView *events() const { return m_events; }
    [[nodiscard]] EventDetailView *detail() const { return m_detail; }
    [[nodiscard]] QWidget *deadLettersPage() const { return m_deadLetters; }
    [[nodiscard]] QWidget *rejectionsPage() const { return m_rejections; }
    [[nodiscard]] QWidget *approvalsPage() const { return m_approvals; }
    [[nodiscard]] QWidget *auditPage() const { return m_audit; }
    // Pages a role cannot use are not shown (and their shortcuts do nothing).
    void setPageAvailable(Page page, bool available);
    [[nodiscard]] bool isPageAvailable(Page page) const;
    [[nodiscard]] Page currentPage() const;
    void showPage(Page page);

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

private:
    EnvironmentBanner *m_banner;
    QTabWidget *m_pages;
    OverviewView *m_overview;
    EventsView *m_events;
    EventDetailView *m_detail;
    QSplitter *m_eventsSplit;
    QWidget *m_deadLetters;
    QWidget *m_rejections;
    QWidget *m_approvals;
    QWidget *m_audit;
    QLabel *m_identity;
    QLabel *m_connection;
    QAction *m_disconnect;
};

} // namespace redrive::ui
