// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#pragma once

#include <QFrame>

class QLabel;
class QPushButton;

namespace redrive::ui {

// The strip under the other banners that says what became of a redrive:// link the console could
// not simply show: the link is for another profile (with a button that switches to it), the thing
// it names is not in this receiver's database, or the console waits for a connection first.
// Hidden while there is nothing to say; Dismiss (or the next link) hides it.
class LinkBanner final : public QFrame {
    Q_OBJECT
public:
    explicit LinkBanner(QWidget *parent = nullptr);

    // `switchLabel` non-empty offers the switch button with that text (plain text: no mnemonic).
    void showMessage(const QString &text, const QString &switchLabel = QString());
    void clear();
    [[nodiscard]] QString text() const;
    [[nodiscard]] QPushButton *switchButton() const { return m_switch; }

Q_SIGNALS:
    void switchRequested();

private:
    QLabel *m_text;
    QPushButton *m_switch;
    QPushButton *m_dismiss;
};

} // namespace redrive::ui
