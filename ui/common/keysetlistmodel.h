// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#pragma once

#include "common/dbexecutor.h"
#include "common/rowtablemodel.h"

#include <QCoreApplication>
#include <QList>

#include <functional>

namespace redrive::ui {

// The signals of every keyset list (a template cannot declare signals itself).
class KeysetListModelBase : public ColumnTableModel {
    Q_OBJECT
public:
    using ColumnTableModel::ColumnTableModel;

Q_SIGNALS:
    void loaded();
    void loadFailed(const QString &error);
};

// A list read in keyset pages as the view scrolls: page N+1 is "the rows after the last row of
// page N" in the list's order, so it costs the same at row 900,000 as at row 0 (no OFFSET, no
// count). Answers come back through the DbExecutor's guarded path; a reload advances the
// generation, so a page asked for under an older filter never lands in the new list.
//
// A leaf says how to read one page (pageAfter), lists its columns and shows a row (data).
template<typename Row> class KeysetListModel : public RowTableModel<Row, KeysetListModelBase> {
public:
    // Runs on the database thread: appends up to the asked-for rows; false with an error.
    using PageQuery = std::function<bool(Db &db, QList<Row> *rows, QString *error)>;

    // Drops the rows and reads the first page.
    void reload()
    {
        m_generation.advance();
        this->beginResetModel();
        this->mutableRows().clear();
        m_done = false;
        m_fetching = false;
        this->endResetModel();
        fetch(nullptr);
    }

    // Live refresh without losing the place: once every row is loaded, reads the rows after the
    // last one (for a list in ascending order: the new ones) and appends them.
    void fetchNewer()
    {
        if (m_fetching || !m_done)
            return;
        fetch(this->rows().isEmpty() ? nullptr : &this->rows().last());
    }

    [[nodiscard]] bool isLoading() const { return m_fetching; }
    [[nodiscard]] int pageSize() const { return m_pageSize; }

    [[nodiscard]] bool canFetchMore(const QModelIndex &parent) const override
    {
        return !parent.isValid() && !m_done && !m_fetching && !this->rows().isEmpty();
    }
    void fetchMore(const QModelIndex &parent) override
    {
        if (canFetchMore(parent))
            fetch(&this->rows().last());
    }

protected:
    KeysetListModel(DbExecutor *executor, int pageSize, QObject *parent)
        : RowTableModel<Row, KeysetListModelBase>(parent)
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
                    Q_EMIT this->loadFailed(page.error());
                    return;
                }
                m_done = page->size() < m_pageSize;
                this->appendRows(std::move(*page));
                Q_EMIT this->loaded();
            });
    }

    DbExecutor *m_executor;
    int m_pageSize;
    Generation m_generation;
    bool m_fetching = false;
    bool m_done = false;
};

} // namespace redrive::ui
