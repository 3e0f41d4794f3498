// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#pragma once

#include "common/dbexecutor.h"

#include <QList>
#include <QObject>

#include <optional>

class QTableView;

namespace redrive {
class Clock;
}

namespace redrive::ui {

class DestinationModel;
class DestinationsView;
class Session;

// Drives the destinations page (DestinationsView): state and health per destination, read on the
// stats thread while the page is visible. Administrators get Pause / Resume buttons naming the destination;
// the action asks for a reason through the Prompter, goes through the admin API, then re-reads.
class DestinationsController final : public QObject {
    Q_OBJECT
public:
    DestinationsController(
        Session *session, DestinationsView *view, const Clock &clock, QObject *parent = nullptr);
    [[nodiscard]] DestinationModel *model() const { return m_model; }
    void refresh();
    // Selects destination `name` when the next read lists it; `destinationShown` says whether it did.
    void showDestination(const QString &name);
    // The ends the pause prompt offers, in its order: none (until resumed), in 1 hour, in 4
    // hours, at the next 06:00 local time.
    [[nodiscard]] static QList<std::optional<qint64>> pauseEnds(qint64 nowMs);

Q_SIGNALS:
    void refreshed();
    void pausedChanged(const QString &name, bool paused);
    void destinationShown(const QString &name, bool found);

private:
    void updateButtons();
    void setPaused(bool pause);
    void closeCircuit();

    Session *m_session;
    const Clock &m_clock;
    DestinationsView *m_view;
    DestinationModel *m_model;
    QTableView *m_table;
    bool m_canManage;
    Generation m_generation;
    RefreshGate m_gate; // asked again while busy: what changed meanwhile is read right after
    // The user's last pause or resume, unconfirmed (its line, its destination, which of the two):
    // kept on the summary until they act again or a read shows the destination in that state.
    QString m_unconfirmed;
    QString m_unconfirmedName;
    bool m_unconfirmedPause = false;
    QString m_wanted; // showDestination's, until a read answers
};

} // namespace redrive::ui
