// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#include "eventtablemodel.h"

#include "common/plaintooltip.h"
#include "common/statuspalette.h"
#include "common/timeformat.h"
#include "events/originmark.h"

#include <QColor>
#include <QCoreApplication>

#include <limits>

namespace redrive::ui {
namespace {

// "HTTP permanent — HTTP 410: the endpoint is gone": why the newest failure failed, in one line.
QString lastFailureText(const EventRow &row)
{
    QString category = categoryLabel(row.lastFailure);
    if (row.lastFailureText.isEmpty() || category.isEmpty())
        return category;
    return QStringLiteral("%1 — %2").arg(category, row.lastFailureText.simplified());
}

constexpr int kMaxWanted = 8;

int clampRows(qint64 n)
{
    return int(std::min<qint64>(n, std::numeric_limits<int>::max() - EventTableModel::kMaxNewRows - 1));
}

QString downstreamText(const EventRow &row)
{
    const StatusLook look = downstreamLook(row.downstream);
    if (row.downstream == DownstreamState::SucceededWithRef && !row.downstreamRef.isEmpty())
        return look.label + QStringLiteral(" · ") + row.downstreamRef;
    return look.label;
}

QString downstreamTooltip(const EventRow &row)
{
    QStringList lines;
    for (const DeliverySummary &d : row.deliveries) {
        QString line = d.destination + QLatin1String(": ") + describe(d.downstream);
        if (!d.downstreamRef.isEmpty())
            line += QCoreApplication::translate("redrive::ui::EventTableModel", " (ref %1)")
                        .arg(d.downstreamRef);
        if (d.downstream == DownstreamState::OutcomeUnknown)
            line += QCoreApplication::translate("redrive::ui::EventTableModel",
                " — the request may have been processed; a replay could act twice");
        lines.append(line);
    }
    return lines.isEmpty() ? QCoreApplication::translate(
               "redrive::ui::EventTableModel", "No route matched this event; nothing was delivered.")
                           : lines.join(u'\n');
}

} // namespace

EventTableModel::EventTableModel(DbExecutor *pages, DbExecutor *indexer, QObject *parent)
    : ColumnTableModel(parent)
    , m_pagesExec(pages)
    , m_indexExec(indexer ? indexer : pages)
{
    static constexpr ColumnHeader columns[]
        = { { QT_TR_NOOP("ID") }, { QT_TR_NOOP("Received") }, { QT_TR_NOOP("Status") },
              { QT_TR_NOOP("Downstream") }, { QT_TR_NOOP("Source") }, { QT_TR_NOOP("Type") },
              { QT_TR_NOOP("Attempts") }, { QT_TR_NOOP("Last failure") }, { QT_TR_NOOP("Provider ID") } };
    static_assert(std::size(columns) == ColumnCount);
    setColumns(columns);
    setRowNumbers(true);
    setNumberColumns({ IdColumn, AttemptsColumn });
}

int EventTableModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : m_rows;
}

const EventRow *EventTableModel::eventAtRow(int row) const
{
    if (row < 0 || row >= m_rows)
        return nullptr;
    if (row < m_head.size())
        return &m_head[row];
    const int s = row - int(m_head.size());
    const int page = s / kPageSize;
    auto it = m_pages.find(page);
    if (it == m_pages.end()) {
        requestPage(page);
        return nullptr;
    }
    it->lastUse = ++m_useClock;
    const int offset = s % kPageSize;
    return offset < it->rows.size() ? &it->rows[offset] : nullptr;
}

const EventRow *EventTableModel::eventAt(const QModelIndex &index) const
{
    return index.isValid() && index.model() == this ? eventAtRow(index.row()) : nullptr;
}

std::optional<int> EventTableModel::cachedRowOf(qint64 eventId) const
{
    for (int i = 0; i < m_head.size(); ++i) {
        if (m_head[i].id == eventId)
            return i;
    }
    for (auto it = m_pages.cbegin(); it != m_pages.cend(); ++it) {
        for (int i = 0; i < it->rows.size(); ++i) {
            if (it->rows[i].id == eventId)
                return int(m_head.size()) + it.key() * kPageSize + i;
        }
    }
    return std::nullopt;
}

