// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#include "notifier.h"

#include "incidents/freedesktopnotify.h"

#include <QIcon>
#include <QSystemTrayIcon>

namespace redrive::ui {

DesktopNotifier::DesktopNotifier() = default;
DesktopNotifier::~DesktopNotifier() = default;

void DesktopNotifier::notify(const QString &title, const QString &body)
{
    if (QSystemTrayIcon::isSystemTrayAvailable() && QSystemTrayIcon::supportsMessages()) {
        if (!m_tray) {
            m_tray
                = std::make_unique<QSystemTrayIcon>(QIcon(QStringLiteral(":/icons/io.redrive.Console.svg")));
            m_tray->setToolTip(QStringLiteral("Redrive"));
            m_tray->show();
        }
        m_tray->showMessage(title, body, QSystemTrayIcon::Warning);
        return;
    }
    sendFreedesktopNotification(QStringLiteral("Redrive"), title, body);
}

} // namespace redrive::ui
