// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#pragma once

#include <QString>

namespace redrive::ui {

// Sends one notification to org.freedesktop.Notifications on the session bus, without waiting
// for the answer. False when there is no session bus or no notification service on it. Built in
// a small library of its own so only it links Qt D-Bus.
bool sendFreedesktopNotification(const QString &appName, const QString &title, const QString &body);

} // namespace redrive::ui
