// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#include "rejectionmodel.h"

#include "common/timeformat.h"

namespace redrive::ui {

RejectionModel::RejectionModel(DbExecutor *executor, QObject *parent)
    : QAbstractTableModel(parent)
    , m_executor(executor)
{ }

void RejectionModel::reload()
{
    m_generation.advance();
    beginResetModel();
    m_rows.clear();
    m_done = false;
    m_fetching = false;
    endResetModel();
    fetch(0);
}

void RejectionModel::fetch(qint64 beforeId)
{
    m_fetching = true;
    struct Answer {
        QList<RejectionRow> rows;
        QString error;
    };
    m_executor->submit(
        this, &m_generation,
        [beforeId](Db &db) {
            Answer a;
            if (auto rows = fetchRejections(db, beforeId, kPageSize, &a.error))
                a.rows = std::move(*rows);
            return a;
        },
        [this](Answer a) {
            m_fetching = false;
            if (!a.error.isEmpty()) {
                m_done = true;
                Q_EMIT loadFailed(a.error);
                return;
            }
            m_done = a.rows.size() < kPageSize;
            if (!a.rows.isEmpty()) {
                beginInsertRows({}, int(m_rows.size()), int(m_rows.size() + a.rows.size()) - 1);
                m_rows.append(a.rows);
                endInsertRows();
            }
            Q_EMIT loaded();
        });
}

const RejectionRow *RejectionModel::rejectionAt(const QModelIndex &index) const
{
    return index.isValid() && index.row() < m_rows.size() ? &m_rows[index.row()] : nullptr;
}

int RejectionModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_rows.size());
}

int RejectionModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

bool RejectionModel::canFetchMore(const QModelIndex &parent) const
{
    return !parent.isValid() && !m_done && !m_fetching && !m_rows.isEmpty();
}

void RejectionModel::fetchMore(const QModelIndex &parent)
{
    if (canFetchMore(parent))
        fetch(m_rows.last().id);
}

QVariant RejectionModel::data(const QModelIndex &index, int role) const
{
    const RejectionRow *r = rejectionAt(index);
    if (!r)
        return {};
    if (role == RejectionIdRole)
        return r->id;
    if (role == Qt::ToolTipRole) {
        if (index.column() == ReceivedColumn)
            return TimeFormat::tooltip(r->receivedAt);
        if (index.column() == DetailColumn || index.column() == ReasonColumn)
            return r->detail;
        return {};
    }
    if (role != Qt::DisplayRole)
        return {};
    switch (index.column()) {
    case ReceivedColumn:
        return TimeFormat::display(r->receivedAt);
    case SourceColumn:
        return r->source;
    case StatusColumn:
        return r->statusCode;
    case ReasonColumn:
        return r->reason;
    case DetailColumn:
        return r->detail;
    case RemoteColumn:
        return r->remoteAddr;
    default:
        return {};
    }
}

QVariant RejectionModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    switch (section) {
    case ReceivedColumn:
        return QStringLiteral("Received");
    case SourceColumn:
        return QStringLiteral("Source");
    case StatusColumn:
        return QStringLiteral("Answer");
    case ReasonColumn:
        return QStringLiteral("Reason");
    case DetailColumn:
        return QStringLiteral("Detail");
    case RemoteColumn:
        return QStringLiteral("From");
    default:
        return {};
    }
}

} // namespace redrive::ui
