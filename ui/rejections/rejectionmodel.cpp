// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#include "rejectionmodel.h"

#include "common/plaintooltip.h"
#include "common/timeformat.h"

namespace redrive::ui {

RejectionModel::RejectionModel(DbExecutor *executor, QObject *parent)
    : KeysetListModel(executor, kPageSize, parent)
{ }

RejectionModel::PageQuery RejectionModel::pageAfter(const RejectionRow *last, int limit) const
{
    // Newest first: the next page is the rows with a smaller id than the last one shown.
    const qint64 beforeId = last ? last->id : 0;
    return [beforeId, limit](Db &db, QList<RejectionRow> *rows, QString *error) {
        auto page = fetchRejections(db, beforeId, limit);
        if (!page) {
            *error = page.error();
            return false;
        }
        *rows = std::move(*page);
        return true;
    };
}

int RejectionModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
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
            return plainToolTip(r->detail);
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
        return tr("Received");
    case SourceColumn:
        return tr("Source");
    case StatusColumn:
        return tr("Answer");
    case ReasonColumn:
        return tr("Reason");
    case DetailColumn:
        return tr("Detail");
    case RemoteColumn:
        return tr("From");
    default:
        return {};
    }
}

} // namespace redrive::ui
