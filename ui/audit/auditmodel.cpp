// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#include "auditmodel.h"

#include "audit/auditlog.h"
#include "common/timeformat.h"

#include <QColor>

namespace redrive::ui {

AuditModel::AuditModel(DbExecutor *executor, QObject *parent)
    : QAbstractTableModel(parent)
    , m_executor(executor)
{ }

void AuditModel::reload()
{
    m_generation.advance();
    beginResetModel();
    m_entries.clear();
    m_done = false;
    m_fetching = false;
    endResetModel();
    fetch(0);
}

void AuditModel::fetch(qint64 afterSeq)
{
    m_fetching = true;
    struct Answer {
        QList<audit::AuditEntry> entries;
        QString error;
    };
    m_executor->submit(
        this, &m_generation,
        [afterSeq](Db &db) {
            Answer a;
            audit::AuditQuery q;
            q.afterSeq = afterSeq;
            q.limit = kPageSize;
            audit::readAuditEntries(db, q, &a.entries, &a.error);
            return a;
        },
        [this](Answer a) {
            m_fetching = false;
            if (!a.error.isEmpty()) {
                m_done = true;
                Q_EMIT loadFailed(a.error);
                return;
            }
            m_done = a.entries.size() < kPageSize;
            if (!a.entries.isEmpty()) {
                beginInsertRows({}, int(m_entries.size()), int(m_entries.size() + a.entries.size()) - 1);
                m_entries.append(a.entries);
                endInsertRows();
            }
            Q_EMIT loaded();
        });
}

const audit::AuditEntry *AuditModel::entryAt(const QModelIndex &index) const
{
    return index.isValid() && index.row() < m_entries.size() ? &m_entries[index.row()] : nullptr;
}

void AuditModel::setFirstBadSeq(qint64 seq)
{
    m_badSeq = seq;
    if (!m_entries.isEmpty())
        Q_EMIT dataChanged(index(0, 0), index(int(m_entries.size()) - 1, ColumnCount - 1));
}

int AuditModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_entries.size());
}

int AuditModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

bool AuditModel::canFetchMore(const QModelIndex &parent) const
{
    return !parent.isValid() && !m_done && !m_fetching && !m_entries.isEmpty();
}

void AuditModel::fetchMore(const QModelIndex &parent)
{
    if (canFetchMore(parent))
        fetch(m_entries.last().seq);
}

QVariant AuditModel::data(const QModelIndex &index, int role) const
{
    const audit::AuditEntry *e = entryAt(index);
    if (!e)
        return {};
    switch (role) {
    case SeqRole:
        return e->seq;
    case Qt::BackgroundRole:
        return m_badSeq > 0 && e->seq >= m_badSeq ? QVariant(QColor(0xfa, 0xd4, 0xd4)) : QVariant();
    case Qt::ToolTipRole:
        if (index.column() == AtColumn)
            return TimeFormat::tooltip(e->atMs);
        return e->details;
    case Qt::DisplayRole:
        switch (index.column()) {
        case SeqColumn:
            return e->seq;
        case AtColumn:
            return TimeFormat::display(e->atMs);
        case ActorColumn:
            return e->actor;
        case RoleColumn:
            return e->role;
        case ActionColumn:
            return e->action;
        case TargetColumn:
            return e->target;
        case ReasonColumn:
            return e->reason;
        case HashColumn:
            return e->hash.left(16);
        default:
            return {};
        }
    default:
        return {};
    }
}

QVariant AuditModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    static const char *const names[]
        = { "Seq", "When", "Actor", "Role", "Action", "Target", "Reason", "Hash" };
    return section >= 0 && section < ColumnCount ? QVariant(QLatin1String(names[section])) : QVariant();
}

} // namespace redrive::ui
