// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#pragma once

#include "audit/auditentry.h"
#include "common/dbexecutor.h"

#include <QAbstractTableModel>

namespace redrive::ui {

// The audit log, oldest first, read from the database in seq order as the view scrolls.
class AuditModel final : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column {
        SeqColumn,
        AtColumn,
        ActorColumn,
        RoleColumn,
        ActionColumn,
        TargetColumn,
        ReasonColumn,
        HashColumn,
        ColumnCount
    };
    enum Role { SeqRole = Qt::UserRole };
    static constexpr int kPageSize = 500;

    explicit AuditModel(DbExecutor *executor, QObject *parent = nullptr);
    void reload();
    [[nodiscard]] const audit::AuditEntry *entryAt(const QModelIndex &index) const;
    // Marks the entry the verifier found wrong (0 clears).
    void setFirstBadSeq(qint64 seq);

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
    void fetch(qint64 afterSeq);
    DbExecutor *m_executor;
    Generation m_generation;
    QList<audit::AuditEntry> m_entries;
    bool m_fetching = false;
    bool m_done = false;
    qint64 m_badSeq = 0;
};

} // namespace redrive::ui
