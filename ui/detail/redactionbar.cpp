// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#include "redactionbar.h"

#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>

namespace redrive::ui {

RedactionBar::RedactionBar(QWidget *parent)
    : QWidget(parent)
    , m_text(new QLabel(this))
    , m_reveal(new QPushButton(tr("Reveal original…"), this))
{
    setObjectName(QStringLiteral("redactionBar"));
    m_text->setObjectName(QStringLiteral("redactionNote"));
    m_text->setTextFormat(Qt::PlainText);
    m_text->setWordWrap(true);
    m_reveal->setObjectName(QStringLiteral("revealButton"));
    m_reveal->setAccessibleName(tr("Reveal the original payload"));
    m_reveal->setToolTip(
        tr("Operators and auditors may see the original values, with a reason; the reveal is "
           "recorded in the audit log."));
    auto *row = new QHBoxLayout(this);
    row->setContentsMargins(0, 0, 0, 0);
    row->addWidget(m_text, 1);
    row->addWidget(m_reveal);
    connect(m_reveal, &QPushButton::clicked, this, [this] {
        if (m_eventId > 0 && m_canReveal)
            Q_EMIT revealRequested(m_eventId);
    });
    m_reveal->setVisible(false);
    setVisible(false);
}

void RedactionBar::showRedaction(const EventDetail &detail)
{
    m_eventId = detail.row.id;
    const bool redacted = !detail.redactedPaths.isEmpty();
    setVisible(redacted);
    if (!redacted)
        return;
    const QString text = tr("Redacted for every reader but the destinations: %1 (shown as \"[redacted]\").")
                             .arg(detail.redactedPaths.join(QStringLiteral(", ")));
    m_text->setText(text);
    m_text->setAccessibleName(text);
    m_reveal->setVisible(m_canReveal);
}

void RedactionBar::setCanReveal(bool can)
{
    m_canReveal = can;
    m_reveal->setVisible(can && isVisibleTo(parentWidget()));
}

} // namespace redrive::ui
