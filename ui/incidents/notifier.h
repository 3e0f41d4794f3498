// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#pragma once

#include <QString>

#include <memory>

class QSystemTrayIcon;

namespace redrive::ui {

// Where the console's desktop notifications go: a seam, so tests observe what would be shown
// without a notification daemon or a system tray.
class Notifier {
public:
    virtual ~Notifier() = default;
    virtual void notify(const QString &title, const QString &body) = 0;
};

// The desktop: the system tray's balloon where there is a tray that shows messages, otherwise
// the freedesktop notification service (org.freedesktop.Notifications on the session bus),
// otherwise nothing (the badge on Dead letters still tells).
class DesktopNotifier final : public Notifier {
public:
    DesktopNotifier();
    ~DesktopNotifier() override;
    void notify(const QString &title, const QString &body) override;

private:
    std::unique_ptr<QSystemTrayIcon> m_tray;
};

} // namespace redrive::ui
