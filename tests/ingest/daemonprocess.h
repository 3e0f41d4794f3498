// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#pragma once

// Runs the real `redrived` binary for tests: its path, a free loopback port, config files, and
// a bounded wait for /healthz.

#include <QByteArray>
#include <QList>
#include <QProcess>
#include <QString>
#include <QStringList>

namespace redrive::test {

QString redrivedPath();
// A loopback port that was free a moment ago (bound to 0 and released).
quint16 freePort();
// `count` distinct loopback ports that were free a moment ago; empty if none could be bound.
QList<quint16> freePorts(int count);
// Runs redrived to completion (bounded); returns the exit code, or -1 on a crash or timeout.
int runRedrived(
    const QStringList &args, QByteArray *out = nullptr, QByteArray *err = nullptr, int timeoutMs = 30'000);
// Polls GET /healthz until it answers 200 or the process exits or the time is up.
bool waitHealthy(QProcess &process, quint16 port, int timeoutMs = 15'000);

} // namespace redrive::test
