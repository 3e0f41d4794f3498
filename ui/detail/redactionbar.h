// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#pragma once

#include "query/eventdetail.h"

#include <QWidget>

class QLabel;
class QPushButton;

namespace redrive::ui {

// Above the payload of an event whose source redacts values: which paths show "[redacted]" and,
// for the roles that may (operators, auditors), "Reveal original…", which asks for a reason and
// shows the original only in its dialog (RevealDialog). Hidden when nothing was redacted.
class RedactionBar final : public QWidget {
    Q_OBJECT
public:
    explicit RedactionBar(QWidget *parent = nullptr);

    void showRedaction(const EventDetail &detail);
    void setCanReveal(bool can);

Q_SIGNALS:
    void revealRequested(qint64 eventId);

private:
    qint64 m_eventId = 0;
    bool m_canReveal = false;
    QLabel *m_text;
    QPushButton *m_reveal;
};

} // namespace redrive::ui
