// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#include "accessibletree.h"

#include <QAccessible>
#include <QWidget>

namespace redrive::test {
namespace {

bool isInteractive(QAccessible::Role role)
{
    switch (role) {
    case QAccessible::PushButton:
    case QAccessible::CheckBox:
    case QAccessible::RadioButton:
    case QAccessible::ComboBox:
    case QAccessible::EditableText:
    case QAccessible::SpinBox:
    case QAccessible::Slider:
    case QAccessible::Table:
    case QAccessible::Tree:
    case QAccessible::List:
    case QAccessible::PageTab:
    case QAccessible::ButtonMenu:
    case QAccessible::ButtonDropDown:
    case QAccessible::Link:
        return true;
    default:
        return false;
    }
}

bool isItemView(QAccessible::Role role)
{
    return role == QAccessible::Table || role == QAccessible::Tree || role == QAccessible::List
        || role == QAccessible::ComboBox;
}

QString describe(QAccessibleInterface *iface)
{
    QString where;
    for (QObject *o = iface->object(); o; o = o->parent()) {
        if (!o->objectName().isEmpty()) {
            where = o->objectName();
            break;
        }
    }
    const QString cls = iface->object() ? QString::fromLatin1(iface->object()->metaObject()->className())
                                        : QStringLiteral("(no object)");
    return QStringLiteral("%1 role %2 in \"%3\"")
        .arg(cls)
        .arg(int(iface->role()))
        .arg(where.isEmpty() ? QStringLiteral("?") : where);
}

template<typename Visit> void walk(QAccessibleInterface *iface, int depth, Visit &&visit)
{
    if (!iface || !iface->isValid() || depth > 64)
        return;
    if (iface->state().invisible)
        return;
    visit(iface);
    if (isItemView(iface->role()))
        return;
    const int n = iface->childCount();
    for (int i = 0; i < n; ++i)
        walk(iface->child(i), depth + 1, visit);
}

} // namespace

QStringList unnamedControls(QWidget *root)
{
    QStringList out;
    walk(QAccessible::queryAccessibleInterface(root), 0, [&out](QAccessibleInterface *iface) {
        if (isInteractive(iface->role()) && iface->text(QAccessible::Name).trimmed().isEmpty())
            out.append(describe(iface));
    });
    out.removeDuplicates();
    return out;
}

int interactiveControlCount(QWidget *root)
{
    int n = 0;
    walk(QAccessible::queryAccessibleInterface(root), 0, [&n](QAccessibleInterface *iface) {
        if (isInteractive(iface->role()))
            ++n;
    });
    return n;
}

} // namespace redrive::test
