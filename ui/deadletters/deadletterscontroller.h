// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#pragma once

#include "common/dbexecutor.h"
#include "query/eventfilter.h"

#include <QObject>

class QLabel;
class QTableView;
class QWidget;

namespace redrive::ui {

class DeadLetterModel;
class Session;

// The dead-letter page: groups by category × destination, refreshed while visible; opening a
// group asks for the events list filtered to it.
class DeadLettersController final : public QObject {
    Q_OBJECT
public:
    DeadLettersController(Session *session, QWidget *page, QObject *parent = nullptr);
    ~DeadLettersController() override;
    [[nodiscard]] DeadLetterModel *model() const { return m_model; }
    void refresh();

Q_SIGNALS:
    void openEvents(const redrive::EventFilter &filter);

private:
    Session *m_session;
    QWidget *m_container;
    DeadLetterModel *m_model;
    QTableView *m_table;
    QLabel *m_summary;
    Generation m_generation;
};

} // namespace redrive::ui
