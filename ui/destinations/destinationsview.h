// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#pragma once

#include "common/tablepage.h"

class QPushButton;

namespace redrive::ui {

// The Destinations page, passive: a status line, the destinations' table and Pause / Resume
// buttons that name the selected destination. DestinationsController decides what it shows.
class DestinationsView final : public TablePage {
    Q_OBJECT
public:
    explicit DestinationsView(QWidget *parent = nullptr);

    // Whether the role may pause and resume at all: actions it cannot take are not offered.
    void setActionsAllowed(bool allowed);
    // The selected destination (empty: none) and which of the two it can take now.
    void setSelectedDestination(
        const QString &name, bool canPause, bool canResume, bool canCloseCircuit = false);
    // After the first fill: the columns fit what they show, the state column "Paused" too.
    void fitColumns();

Q_SIGNALS:
    void pauseRequested();
    void resumeRequested();
    void closeCircuitRequested();

private:
    QPushButton *m_pause;
    QPushButton *m_resume;
    QPushButton *m_closeCircuit;
};

} // namespace redrive::ui
