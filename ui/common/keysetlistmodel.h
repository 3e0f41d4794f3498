// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#pragma once

#include "common/dbexecutor.h"

#include <QAbstractTableModel>
#include <QCoreApplication>
#include <QList>

#include <functional>

namespace redrive::ui {

// The signals of every keyset list (a template cannot declare signals itself).
class KeysetListModelBase : public QAbstractTableModel {
    Q_OBJECT
public:
    using QAbstractTableModel::QAbstractTableModel;

Q_SIGNALS:
    void loaded();
    void loadFailed(const QString &error);
};

// A list read in keyset pages as the view scrolls: page N+1 is "the rows after the last row of
// page N" in the list's order, so it costs the same at row 900,000 as at row 0 (no OFFSET, no
// count). Answers come back through the DbExecutor's guarded path; a reload advances the
// generation, so a page asked for under an older filter never lands in the new list.
//
// A leaf says how to read one page (pageAfter) and how to show a row (columnCount, data).
template<typename Row> class KeysetListModel : public KeysetListModelBase {
public:
    // Runs on the database thread: appends up to the asked-for rows; false with an error.
    using PageQuery = std::function<bool(Db &db, QList<Row> *rows, QString *error)>;

    // Drops the rows and reads the first page.
    void reload()
    {
        m_generation.advance();
        beginResetModel();
        m_rows.clear();
        m_done = false;
        m_fetching = false;
        endResetModel();
        fetch(nullptr);
    }

    // Live refresh without losing the place: once every row is loaded, reads the rows after the
    // last one (for a list in ascending order: the new ones) and appends them.
    void fetchNewer()
    {
        if (m_fetching || !m_done)
            return;
        fetch(m_rows.isEmpty() ? nullptr : &m_rows.last());
    }

    [[nodiscard]] const Row *rowAt(int row) const
    {
        return row >= 0 && row < m_rows.size() ? &m_rows[row] : nullptr;
    }
    [[nodiscard]] const Row *rowAt(const QModelIndex &index) const
    {
        return index.isValid() && index.model() == this ? rowAt(index.row()) : nullptr;
    }
    [[nodiscard]] const QList<Row> &rows() const { return m_rows; }
    [[nodiscard]] bool isLoading() const { return m_fetching; }
    [[nodiscard]] int pageSize() const { return m_pageSize; }

    [[nodiscard]] int rowCount(const QModelIndex &parent = {}) const override
    {
        return parent.isValid() ? 0 : int(m_rows.size());
    }
    [[nodiscard]] bool canFetchMore(const QModelIndex &parent) const override
    {
        return !parent.isValid() && !m_done && !m_fetching && !m_rows.isEmpty();
    }
    void fetchMore(const QModelIndex &parent) override
    {
        if (canFetchMore(parent))
            fetch(&m_rows.last());
    }

protected:
    KeysetListModel(DbExecutor *executor, int pageSize, QObject *parent)
        : KeysetListModelBase(parent)
        , m_executor(executor)
        , m_pageSize(pageSize)
    { }

    // The query for the `limit` rows after `last` (null: the first page). It runs on another
    // thread, so it captures what it needs (the filter, the key) by value.
    [[nodiscard]] virtual PageQuery pageAfter(const Row *last, int limit) const = 0;

private:
    void fetch(const Row *last)
    {
        m_fetching = true;
        m_executor->submit(
            this, &m_generation,
            [query = pageAfter(last, m_pageSize)](Db &db) -> Result<QList<Row>> {
                QList<Row> rows;
                QString error;
                // An error text counts even when the query said it succeeded.
                if (!query(db, &rows, &error) || !error.isEmpty())
                    return Failure(error.isEmpty()
                            ? QCoreApplication::translate("redrive::ui::KeysetListModel", "the query failed")
                            : error);
                return rows;
            },
            [this](Result<QList<Row>> page) {
                m_fetching = false;
                if (!page) {
                    m_done = true;
                    Q_EMIT loadFailed(page.error());
                    return;
                }
                m_done = page->size() < m_pageSize;
                if (!page->isEmpty()) {
                    beginInsertRows({}, int(m_rows.size()), int(m_rows.size() + page->size()) - 1);
                    m_rows.append(std::move(*page));
                    endInsertRows();
                }
                Q_EMIT loaded();
            });
    }

    DbExecutor *m_executor;
    int m_pageSize;
    Generation m_generation;
    QList<Row> m_rows;
    bool m_fetching = false;
    bool m_done = false;
};

} // namespace redrive::ui
