// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#pragma once

#include <QList>

// Keyset pages, as every list read here walks them: a reader is asked for one row more than the
// page holds, and that extra row only tells that another page follows. The next page starts
// after the last row kept (by id), so it costs the same at any depth; OFFSET never appears.
namespace redrive {

// Drops the look-ahead row; true when there was one (another page follows).
template<typename Row> bool trimKeysetPage(QList<Row> &rows, int limit)
{
    if (rows.size() <= limit)
        return false;
    rows.resize(limit);
    return true;
}

} // namespace redrive
