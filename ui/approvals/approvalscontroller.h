// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#pragma once

#include <QObject>

class QLabel;
class QTableView;
class QTimer;

namespace redrive {
class Clock;
}

namespace redrive::ui {

class ApprovalModel;
class ApprovalsView;
class ReplayItemsModel;
class Session;

// Drives the approvals inbox (ApprovalsView): replay requests waiting for a second person, each with the
// effect the requester saw and its frozen selection (browsable before deciding). Approve and reject both ask
// for a reason through the Prompter (with the environment banner) and send the request's selection hash, so
// the decision binds to what was shown; one's own requests cannot be decided here (the API refuses them too).
// The pending count is refreshed in the background, also while the page is hidden, for the tab title and the
// status bar.
class ApprovalsController final : public QObject {
    Q_OBJECT
public:
    // `statusNote` is the main window's status-bar note; it shows while requests wait.
    ApprovalsController(Session *session, ApprovalsView *view, QLabel *statusNote, const Clock &clock,
        QObject *parent = nullptr);
    [[nodiscard]] ApprovalModel *model() const { return m_model; }
    [[nodiscard]] ReplayItemsModel *items() const { return m_items; }
    // Requests waiting for someone else's decision; -1 until the first answer.
    [[nodiscard]] int pendingCount() const { return m_pendingCount; }
    // "3 replay requests wait for your approval" in the status bar.
    [[nodiscard]] QLabel *statusNote() const { return m_statusNote; }
    void setPollInterval(int ms);
    void refresh();
    void decide(bool approve);

Q_SIGNALS:
    void refreshed();
    void decided(qint64 replayId, bool approved);
    void pendingCountChanged(int count);
    void itemsLoaded(qint64 replayId);

private:
    void updateButtons();
    void currentChanged();
    void loadItems(qint64 replayId);

    Session *m_session;
    const Clock &m_clock;
    ApprovalsView *m_view;
    ApprovalModel *m_model;
    ReplayItemsModel *m_items;
    QTableView *m_table;
    QLabel *m_statusNote;
    QTimer *m_poll;
    int m_pendingCount = -1;
    bool m_refreshing = false;
    qint64 m_shownId = 0;
    // The user's last decision, unconfirmed (its line and its request): kept on the summary until
    // they decide again or a read no longer lists the request as waiting.
    QString m_unconfirmed;
    qint64 m_unconfirmedId = 0;
    quint64 m_itemsGeneration = 0;
};

} // namespace redrive::ui
