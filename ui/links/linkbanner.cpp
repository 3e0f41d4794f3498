// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#include "linkbanner.h"

#include "common/accessibleparts.h"
#include "common/statuspalette.h"

#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>

namespace redrive::ui {

LinkBanner::LinkBanner(QWidget *parent)
    : QFrame(parent)
    , m_text(new QLabel)
    , m_switch(new QPushButton)
    , m_dismiss(new QPushButton(tr("Dismiss")))
{
    setObjectName(QStringLiteral("linkBanner"));
    setStyleSheet(bannerStyle());
    m_text->setObjectName(QStringLiteral("linkMessage"));
    m_text->setTextFormat(Qt::PlainText); // profile names and destination names come from the link
    m_text->setWordWrap(true);
    speakAsStatus(m_text, tr("Opened link"));
    m_switch->setObjectName(QStringLiteral("linkSwitchButton"));
    m_switch->setAccessibleDescription(tr("Disconnects and connects with the profile the link names"));
    m_dismiss->setObjectName(QStringLiteral("linkDismissButton"));
    m_dismiss->setAccessibleName(tr("Dismiss the link message"));
    auto *row = new QHBoxLayout(this);
    row->setContentsMargins(6, 4, 6, 4);
    row->addWidget(m_text, 1);
    row->addWidget(m_switch);
    row->addWidget(m_dismiss);
    connect(m_switch, &QPushButton::clicked, this, &LinkBanner::switchRequested);
    connect(m_dismiss, &QPushButton::clicked, this, &LinkBanner::clear);
    hide();
}

void LinkBanner::showMessage(const QString &text, const QString &switchLabel)
{
    m_text->setText(text);
    m_switch->setText(QString(switchLabel).replace(u'&', QLatin1String("&&"))); // a name's '&' is no mnemonic
    m_switch->setAccessibleName(switchLabel);
    m_switch->setVisible(!switchLabel.isEmpty());
    show();
}

void LinkBanner::clear()
{
    m_text->clear();
    m_switch->hide();
    hide();
}

QString LinkBanner::text() const
{
    return m_text->text();
}

} // namespace redrive::ui
