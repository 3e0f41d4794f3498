// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#include "freedesktopnotify.h"

#include <QDBusConnection>
#include <QDBusConnectionInterface>
#include <QDBusMessage>
#include <QStringList>
#include <QVariantMap>

namespace redrive::ui {

bool sendFreedesktopNotification(const QString &appName, const QString &title, const QString &body)
{
    QDBusConnection bus = QDBusConnection::sessionBus();
    const QString service = QStringLiteral("org.freedesktop.Notifications");
    if (!bus.isConnected() || !bus.interface() || !bus.interface()->isServiceRegistered(service).value())
        return false;
    QDBusMessage call = QDBusMessage::createMethodCall(
        service, QStringLiteral("/org/freedesktop/Notifications"), service, QStringLiteral("Notify"));
    // Notify(app_name, replaces_id, app_icon, summary, body, actions, hints, expire_timeout).
    // The body may contain markup on some servers: escape what came from the database.
    call << appName << uint(0) << QStringLiteral("io.redrive.Console") << title << body.toHtmlEscaped()
         << QStringList() << QVariantMap() << int(-1);
    return bus.send(call);
}

} // namespace redrive::ui