QVariant EventTableModel::data(const QModelIndex &index, int role) const
{
    if (!index.isValid() || index.row() >= m_rows)
        return {};
    const EventRow *row = eventAtRow(index.row());
    if (!row) {
        if (role == Qt::DisplayRole && index.column() == IdColumn)
            return QStringLiteral("…");
        if (role == LoadedRole)
            return false;
        if (role == EventIdRole)
            return qint64(0);
        return {};
    }
    switch (role) {
    case EventIdRole:
        return row->id;
    case StatusRole:
        return row->status.name();
    case DownstreamRole:
        return int(row->downstream);
    case LoadedRole:
        return true;
    case OriginRole:
        return row->origin;
    case Qt::AccessibleTextRole:
        return index.column() == SourceColumn ? sourceWithOriginAccessible(row->source, row->origin)
                                              : QVariant();
    case Qt::TextAlignmentRole:
        return cellAlignment(index.column());
    case Qt::BackgroundRole:
    case Qt::ForegroundRole:
        if (index.column() == StatusColumn)
            return cellColour(statusLook(row->status), role);
        if (index.column() == DownstreamColumn)
            return cellColour(downstreamLook(row->downstream), role);
        return {};
    case Qt::ToolTipRole:
        switch (index.column()) {
        case ReceivedColumn:
            return TimeFormat::tooltip(row->receivedAt);
        case DownstreamColumn:
            return plainToolTip(downstreamTooltip(*row));
        case LastFailureColumn:
            return row->lastFailureText.isEmpty() ? QVariant()
                                                  : QVariant(plainToolTip(lastFailureText(*row)));
        case SourceColumn:
            return isReconciled(row->origin) ? originExplanation(row->origin) : QVariant();
        case ProviderIdColumn:
            return plainToolTip(row->seenCount > 1
                    ? tr("%1\nReceived %Ln time(s) (duplicates were not processed again)", nullptr,
                        int(row->seenCount))
                          .arg(row->providerEventId)
                    : row->providerEventId);
        default:
            return {};
        }
    case Qt::DisplayRole:
        switch (index.column()) {
        case IdColumn:
            return row->id;
        case ReceivedColumn:
            return TimeFormat::display(row->receivedAt);
        case SourceColumn:
            return sourceWithOrigin(row->source, row->origin);
        case TypeColumn:
            return row->type;
        case ProviderIdColumn:
            return row->providerEventId;
        case StatusColumn:
            return statusLook(row->status).label;
        case AttemptsColumn:
            return row->attempts;
        case LastFailureColumn:
            return lastFailureText(*row);
        case DownstreamColumn:
            return downstreamText(*row);
        default:
            return {};
        }
    default:
        return {};
    }
}

void EventTableModel::setFilter(const EventFilter &filter)
{
    m_filter = filter;
    start();
}

void EventTableModel::setOrder(EventOrder order)
{
    m_order = order;
    start();
}

void EventTableModel::reload()
{
    start();
}

bool EventTableModel::isLoading() const
{
    return !m_started || !m_inFlight.isEmpty() || !m_wanted.isEmpty();
}

