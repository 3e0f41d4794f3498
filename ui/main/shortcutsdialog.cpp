// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#include "shortcutsdialog.h"

#include <QAction>
#include <QDialogButtonBox>
#include <QHeaderView>
#include <QLabel>
#include <QMenu>
#include <QPushButton>
#include <QTableWidget>
#include <QVBoxLayout>

#include <algorithm>

namespace redrive::ui {
namespace {

QString withoutMnemonic(QString text)
{
    text.remove(QStringLiteral("…"));
    text.replace(QStringLiteral("&&"), QStringLiteral("\x01"));
    text.remove(u'&');
    text.replace(u'\x01', u'&');
    return text.trimmed();
}

QString whereItWorks(const QAction *action)
{
    for (QObject *o : action->associatedObjects()) {
        if (auto *menu = qobject_cast<QMenu *>(o))
            return ShortcutsDialog::tr("%1 menu").arg(withoutMnemonic(menu->title()));
        if (auto *w = qobject_cast<QWidget *>(o)) {
            const QString name = w->accessibleName().isEmpty() ? w->objectName() : w->accessibleName();
            return action->shortcutContext() == Qt::WidgetShortcut
                    || action->shortcutContext() == Qt::WidgetWithChildrenShortcut
                ? ShortcutsDialog::tr("In %1").arg(name)
                : ShortcutsDialog::tr("Everywhere");
        }
    }
    return ShortcutsDialog::tr("Everywhere");
}

} // namespace

QList<ShortcutsDialog::Entry> ShortcutsDialog::collect(QWidget *window)
{
    QList<Entry> out;
    for (QAction *a : window->findChildren<QAction *>()) {
        const QString text = withoutMnemonic(a->text());
        if (text.isEmpty())
            continue;
        for (const QKeySequence &keys : a->shortcuts()) {
            if (!keys.isEmpty())
                out.append({ keys.toString(QKeySequence::NativeText), text, whereItWorks(a) });
        }
    }
    std::sort(out.begin(), out.end(), [](const Entry &a, const Entry &b) {
        return std::tie(a.where, a.keys, a.action) < std::tie(b.where, b.keys, b.action);
    });
    // One entry per (where, keys, action): an action reachable from a menu and a widget once.
    QList<Entry> unique;
    for (const Entry &e : std::as_const(out)) {
        if (unique.isEmpty() || unique.last().keys != e.keys || unique.last().action != e.action
            || unique.last().where != e.where)
            unique.append(e);
    }
    return unique;
}

ShortcutsDialog::ShortcutsDialog(QWidget *window, QWidget *parent)
    : QDialog(parent)
    , m_table(new QTableWidget)
{
    setObjectName(QStringLiteral("shortcutsDialog"));
    setWindowTitle(tr("Keyboard shortcuts"));
    const QList<Entry> entries = collect(window);
    m_table->setObjectName(QStringLiteral("shortcutsTable"));
    m_table->setAccessibleName(tr("Keyboard shortcuts"));
    m_table->setColumnCount(3);
    m_table->setHorizontalHeaderLabels({ tr("Keys"), tr("Does"), tr("Where") });
    m_table->setRowCount(int(entries.size()));
    m_table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->verticalHeader()->hide();
    m_table->horizontalHeader()->setStretchLastSection(true);
    for (int r = 0; r < entries.size(); ++r) {
        m_table->setItem(r, 0, new QTableWidgetItem(entries.at(r).keys));
        m_table->setItem(r, 1, new QTableWidgetItem(entries.at(r).action));
        m_table->setItem(r, 2, new QTableWidgetItem(entries.at(r).where));
    }
    m_table->resizeColumnsToContents();
    auto *note = new QLabel(
        tr("Alt and the underlined letter opens a page or moves to a field. Tab and Shift+Tab move between "
           "controls; in a list, the arrow keys choose a row and Menu opens its actions."));
    note->setWordWrap(true);
    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Close);
    buttons->button(QDialogButtonBox::Close)->setAccessibleName(tr("Close"));
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    auto *layout = new QVBoxLayout(this);
    layout->addWidget(m_table, 1);
    layout->addWidget(note);
    layout->addWidget(buttons);
    resize(620, 460);
    m_table->setFocus();
}

} // namespace redrive::ui
