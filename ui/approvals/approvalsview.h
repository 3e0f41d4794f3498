// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#pragma once

#include "common/tablepage.h"

class QLabel;
class QPushButton;
class QTableView;

namespace redrive::ui {

// The approvals inbox, passive: a status line, the requests waiting for a decision, and under
// them the selected request's effect in words, a note on its frozen selection and that
// selection's table; Reject… and Approve… below. ApprovalsController decides what it shows.
class ApprovalsView final : public TablePage {
    Q_OBJECT
public:
    explicit ApprovalsView(QWidget *parent = nullptr);

    [[nodiscard]] QTableView *itemsTable() const { return m_itemsTable; }
    // What the selected request would do and why it needs a second person.
    void setEffect(const QString &text);
    // How much of the frozen selection is shown, or why it is not.
    void setItemsNote(const QString &text);
    // Whether the selected request can be decided here; `why` (the buttons' tooltip) says why not.
    void setDecisionEnabled(bool enabled, const QString &why);
    void fitColumns();
    void fitItemColumns();

Q_SIGNALS:
    void approveRequested();
    void rejectRequested();

private:
    QTableView *m_itemsTable;
    QLabel *m_effect;
    QLabel *m_itemsNote;
    QPushButton *m_approve;
    QPushButton *m_reject;
};

} // namespace redrive::ui
