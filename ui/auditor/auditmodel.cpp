// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#include "auditmodel.h"

#include "common/plaintooltip.h"
#include "common/statuspalette.h"
#include "common/timeformat.h"

#include <QColor>

namespace redrive::ui {

AuditModel::AuditModel(DbExecutor *executor, QObject *parent)
    : KeysetListModel(executor, kPageSize, parent)
{
    static constexpr ColumnHeader columns[] = { { QT_TR_NOOP("Seq") }, { QT_TR_NOOP("When") },
        { QT_TR_NOOP("Actor") }, { QT_TR_NOOP("Role") }, { QT_TR_NOOP("Action") }, { QT_TR_NOOP("Target") },
        { QT_TR_NOOP("Reason") }, { QT_TR_NOOP("Hash") } };
    static_assert(std::size(columns) == ColumnCount);
    setColumns(columns);
}

void AuditModel::setFilter(const audit::AuditQuery &filter)
{
    m_filter = filter;
    reload();
}

AuditModel::PageQuery AuditModel::pageAfter(const audit::AuditEntry *last, int limit) const
{
    audit::AuditQuery q = m_filter;
    q.afterSeq = last ? last->seq : 0;
    q.limit = limit;
    return [q](Db &db, QList<audit::AuditEntry> *rows, QString *error) {
        auto read = audit::readAuditEntries(db, q);
        if (!read) {
            *error = read.error();
            return false;
        }
        *rows += std::move(*read);
        return true;
    };
}

void AuditModel::setFirstBadSeq(qint64 seq)
{
    if (seq == m_badSeq)
        return;
    m_badSeq = seq;
    if (rowCount() > 0)
        Q_EMIT dataChanged(index(0, 0), index(rowCount() - 1, ColumnCount - 1), { Qt::BackgroundRole });
}

QVariant AuditModel::rowData(const audit::AuditEntry &e, int column, int role) const
{
    switch (role) {
    case SeqRole:
        return e.seq;
    case Qt::BackgroundRole:
        return m_badSeq > 0 && e.seq >= m_badSeq ? QVariant(toneBackground(Tone::Bad)) : QVariant();
    case Qt::ToolTipRole:
        if (column == AtColumn)
            return TimeFormat::tooltip(e.atMs);
        return plainToolTip(e.details);
    case Qt::DisplayRole:
        switch (column) {
        case SeqColumn:
            return e.seq;
        case AtColumn:
            return TimeFormat::display(e.atMs);
        case ActorColumn:
            return e.actor;
        case RoleColumn:
            return e.role;
        case ActionColumn:
            return e.action;
        case TargetColumn:
            return e.target;
        case ReasonColumn:
            return e.reason;
        case HashColumn:
            return e.hash.left(16);
        default:
            return {};
        }
    default:
        return {};
    }
}

} // namespace redrive::ui
