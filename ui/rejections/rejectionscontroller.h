// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#pragma once

#include <QObject>

class QLabel;
class QTableView;
class QWidget;

namespace redrive::ui {

class RejectionModel;
class Session;
class TablePage;

// The rejected-requests page: where a rotated provider secret shows up as a run of 401s.
class RejectionsController final : public QObject {
    Q_OBJECT
public:
    RejectionsController(Session *session, QWidget *page, QObject *parent = nullptr);
    ~RejectionsController() override;
    [[nodiscard]] RejectionModel *model() const { return m_model; }
    void refresh();

private:
    TablePage *m_container;
    RejectionModel *m_model;
    QTableView *m_table;
    QLabel *m_summary;
};

} // namespace redrive::ui
