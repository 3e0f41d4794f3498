// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#pragma once

#include "common/dbexecutor.h"
#include "common/rowtablemodel.h"
#include "query/eventpage.h"

#include <QHash>
#include <QSet>

#include <optional>

namespace redrive::ui {

// The events list over the receiver's database, for millions of rows.
//
// Rows are read in keyset pages of kPageSize (newest first) on a worker thread and kept in a
// bounded cache of kMaxCachedPages; nothing ever loads the whole table. The first paint needs
// only max(id)/min(id) and one page: without a filter the row count starts as the id span, and
// with a filter it grows page by page. In the background an index of page boundaries is read
// (one pass over the ids through an index); it replaces the estimate with the exact count and
// lets any row be reached with one keyset query.
//
// The list is a snapshot up to the newest id seen when it was (re)loaded. checkForNewEvents()
// counts what arrived since without touching the rows (also events with an id below the top
// that committed late: see countNewEvents); showNewEvents() inserts them at the top, so the
// selection stays on the same events, or reloads when a late one belongs further down.
class EventTableModel final : public ColumnTableModel {
    Q_OBJECT
public:
    // What triage needs first comes first: when, state, and whether the downstream acted.
    enum Column {
        IdColumn,
        ReceivedColumn,
        StatusColumn,
        DownstreamColumn,
        SourceColumn,
        TypeColumn,
        AttemptsColumn,
        LastFailureColumn,
        ProviderIdColumn,
        ColumnCount
    };
    enum Role {
        EventIdRole = Qt::UserRole, // qint64, 0 while the row loads
        StatusRole, // stored status string
        DownstreamRole, // int(DownstreamState)
        LoadedRole, // bool
        OriginRole, // "webhook" | "reconciled"
    };
    enum class CountKind { Estimated, Growing, Exact };

    static constexpr int kPageSize = 256;
    static constexpr int kMaxCachedPages = 64;
    static constexpr int kMaxInFlight = 2;
    static constexpr int kMaxNewRows = 5'000; // more than this arriving at once reloads instead

    // `pages` serves page reads; `indexer` (may be the same) computes the page index.
    EventTableModel(DbExecutor *pages, DbExecutor *indexer, QObject *parent = nullptr);

    [[nodiscard]] int rowCount(const QModelIndex &parent = {}) const override;
    [[nodiscard]] QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    [[nodiscard]] bool canFetchMore(const QModelIndex &parent) const override;
    void fetchMore(const QModelIndex &parent) override;

    void setFilter(const EventFilter &filter);
    // Newest first (the default) or oldest first; reloads.
    void setOrder(EventOrder order);
    [[nodiscard]] EventOrder order() const { return m_order; }
    [[nodiscard]] const EventFilter &filter() const { return m_filter; }
    void reload();

    // Null while the row's page is loading.
    [[nodiscard]] const EventRow *eventAt(const QModelIndex &index) const;
    [[nodiscard]] const EventRow *eventAtRow(int row) const;
    // The row of an event that is currently cached, if any.
    [[nodiscard]] std::optional<int> cachedRowOf(qint64 eventId) const;

    [[nodiscard]] CountKind countKind() const { return m_countKind; }
    [[nodiscard]] bool isLoading() const;
    [[nodiscard]] int cachedPageCount() const { return int(m_pages.size()); }
    // At most this many pages stay in memory (default kMaxCachedPages); least recently used go first.
    void setCacheLimit(int pages) { m_cacheLimit = std::max(2, pages); }
    [[nodiscard]] int cacheLimit() const { return m_cacheLimit; }
    [[nodiscard]] qint64 pendingNewEvents() const { return m_newCount; }
    [[nodiscard]] QString lastError() const { return m_lastError; }

    void checkForNewEvents();
    void showNewEvents();
    // Re-reads rows [first, last] that are cached (statuses move while people look).
    void refreshRows(int first, int last);

Q_SIGNALS:
    void newEventsAvailable(qint64 count);
    void countChanged(qint64 rows, redrive::ui::EventTableModel::CountKind kind);
    void loadFailed(const QString &error);
    // A page arrived; mainly for tests and the benchmark.
    void pageLoaded(int page);

private:
    struct Page {
        QList<EventRow> rows;
        qint64 fromId = 0;
        quint64 lastUse = 0;
    };
    struct FirstAnswer {
        IdRange range;
        NewEventsBaseline baseline; // taken before the rows are read
        QList<EventRow> rows;
        QString error;
    };
    struct PageAnswer {
        int page = 0;
        qint64 fromId = 0;
        QList<EventRow> rows;
        QString error;
    };

    void start();
    void requestPage(int page) const;
    void dispatch();
    void receivePage(PageAnswer answer);
    void receiveIndex(PageIndex index);
    void storePage(int page, Page p);
    [[nodiscard]] std::optional<qint64> pageStart(int page) const;
    [[nodiscard]] int snapshotRows() const { return m_rows - int(m_head.size()); }
    void fail(const QString &error);

    DbExecutor *m_pagesExec;
    DbExecutor *m_indexExec;
    Generation m_generation;
    EventFilter m_filter;
    EventOrder m_order = EventOrder::NewestFirst;
    CountKind m_countKind = CountKind::Growing;
    int m_rows = 0;
    qint64 m_topId = 0; // snapshot ceiling
    qint64 m_headTopId = 0; // newest id shown, including rows shown since
    IdRange m_range;
    QList<EventRow> m_head; // rows shown since the snapshot, newest first
    QList<qint64> m_boundaries; // first id of each snapshot page, when known
    bool m_growingDone = false;
    qint64 m_newCount = 0;
    qint64 m_lateCount = 0; // of m_newCount, events with ids below the newest shown
    NewEventsBaseline m_baseline; // what the snapshot showed above its low-water mark
    qint64 m_shownAbove = 0; // rows showNewEvents() added above the snapshot
    bool m_started = false;
    QString m_lastError;

    int m_cacheLimit = kMaxCachedPages;
    mutable QHash<int, Page> m_pages;
    mutable quint64 m_useClock = 0;
    mutable QList<int> m_wanted; // most recent last
    mutable QSet<int> m_inFlight;
    mutable bool m_dispatchQueued = false;
    bool m_checking = false;
};

} // namespace redrive::ui
