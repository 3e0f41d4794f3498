// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#pragma once

#include <QObject>

class QLabel;
class QPushButton;
class QTableView;
class QWidget;

namespace redrive::ui {

class ApprovalModel;
class Session;

// The approvals inbox: replay requests waiting for a second person. Approve and reject ask
// for a reason through the Prompter and go to the admin API; one's own requests cannot be
// decided here (the API refuses them too).
class ApprovalsController final : public QObject {
    Q_OBJECT
public:
    ApprovalsController(Session *session, QWidget *page, QObject *parent = nullptr);
    ~ApprovalsController() override;
    [[nodiscard]] ApprovalModel *model() const { return m_model; }
    void refresh();
    void decide(bool approve);

Q_SIGNALS:
    void refreshed();
    void decided(qint64 replayId, bool approved);

private:
    void updateButtons();

    Session *m_session;
    QWidget *m_container;
    ApprovalModel *m_model;
    QTableView *m_table;
    QLabel *m_summary;
    QPushButton *m_approve;
    QPushButton *m_reject;
};

} // namespace redrive::ui
