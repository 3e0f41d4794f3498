// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#pragma once

#include "common/rowtablemodel.h"
#include "replays/replayitem.h"

namespace redrive::ui {

// The status in words ("waiting for approval"); the receiver's name when unknown.
[[nodiscard]] QString replayStatusLabel(const ReplayRecord &replay);
// "completed: 12 succeeded, 1 failed", "halted: <reason>", "executing: 3 of 10 sent …".
[[nodiscard]] QString replayOutcome(const ReplayRecord &replay);

// The replay requests the role can read, newest first, one keyset page at a time: the model
// keeps the receiver's `next_cursor` and asks for the next page through `fetchMoreRequested`
// (the controller talks to the API), so views scroll without loading everything.
class ReplayListModel final : public RowTableModel<ReplayRecord> {
    Q_OBJECT
public:
    enum Column {
        IdColumn,
        StatusColumn,
        RequestedByColumn,
        DecidedByColumn,
        ReasonColumn,
        TicketColumn,
        CountColumn,
        QueuedColumn,
        SentColumn,
        SucceededColumn,
        FailedColumn,
        SkippedColumn,
        CreatedColumn,
        DecidedColumn,
        FinishedColumn,
        OutcomeColumn,
        ColumnCount
    };
    enum Role { ReplayIdRole = Qt::UserRole };

    explicit ReplayListModel(QObject *parent = nullptr);

    // The first page (replaces everything) and the pages after it.
    void setReplays(QList<ReplayRecord> replays, const QString &nextCursor);
    void appendReplays(QList<ReplayRecord> replays, const QString &nextCursor);
    // A fresher copy of one request (from `GET replays/{id}`); false when it is not listed.
    bool updateReplay(const ReplayRecord &replay);

    [[nodiscard]] const ReplayRecord *replayAt(const QModelIndex &index) const;
    [[nodiscard]] QModelIndex indexOf(qint64 replayId) const;
    [[nodiscard]] QString nextCursor() const { return m_nextCursor; }

    [[nodiscard]] bool canFetchMore(const QModelIndex &parent) const override;
    void fetchMore(const QModelIndex &parent) override;

Q_SIGNALS:
    // The view scrolled to the end; the controller loads the page after `cursor` once.
    void fetchMoreRequested(const QString &cursor);

private:
    [[nodiscard]] QVariant rowData(const ReplayRecord &r, int column, int role) const override;

    QString m_nextCursor;
    QString m_requestedCursor; // asked for and not answered yet: ask once
};

} // namespace redrive::ui