void EventTableModel::start()
{
    m_generation.advance();
    beginResetModel();
    m_rows = 0;
    m_pages.clear();
    m_head.clear();
    m_boundaries.clear();
    m_wanted.clear();
    m_inFlight.clear();
    m_growingDone = false;
    m_newCount = m_lateCount = m_shownAbove = 0;
    m_baseline = {};
    m_topId = m_headTopId = 0;
    m_started = false;
    m_countKind = m_filter.isEmpty() ? CountKind::Estimated : CountKind::Growing;
    endResetModel();

    m_pagesExec->submit(
        this, &m_generation,
        [filter = m_filter, order = m_order](Db &db) {
            FirstAnswer a;
            auto range = eventIdRange(db);
            if (!range) {
                a.error = range.error();
                return a;
            }
            a.range = *range;
            if (a.range.isEmpty())
                return a;
            // Before the rows: what it counts is then on screen (or, committed in between, an
            // overcount that showNewEvents() turns into a reload), never missing from both.
            auto baseline = newEventsBaseline(db, filter, a.range.maxId);
            if (!baseline) {
                a.error = baseline.error();
                return a;
            }
            a.baseline = *baseline;
            const qint64 from = order == EventOrder::NewestFirst ? a.range.maxId : a.range.minId;
            if (auto rows = fetchEventRange(db, filter, order, from, 0, a.range.maxId, kPageSize))
                a.rows = std::move(*rows);
            else
                a.error = rows.error();
            return a;
        },
        [this](FirstAnswer a) {
            m_started = true;
            if (!a.error.isEmpty()) {
                fail(a.error);
                return;
            }
            m_range = a.range;
            m_baseline = a.baseline;
            m_topId = m_headTopId = a.range.maxId;
            const int first = int(a.rows.size());
            const bool complete = first < kPageSize;
            qint64 rows = 0;
            if (complete) {
                m_countKind = CountKind::Exact;
                rows = first;
            } else if (m_countKind == CountKind::Estimated) {
                rows = std::max<qint64>(a.range.span(), first);
            } else {
                rows = first;
            }
            const bool newest = m_order == EventOrder::NewestFirst;
            if (first > 0) {
                m_boundaries = { a.rows.first().id };
                if (m_countKind == CountKind::Growing)
                    m_boundaries.append(newest ? a.rows.last().id - 1 : a.rows.last().id + 1);
            }
            Page page;
            page.fromId = newest ? m_topId : m_range.minId;
            page.rows = std::move(a.rows);
            if (rows > 0) {
                beginInsertRows({}, 0, clampRows(rows) - 1);
                m_rows = clampRows(rows);
                storePage(0, std::move(page));
                endInsertRows();
            }
            Q_EMIT countChanged(m_rows, m_countKind);
            Q_EMIT pageLoaded(0);
            if (m_countKind != CountKind::Exact) {
                m_indexExec->submit(
                    this, &m_generation,
                    [filter = m_filter, top = m_topId, order = m_order](Db &db) {
                        return fetchPageIndex(db, filter, top, kPageSize, order).value_or(PageIndex {});
                    },
                    [this](PageIndex index) {
                        if (index.pageSize == kPageSize)
                            receiveIndex(std::move(index));
                    });
            }
            dispatch();
        });
}

void EventTableModel::receiveIndex(PageIndex index)
{
    m_countKind = CountKind::Exact;
    m_growingDone = true;
    m_boundaries = std::move(index.boundaries);
    // Drop cached pages that do not start where the exact index says they do (the estimate
    // assumed ids without gaps).
    m_pages.removeIf([this](QHash<int, Page>::iterator it) {
        const int page = it.key();
        const bool aligned
            = page < m_boundaries.size() && !it->rows.isEmpty() && it->rows.first().id == m_boundaries[page];
        return !aligned;
    });
    const int oldRows = snapshotRows();
    const int newRows = clampRows(index.count);
    const int head = int(m_head.size());
    if (newRows > oldRows) {
        beginInsertRows({}, head + oldRows, head + newRows - 1);
        m_rows = head + newRows;
        endInsertRows();
    } else if (newRows < oldRows) {
        beginRemoveRows({}, head + newRows, head + oldRows - 1);
        m_rows = head + newRows;
        endRemoveRows();
    }
    if (m_rows > 0)
        Q_EMIT dataChanged(this->index(0, 0), this->index(m_rows - 1, ColumnCount - 1));
    Q_EMIT countChanged(m_rows, m_countKind);
}

std::optional<qint64> EventTableModel::pageStart(int page) const
{
    if (page < m_boundaries.size())
        return m_boundaries[page];
    if (m_countKind == CountKind::Estimated) {
        if (m_order == EventOrder::OldestFirst) {
            const qint64 from = m_range.minId + qint64(page) * kPageSize;
            return from <= m_topId ? std::optional<qint64>(from) : std::nullopt;
        }
        const qint64 from = m_topId - qint64(page) * kPageSize;
        return from > 0 ? std::optional<qint64>(from) : std::nullopt;
    }
    return std::nullopt;
}

