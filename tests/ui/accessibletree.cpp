// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#include "accessibletree.h"

#include <QAbstractButton>
#include <QAbstractItemView>
#include <QAbstractSpinBox>
#include <QAccessible>
#include <QComboBox>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QScreen>
#include <QTabBar>
#include <QTextDocument>
#include <QTextEdit>
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

QStringList keyboardUnreachableControls(QWidget *root)
{
    // Widgets a mnemonic reaches through a label (Alt+letter on "&Reason:" focuses its buddy).
    QList<QWidget *> buddies;
    for (QLabel *label : root->findChildren<QLabel *>()) {
        if (label->buddy() && label->text().contains(u'&'))
            buddies.append(label->buddy());
    }
    QStringList out;
    for (QWidget *w : root->findChildren<QWidget *>()) {
        if (!w->isVisibleTo(root))
            continue;
        const bool acts = qobject_cast<QAbstractButton *>(w) || qobject_cast<QLineEdit *>(w)
            || qobject_cast<QComboBox *>(w) || qobject_cast<QAbstractItemView *>(w)
            || qobject_cast<QAbstractSpinBox *>(w) || qobject_cast<QTabBar *>(w);
        // Parts of compound controls (a spin box's line edit, a combo box's list, a table's
        // corner button) are reached through the control that owns them.
        QWidget *owner = w->parentWidget();
        const bool part = owner
            && (qobject_cast<QAbstractSpinBox *>(owner) || qobject_cast<QComboBox *>(owner)
                || qobject_cast<QAbstractItemView *>(owner)
                || qobject_cast<QAbstractItemView *>(owner->parentWidget()));
        const QString where = QStringLiteral("%1 \"%2\"")
                                  .arg(QString::fromLatin1(w->metaObject()->className()),
                                      w->objectName().isEmpty() ? w->accessibleName() : w->objectName());
        const auto *text = qobject_cast<QPlainTextEdit *>(w);
        const auto *rich = qobject_cast<QTextEdit *>(w);
        if ((text && !text->isReadOnly() && !text->tabChangesFocus())
            || (rich && !rich->isReadOnly() && !rich->tabChangesFocus()))
            out.append(where + QStringLiteral(": keeps Tab (a keyboard trap)"));
        if (!acts || part)
            continue;
        const auto *button = qobject_cast<QAbstractButton *>(w);
        const bool tab = (w->focusPolicy() & Qt::TabFocus) == Qt::TabFocus;
        const bool key = (button && !button->shortcut().isEmpty()) || buddies.contains(w);
        if (!tab && !key)
            out.append(where + QStringLiteral(": neither Tab nor a shortcut reaches it"));
    }
    out.removeDuplicates();
    return out;
}

QStringList controlsOutOfSight(QWidget *window)
{
    QStringList out;
    const QRect screen = window->screen()->availableGeometry();
    if (!screen.contains(window->frameGeometry()))
        out.append(QStringLiteral("the window (%1x%2) does not fit the screen (%3x%4)")
                       .arg(window->frameGeometry().width())
                       .arg(window->frameGeometry().height())
                       .arg(screen.width())
                       .arg(screen.height()));
    for (QWidget *w : window->findChildren<QWidget *>()) {
        if (!w->isVisible() || w->window() != window)
            continue;
        const bool acts = qobject_cast<QAbstractButton *>(w) || qobject_cast<QLineEdit *>(w)
            || qobject_cast<QComboBox *>(w) || qobject_cast<QAbstractSpinBox *>(w);
        QWidget *owner = w->parentWidget();
        const bool part = owner
            && (qobject_cast<QAbstractSpinBox *>(owner) || qobject_cast<QComboBox *>(owner)
                || qobject_cast<QAbstractItemView *>(owner) || qobject_cast<QLineEdit *>(owner)
                || qobject_cast<QAbstractItemView *>(owner->parentWidget()));
        if (!acts || part)
            continue;
        // Clipped by every ancestor up to the window: what of the control can be seen at all.
        QRect seen = QRect(w->mapTo(window, QPoint(0, 0)), w->size());
        for (QWidget *a = w->parentWidget(); a && a != window; a = a->parentWidget())
            seen &= QRect(a->mapTo(window, QPoint(0, 0)), a->size());
        seen &= window->rect();
        if (seen.width() < w->width() || seen.height() < w->height())
            out.append(QStringLiteral("%1 \"%2\" is cut off (%3 of %4 px wide, %5 of %6 px high visible)")
                           .arg(QString::fromLatin1(w->metaObject()->className()),
                               w->objectName().isEmpty() ? w->accessibleName() : w->objectName())
                           .arg(seen.width())
                           .arg(w->width())
                           .arg(seen.height())
                           .arg(w->height()));
    }
    return out;
}

QString spokenText(const QString &labelText)
{
    QString text = labelText;
    if (Qt::mightBeRichText(text)) {
        QTextDocument doc;
        doc.setHtml(text);
        text = doc.toPlainText();
    }
    text.remove(u'&'); // a mnemonic's marker is not read out
    return text.simplified();
}

QStringList silentLabels(QWidget *root)
{
    QStringList out;
    walk(QAccessible::queryAccessibleInterface(root), 0, [&out](QAccessibleInterface *iface) {
        auto *label = qobject_cast<QLabel *>(iface->object());
        if (!label || !label->isVisible())
            return;
        const QString shown = spokenText(label->text());
        if (shown.isEmpty())
            return;
        const QString heard
            = spokenText(iface->text(QAccessible::Name) + u' ' + iface->text(QAccessible::Description));
        if (!heard.contains(shown))
            out.append(QStringLiteral("%1 shows \"%2\" but is heard as \"%3\"")
                           .arg(describe(iface), shown.left(80), heard.left(80)));
    });
    out.removeDuplicates();
    return out;
}

} // namespace redrive::test
