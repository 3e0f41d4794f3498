// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#include "rejectionmodel.h"

#include "common/plaintooltip.h"
#include "common/timeformat.h"

namespace redrive::ui {

RejectionModel::RejectionModel(DbExecutor *executor, QObject *parent)
    : KeysetListModel(executor, kPageSize, parent)
{
    static constexpr ColumnHeader columns[]
        = { { QT_TR_NOOP("Received") }, { QT_TR_NOOP("Source") }, { QT_TR_NOOP("Answer") },
              { QT_TR_NOOP("Reason") }, { QT_TR_NOOP("Detail") }, { QT_TR_NOOP("From") } };
    static_assert(std::size(columns) == ColumnCount);
    setColumns(columns);
}

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

QVariant RejectionModel::rowData(const RejectionRow &r, int column, int role) const
{
    if (role == RejectionIdRole)
        return r.id;
    if (role == Qt::ToolTipRole) {
        if (column == ReceivedColumn)
            return TimeFormat::tooltip(r.receivedAt);
        if (column == DetailColumn || column == ReasonColumn)
            return plainToolTip(r.detail);
        return {};
    }
    if (role != Qt::DisplayRole)
        return {};
    switch (column) {
    case ReceivedColumn:
        return TimeFormat::display(r.receivedAt);
    case SourceColumn:
        return r.source;
    case StatusColumn:
        return r.statusCode;
    case ReasonColumn:
        return r.reason;
    case DetailColumn:
        return r.detail;
    case RemoteColumn:
        return r.remoteAddr;
    default:
        return {};
    }
}

} // namespace redrive::ui
