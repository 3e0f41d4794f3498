// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#include "keylinks.h"

#include "common/plaintooltip.h"

#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>

namespace redrive::ui {

KeyLinks::KeyLinks(QWidget *parent)
    : QWidget(parent)
    , m_row(new QHBoxLayout(this))
{
    setObjectName(QStringLiteral("eventKeys"));
    setAccessibleName(tr("Business keys"));
    m_row->setContentsMargins(0, 0, 0, 0);
    auto *title = new QLabel(tr("Keys:"), this);
    m_row->addWidget(title);
    m_row->addStretch(1);
    setVisible(false);
}

void KeyLinks::setKeys(const QList<EventKey> &keys)
{
    qDeleteAll(m_buttons);
    m_buttons.clear();
    m_keys = keys;
    for (const EventKey &key : keys) {
        // A button's text treats '&' as a mnemonic marker: doubled, it shows as itself.
        QString shown = key.name + QStringLiteral(": ") + key.value;
        auto *button = new QPushButton(shown.replace(u'&', QStringLiteral("&&")), this);
        button->setObjectName(QStringLiteral("keyLink_") + key.name);
        button->setFlat(true);
        m_row->insertWidget(m_row->count() - 1, button); // before the stretch
        m_buttons.append(button);
        if (key.value == kRedactedText) {
            // Redacted for everyone: nothing to search by from here (the value is not known).
            button->setEnabled(false);
            button->setAccessibleName(tr("%1 is redacted").arg(key.name));
            button->setToolTip(
                plainToolTip(tr("The source redacts this value; searching by it still works.")));
            continue;
        }
        button->setCursor(Qt::PointingHandCursor);
        button->setAccessibleName(tr("Search events with %1 %2").arg(key.name, key.value));
        button->setToolTip(plainToolTip(tr("Find every event whose %1 is %2").arg(key.name, key.value)));
        const QString search = key.name + u':' + key.value;
        connect(button, &QPushButton::clicked, this, [this, search] { Q_EMIT searchRequested(search); });
    }
    setVisible(!keys.isEmpty());
}

} // namespace redrive::ui
