// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#pragma once

#include "common/tablepage.h"

class QAction;
class QPushButton;

namespace redrive::ui {

// The open incidents, passive: a short table, a status line and "Acknowledge…". It sits on the
// Dead letters page (DeadLettersView keeps its place); IncidentsController decides what it shows.
class IncidentsView final : public TablePage {
    Q_OBJECT
public:
    explicit IncidentsView(QWidget *parent = nullptr);

    // Whether the role may acknowledge: shows the button and gives the table its Ctrl+K action.
    void setAcknowledgeAllowed(bool allowed);
    void setAcknowledgeEnabled(bool enabled);

Q_SIGNALS:
    void acknowledgeRequested();

private:
    QPushButton *m_acknowledge;
    QAction *m_acknowledgeAction;
};

} // namespace redrive::ui
