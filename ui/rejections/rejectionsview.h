// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#pragma once

#include <QWidget>

class QTableView;

namespace redrive::ui {

class TablePage;

// The Rejected requests page, passive: a status line over the table of requests the receiver
// refused. RejectionsController decides what it shows.
class RejectionsView final : public QWidget {
    Q_OBJECT
public:
    explicit RejectionsView(QWidget *parent = nullptr);

    [[nodiscard]] QTableView *table() const { return m_table; }
    void setSummary(const QString &text);

private:
    TablePage *m_page;
    QTableView *m_table;
};

} // namespace redrive::ui
