// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#pragma once

#include "common/dbexecutor.h"
#include "query/opsstats.h"

#include <QAbstractTableModel>

namespace redrive::ui {

// The receiver's rejected requests, newest first, fetched in keyset pages as the view scrolls
// (the table is bounded by the receiver, but still read lazily).
class RejectionModel final : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column {
        ReceivedColumn,
        SourceColumn,
        StatusColumn,
        ReasonColumn,
        DetailColumn,
        RemoteColumn,
        ColumnCount
    };
    enum Role { RejectionIdRole = Qt::UserRole };
    static constexpr int kPageSize = 200;

    explicit RejectionModel(DbExecutor *executor, QObject *parent = nullptr);

    void reload();
    [[nodiscard]] const RejectionRow *rejectionAt(const QModelIndex &index) const;

    [[nodiscard]] int rowCount(const QModelIndex &parent = {}) const override;
    [[nodiscard]] int columnCount(const QModelIndex &parent = {}) const override;
    [[nodiscard]] QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    [[nodiscard]] QVariant headerData(
        int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;
    [[nodiscard]] bool canFetchMore(const QModelIndex &parent) const override;
    void fetchMore(const QModelIndex &parent) override;

Q_SIGNALS:
    void loaded();
    void loadFailed(const QString &error);

private:
    void fetch(qint64 beforeId);
    DbExecutor *m_executor;
    Generation m_generation;
    QList<RejectionRow> m_rows;
    bool m_fetching = false;
    bool m_done = false;
};

} // namespace redrive::ui
