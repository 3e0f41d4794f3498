// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#pragma once

#include <QDialog>
#include <QList>
#include <QString>

class QTableWidget;

namespace redrive::ui {

// Help › Keyboard shortcuts: every action of the window that has a shortcut, what it does and
// where it works, read from the actions themselves so the list cannot fall behind them.
class ShortcutsDialog final : public QDialog {
    Q_OBJECT
public:
    struct Entry {
        QString keys; // in the platform's native form ("Ctrl+R")
        QString action; // what it does, without mnemonic markers
        QString where; // the menu or control it works in
    };
    explicit ShortcutsDialog(QWidget *window, QWidget *parent = nullptr);
    // Every shortcut under `window`, sorted by where it works and then by keys; an action with
    // several shortcuts gets one entry each.
    static QList<Entry> collect(QWidget *window);

private:
    QTableWidget *m_table;
};

} // namespace redrive::ui
