// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#pragma once

#include <QObject>

class QModelIndex;
class QTimer;

namespace redrive::ui {

class ReplayItemsModel;
class ReplayListModel;
class ReplaysView;
class Session;

// Drives the Replays page (ReplaysView): every replay request the role can read (keyset pages from `GET
// replays`), the selected one's outcome line and its deliveries (`GET replays/{id}`). While the selected
// request is approved or executing and the page is visible, it is polled about once a second,
// never with two reads in flight. Opening a delivery asks for its event at the replay's attempt.
class ReplayHistoryController final : public QObject {
    Q_OBJECT
public:
    static constexpr int kPollIntervalMs = 1000;

    ReplayHistoryController(Session *session, ReplaysView *view, QObject *parent = nullptr);

    [[nodiscard]] ReplayListModel *model() const { return m_model; }
    [[nodiscard]] ReplayItemsModel *items() const { return m_items; }
    [[nodiscard]] qint64 currentReplayId() const;
    [[nodiscard]] bool isPolling() const;

    // Reloads the first page; the selected request stays selected.
    void refresh();
    // Selects replay `id` as soon as it is listed (a request just made is listed by the refresh
    // this starts).
    void showReplay(qint64 id);

Q_SIGNALS:
    void refreshed();
    // The selected request and its first deliveries arrived (also after each poll).
    void replayLoaded(qint64 replayId);
    void openEvent(qint64 eventId, qint64 replayId);

private:
    void currentChanged();
    void showSelected();
    void loadDetail(bool keepItems);
    void poll();
    void fetchReplays(const QString &cursor);
    void fetchItems(qint64 replayId, qint64 after);
    void selectWanted();
    void updateOutcome();
    void updatePolling();
    void updateButtons();
    void openItem(const QModelIndex &index);

    Session *m_session;
    ReplaysView *m_view;
    ReplayListModel *m_model;
    ReplayItemsModel *m_items;
    QTimer *m_poll;
    qint64 m_wanted = 0; // to select once listed
    qint64 m_shown = 0; // whose deliveries the items table holds
    quint64 m_listGeneration = 0; // answers for an older list are dropped
    quint64 m_detailGeneration = 0; // answers for a replay no longer selected are dropped
    int m_detailInFlight = 0;
    bool m_resetting = false;
};

} // namespace redrive::ui
