// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#pragma once

#include "common/dbexecutor.h"

#include <QObject>

class QTableView;
class QTimer;

namespace redrive {
class Clock;
}

namespace redrive::ui {

class ReconcileRunModel;
class ReconcileView;
class Session;

// Drives the Reconciliation page (ReconcileView): each source's newest reconciliation run (when, what it
// checked, what was missing and recovered, or why it failed) and the selected source's recent runs, read on
// the stats thread while the page is visible. Operators and administrators get "Run now", which
// asks the admin API to start a run (POST sources/{name}/reconcile) and then follows it until it
// finishes; other roles see the button disabled with the reason.
class ReconcileController final : public QObject {
    Q_OBJECT
public:
    ReconcileController(Session *session, ReconcileView *view, const Clock &clock, QObject *parent = nullptr);
    [[nodiscard]] ReconcileRunModel *sources() const { return m_sources; }
    [[nodiscard]] ReconcileRunModel *runs() const { return m_runs; }
    void refresh();
    // While a run shows as running, the page is read again this often (default 1 s) until none is.
    void setFollowInterval(int ms);

Q_SIGNALS:
    void refreshed();
    void runStarted(const QString &source, qint64 runId);

private:
    void updateButton();
    void runNow();
    [[nodiscard]] QString selectedSource() const;

    Session *m_session;
    const Clock &m_clock;
    ReconcileView *m_view;
    ReconcileRunModel *m_sources;
    ReconcileRunModel *m_runs;
    QTableView *m_sourceTable;
    QTimer *m_follow;
    Generation m_generation;
    RefreshGate m_gate; // asked again while busy: what changed meanwhile is read right after
    bool m_starting = false; // a Run now request is in flight
    QString m_cannotRun; // why this session may not start runs; empty when it may
};

} // namespace redrive::ui
