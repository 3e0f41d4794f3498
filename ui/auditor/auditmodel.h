// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#pragma once

#include "audit/auditentry.h"
#include "audit/auditlog.h"
#include "common/keysetlistmodel.h"

namespace redrive::ui {

// The audit log, oldest first, read from the database in seq order as the view scrolls, with
// the filters of core's AuditQuery. New entries are appended by fetchNewer() without moving
// the view; a new filter reloads.
class AuditModel final : public KeysetListModel<audit::AuditEntry> {
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

    // The filters (afterSeq and limit are ignored); reloads.
    void setFilter(const audit::AuditQuery &filter);
    [[nodiscard]] const audit::AuditQuery &filter() const { return m_filter; }
    [[nodiscard]] const audit::AuditEntry *entryAt(const QModelIndex &index) const { return rowAt(index); }
    // Marks the entry the verifier found wrong and those after it (0 clears).
    void setFirstBadSeq(qint64 seq);
    [[nodiscard]] qint64 firstBadSeq() const { return m_badSeq; }

private:
    [[nodiscard]] QVariant rowData(const audit::AuditEntry &e, int column, int role) const override;

    [[nodiscard]] PageQuery pageAfter(const audit::AuditEntry *last, int limit) const override;
    audit::AuditQuery m_filter;
    qint64 m_badSeq = 0;
};

} // namespace redrive::ui