void EventTableModel::requestPage(int page) const
{
    if (m_inFlight.contains(page) || m_pages.contains(page))
        return;
    m_wanted.removeOne(page);
    m_wanted.append(page);
    while (m_wanted.size() > kMaxWanted)
        m_wanted.removeFirst(); // scrolled past long ago
    if (!m_dispatchQueued) {
        m_dispatchQueued = true;
        auto *self = const_cast<EventTableModel *>(this);
        QMetaObject::invokeMethod(
            self, [self] { self->dispatch(); }, Qt::QueuedConnection);
    }
}

void EventTableModel::dispatch()
{
    m_dispatchQueued = false;
    if (!m_started)
        return;
    while (m_inFlight.size() < kMaxInFlight && !m_wanted.isEmpty()) {
        const int page = m_wanted.takeLast();
        if (m_pages.contains(page) || m_inFlight.contains(page))
            continue;
        const auto from = pageStart(page);
        if (!from)
            continue;
        m_inFlight.insert(page);
        m_pagesExec->submit(
            this, &m_generation,
            [filter = m_filter, page, fromId = *from, order = m_order, top = m_topId](Db &db) {
                PageAnswer a;
                a.page = page;
                a.fromId = fromId;
                if (auto rows = fetchEventRange(db, filter, order, fromId, 0, top, kPageSize))
                    a.rows = std::move(*rows);
                else
                    a.error = rows.error();
                return a;
            },
            [this](PageAnswer a) { receivePage(std::move(a)); });
    }
}

void EventTableModel::storePage(int page, Page p)
{
    p.lastUse = ++m_useClock;
    if (m_pages.size() >= m_cacheLimit && !m_pages.contains(page)) {
        auto oldest = m_pages.cbegin();
        for (auto it = m_pages.cbegin(); it != m_pages.cend(); ++it) {
            if (it->lastUse < oldest->lastUse)
                oldest = it;
        }
        m_pages.erase(oldest);
    }
    m_pages.emplace(page, std::move(p));
}

void EventTableModel::receivePage(PageAnswer a)
{
    m_inFlight.remove(a.page);
    if (!a.error.isEmpty()) {
        fail(a.error);
        return;
    }
    const auto expected = pageStart(a.page);
    const int head = int(m_head.size());
    const int firstRow = head + a.page * kPageSize;
    if (!expected || *expected != a.fromId) {
        // The page layout changed while this was read (the exact index arrived); ask again
        // through the view, which repaints what it shows.
        if (firstRow < m_rows)
            Q_EMIT dataChanged(
                index(firstRow, 0), index(std::min(m_rows, firstRow + kPageSize) - 1, ColumnCount - 1));
        dispatch();
        return;
    }
    const int n = int(a.rows.size());
    const qint64 lastId = n ? a.rows.last().id : 0;
    Page p;
    p.fromId = a.fromId;
    p.rows = std::move(a.rows);
    const bool growsList = m_countKind == CountKind::Growing && firstRow >= m_rows;
    if (growsList) {
        storePage(a.page, std::move(p));
        if (n > 0) {
            beginInsertRows({}, m_rows, m_rows + n - 1);
            m_rows += n;
            endInsertRows();
        }
        if (n == kPageSize)
            m_boundaries.append(m_order == EventOrder::NewestFirst ? lastId - 1 : lastId + 1);
        else
            m_growingDone = true;
        Q_EMIT countChanged(m_rows, m_countKind);
    } else {
        storePage(a.page, std::move(p));
        if (firstRow < m_rows)
            Q_EMIT dataChanged(
                index(firstRow, 0), index(std::min(m_rows, firstRow + kPageSize) - 1, ColumnCount - 1));
    }
    Q_EMIT pageLoaded(a.page);
    dispatch();
}

