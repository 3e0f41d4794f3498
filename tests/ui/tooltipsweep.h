// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#pragma once

#include <QAbstractItemModel>
#include <QStringList>
#include <QTextDocument>

#include <utility>

namespace redrive::test {

// What QToolTip shows for `tip`: the text rendered as HTML when Qt::mightBeRichText() takes it
// for markup (the same test QToolTip and QLabel make), else the text itself.
inline QString shownToolTip(const QString &tip)
{
    if (!Qt::mightBeRichText(tip))
        return tip;
    QTextDocument doc;
    doc.setHtml(tip);
    return doc.toPlainText();
}

// Every tooltip of a page fed `hostile` text (markup, an entity) in every text field it has:
// each must show either plain text, or markup whose rendering holds `hostile` verbatim and
// nothing laid out (an image shows as U+FFFC). `carrying` counts the tooltips that show
// `hostile`, so a test can tell its data reached them.
struct ToolTipSweep {
    explicit ToolTipSweep(QString text)
        : hostile(std::move(text))
    { }

    QString hostile;
    QStringList problems;
    int carrying = 0;

    void check(const QString &tip, const QString &where)
    {
        if (tip.isEmpty())
            return;
        const QString shown = shownToolTip(tip);
        const bool rich = Qt::mightBeRichText(tip);
        if (rich && (!shown.contains(hostile) || shown.contains(QChar::ObjectReplacementCharacter)))
            problems.append(QStringLiteral("%1: tooltip \"%2\" shows as \"%3\"").arg(where, tip, shown));
        else if (shown.contains(hostile))
            ++carrying;
    }

    // True without problems; each problem is logged whole (a failure message is cut short).
    [[nodiscard]] bool clean() const
    {
        for (const QString &problem : problems)
            qWarning("%s", qPrintable(problem));
        return problems.isEmpty();
    }

    // Every row and column of `model`, children (under column 0) included.
    void checkModel(const QAbstractItemModel &model, const QString &name, const QModelIndex &parent = {})
    {
        for (int row = 0; row < model.rowCount(parent); ++row) {
            for (int column = 0; column < model.columnCount(parent); ++column) {
                const QModelIndex index = model.index(row, column, parent);
                check(index.data(Qt::ToolTipRole).toString(),
                    QStringLiteral("%1 row %2 column %3").arg(name).arg(row).arg(column));
            }
            const QModelIndex first = model.index(row, 0, parent);
            if (model.hasChildren(first))
                checkModel(model, QStringLiteral("%1 row %2 →").arg(name).arg(row), first);
        }
    }
};

} // namespace redrive::test
