// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#pragma once

#include "domain/types.h"

#include <QList>
#include <QWidget>

class QHBoxLayout;
class QPushButton;

namespace redrive::ui {

// The business keys of one event ("order: 1042"), each a button that searches the events for
// that key's value. Passive: the owner connects `searchRequested`. Values come from webhooks and
// are shown as plain text.
class KeyLinks final : public QWidget {
    Q_OBJECT
public:
    explicit KeyLinks(QWidget *parent = nullptr);

    // Hidden when `keys` is empty.
    void setKeys(const QList<EventKey> &keys);
    [[nodiscard]] const QList<EventKey> &keys() const { return m_keys; }

Q_SIGNALS:
    // The search text for one key: "order:1042".
    void searchRequested(const QString &search);

private:
    QHBoxLayout *m_row;
    QList<QPushButton *> m_buttons;
    QList<EventKey> m_keys;
};

} // namespace redrive::ui
