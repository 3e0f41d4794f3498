// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#pragma once

#include "common/dbexecutor.h"
#include "query/eventfilter.h"

#include <QObject>

class QAction;
class QSettings;
class QTimer;

namespace redrive::ui {

class EventTableModel;
class EventsView;
class SavedViews;
class Session;

// Drives the events page: owns the model, applies filters, polls for new events and changed
// statuses, keeps saved views, copies ids, and says which event the user is looking at.
class EventsController final : public QObject {
    Q_OBJECT
public:
    EventsController(Session *session, EventsView *view, QSettings &settings, QObject *parent = nullptr);
    ~EventsController() override;

    [[nodiscard]] EventTableModel *model() const { return m_model; }
    void setPollInterval(int ms);
    // Reads the list again (Refresh, F5). The event the user has open is selected again once the
    // reloaded list shows it; it is not deselected meanwhile, so the detail stays on it.
    void reload();
    void applyFilter(const EventFilter &filter); // also shows it in the filter bar
    void focusSearch();
    void copySelectedIds();
    void requestReplayOfSelection();
    // "Mark dead letters resolved…": the dead deliveries of the selected events.
    void requestResolveOfSelection();
    void pollNow();

Q_SIGNALS:
    void eventSelected(qint64 eventId); // 0 when nothing is selected
    // `deliveryIds` are proposed (not succeeded); `succeeded` the selected ones that already
    // succeeded downstream, offered in the dialog but left out by default.
    void replayDeliveriesRequested(const QList<qint64> &deliveryIds, const QList<qint64> &succeeded);
    void replayFilterRequested(const redrive::EventFilter &filter);
    void resolveDeliveriesRequested(const QList<qint64> &deliveryIds);

private:
    void updateCount();
    void selectionChanged();

    Session *m_session;
    EventsView *m_view;
    EventTableModel *m_model;
    std::unique_ptr<SavedViews> m_views;
    QTimer *m_poll;
    QAction *m_copy = nullptr;
    QAction *m_replay = nullptr;
    Generation m_facetsGeneration;
    qint64 m_selectedId = 0;
    qint64 m_reselect = 0; // the open event, to select again once reload() has its row
};

} // namespace redrive::ui