bool EventTableModel::canFetchMore(const QModelIndex &parent) const
{
    return !parent.isValid() && m_started && m_countKind == CountKind::Growing && !m_growingDone
        && !m_inFlight.contains(snapshotRows() / kPageSize);
}

void EventTableModel::fetchMore(const QModelIndex &parent)
{
    if (!canFetchMore(parent))
        return;
    requestPage(snapshotRows() / kPageSize);
}

void EventTableModel::checkForNewEvents()
{
    if (!m_started || m_checking)
        return;
    m_checking = true;
    m_pagesExec->submit(
        this, &m_generation,
        [filter = m_filter, baseline = m_baseline, shown = m_shownAbove, top = m_headTopId](Db &db) {
            return countNewEvents(db, filter, baseline, shown, top, kMaxNewRows + 1)
                .value_or(NewEventsCount { -1, 0 });
        },
        [this](NewEventsCount n) {
            m_checking = false;
            if (n.total < 0)
                return;
            m_lateCount = n.late;
            if (n.total == m_newCount)
                return;
            m_newCount = n.total;
            Q_EMIT newEventsAvailable(n.total);
        });
}

void EventTableModel::showNewEvents()
{
    if (m_newCount <= 0)
        return;
    if (m_newCount > kMaxNewRows || m_order == EventOrder::OldestFirst || m_lateCount > 0) {
        // Oldest first, new events belong at the far end of the list; an event that committed
        // late belongs among the rows shown: reload rather than splice them in there.
        reload();
        return;
    }
    m_pagesExec->submit(
        this, &m_generation,
        [filter = m_filter, top = m_headTopId](Db &db) {
            return fetchEventPage(db, filter, std::numeric_limits<qint64>::max(), kMaxNewRows, top)
                .value_or(QList<EventRow> {});
        },
        [this](QList<EventRow> rows) {
            m_newCount = m_lateCount = 0;
            Q_EMIT newEventsAvailable(0);
            if (rows.isEmpty())
                return;
            const int n = int(rows.size());
            m_shownAbove += n;
            m_headTopId = std::max(m_headTopId, rows.first().id);
            beginInsertRows({}, 0, n - 1);
            rows.append(m_head);
            m_head = std::move(rows);
            m_rows += n;
            endInsertRows();
            Q_EMIT countChanged(m_rows, m_countKind);
        });
}

void EventTableModel::refreshRows(int first, int last)
{
    first = std::max(0, first);
    last = std::min(last, m_rows - 1);
    QList<qint64> ids;
    for (int r = first; r <= last && ids.size() < 2LL * kPageSize; ++r) {
        const EventRow *row = nullptr;
        if (r < m_head.size()) {
            row = &m_head[r];
        } else {
            const int s = r - int(m_head.size());
            auto it = m_pages.constFind(s / kPageSize);
            if (it != m_pages.cend() && s % kPageSize < it->rows.size())
                row = &it->rows[s % kPageSize];
        }
        if (row)
            ids.append(row->id);
    }
    if (ids.isEmpty())
        return;
    m_pagesExec->submit(
        this, &m_generation, [ids](Db &db) { return fetchEventsByIds(db, ids).value_or(QList<EventRow> {}); },
        [this](QList<EventRow> rows) {
            QHash<qint64, EventRow *> byId;
            for (EventRow &r : m_head)
                byId.insert(r.id, &r);
            for (Page &p : m_pages) {
                for (EventRow &r : p.rows)
                    byId.insert(r.id, &r);
            }
            bool changed = false;
            for (EventRow &fresh : rows) {
                if (EventRow *old = byId.value(fresh.id)) {
                    *old = std::move(fresh);
                    changed = true;
                }
            }
            if (changed && m_rows > 0)
                Q_EMIT dataChanged(index(0, 0), index(m_rows - 1, ColumnCount - 1));
        });
}

void EventTableModel::fail(const QString &error)
{
    m_lastError = error;
    Q_EMIT loadFailed(error);
}

} // namespace redrive::ui
