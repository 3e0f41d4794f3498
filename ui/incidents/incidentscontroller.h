// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#pragma once

#include "common/dbexecutor.h"

#include <QObject>
#include <QSet>

class QSettings;
class QTableView;

namespace redrive::ui {

class IncidentModel;
class IncidentsView;
class Notifier;
class Session;

// Incidents on the Dead letters page: the open ones above the groups, "Acknowledge…" with a
// note (through the Prompter, via the admin API), a count for the page's tab, and one desktop
// notification per incident nobody has acknowledged yet. Refreshed on every console tick
// whatever page is showing, so people hear about a new incident without looking for it.
// "Once" holds across console restarts: the highest incident id announced is kept per profile
// in settings (group "incidents/<profile>", key "announcedUpTo"; an id, nothing secret), and
// incident ids only grow, so a console started later announces only incidents above it.
class IncidentsController final : public QObject {
    Q_OBJECT
public:
    // `notifier` and `settings` must outlive the controller.
    IncidentsController(Session *session, IncidentsView *view, Notifier &notifier, QSettings &settings,
        QObject *parent = nullptr);

    [[nodiscard]] IncidentModel *model() const { return m_model; }
    void refresh();
    // Selects incident `id` when the next read lists it; `incidentShown` says whether it did (only
    // open incidents are listed).
    void showIncident(qint64 id);
    // Asks for a note and acknowledges the selected incident.
    void acknowledgeSelected();
    // Open incidents that nobody has acknowledged: the badge on the Dead letters tab.
    [[nodiscard]] int attentionCount() const { return m_attention; }

Q_SIGNALS:
    void attentionCountChanged(int count);
    void acknowledged(qint64 incidentId);
    void incidentShown(qint64 incidentId, bool found);

private:
    void updateButtons();
    void announceNew();
    void rememberAnnounced(qint64 id);

    Session *m_session;
    Notifier &m_notifier;
    QSettings &m_settings;
    QString m_markKey; // where this profile's "announced up to" mark is kept
    qint64 m_announcedBefore = 0; // the mark when this controller started: announced by an earlier run
    IncidentsView *m_view;
    IncidentModel *m_model;
    QTableView *m_table;
    Generation m_generation;
    QSet<qint64> m_announced; // incidents notified by this controller: once each
    int m_attention = -1;
    bool m_busy = false;
    // The user's last acknowledgement, unconfirmed (its line and its incident): kept on the summary
    // until they act again or a read shows the incident acknowledged or closed.
    QString m_unconfirmed;
    qint64 m_unconfirmedId = 0;
    qint64 m_wanted = 0; // showIncident's, until a read answers
};

} // namespace redrive::ui
