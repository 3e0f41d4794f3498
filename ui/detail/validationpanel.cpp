// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#include "validationpanel.h"

#include "common/plaintooltip.h"
#include "common/statuspalette.h"

#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QPushButton>
#include <QTreeWidget>
#include <QVBoxLayout>

namespace redrive::ui {

ValidationPanel::ValidationPanel(QWidget *parent)
    : QWidget(parent)
    , m_title(new QLabel)
    , m_errors(new QTreeWidget)
    , m_revalidate(new QPushButton(tr("Revalidate")))
    , m_status(new QLabel)
{
    setObjectName(QStringLiteral("validationPanel"));
    m_title->setObjectName(QStringLiteral("validationTitle"));
    m_title->setTextFormat(Qt::PlainText);
    m_title->setWordWrap(true);
    m_title->setStyleSheet(headingStyle());
    m_errors->setObjectName(QStringLiteral("validationErrors"));
    m_errors->setAccessibleName(tr("Schema validation errors"));
    m_errors->setAccessibleDescription(
        tr("Where in the body (a JSON pointer) and why the event does not match its schema"));
    m_errors->setRootIsDecorated(false);
    m_errors->setHeaderLabels({ tr("Where"), tr("What") });
    m_errors->header()->setStretchLastSection(true);
    m_errors->setMinimumHeight(70);
    m_revalidate->setObjectName(QStringLiteral("revalidateButton"));
    m_revalidate->setAccessibleName(tr("Revalidate this event"));
    m_revalidate->setToolTip(
        tr("Check the event again against the schema the receiver has now; if it passes it "
           "leaves quarantine and is delivered"));
    m_status->setObjectName(QStringLiteral("revalidateStatus"));
    m_status->setTextFormat(Qt::PlainText);
    m_status->setWordWrap(true);
    connect(m_revalidate, &QPushButton::clicked, this, [this] {
        if (m_eventId > 0)
            Q_EMIT revalidateRequested(m_eventId);
    });

    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_title);
    layout->addWidget(m_errors);
    auto *row = new QHBoxLayout;
    row->addWidget(m_status, 1);
    row->addWidget(m_revalidate);
    layout->addLayout(row);
    m_revalidate->hide();
    hide();
}

void ValidationPanel::showValidation(const EventDetail &detail)
{
    if (detail.row.id != m_eventId)
        m_status->clear(); // a finished revalidation's message was about the previous event
    m_eventId = detail.row.id;
    const bool quarantined = detail.row.status == EventStatus::Invalid;
    m_errors->clear();
    for (const validation::ValidationError &e : detail.validationErrors) {
        // Pointers and messages quote the sender's body: plain text only (QTreeWidget never
        // renders markup).
        auto *item = new QTreeWidgetItem(
            m_errors, { e.pointer.isEmpty() ? tr("(the whole body)") : e.pointer, e.message });
        item->setToolTip(1, plainToolTip(e.message));
    }
    m_title->setText(tr("Quarantined: the body does not match its schema (%Ln error(s)). It is "
                        "stored and not delivered.",
        nullptr, int(detail.validationErrors.size())));
    m_revalidate->setVisible(m_canRevalidate && quarantined);
    setVisible(quarantined || !detail.validationErrors.isEmpty());
}

void ValidationPanel::setCanRevalidate(bool can)
{
    m_canRevalidate = can;
    m_revalidate->setVisible(can && isVisible());
}

void ValidationPanel::setBusy(bool busy, const QString &message)
{
    m_revalidate->setEnabled(!busy);
    m_status->setText(message);
}

} // namespace redrive::ui
