// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#pragma once

#include "util/result.h"

#include <QObject>

class QSocketNotifier;

namespace redrive::daemon {

// Turns SIGTERM and SIGINT into a Qt signal on the main thread (self-pipe: the handler only
// writes one byte, everything else happens in the event loop).
class SignalWatcher final : public QObject {
    Q_OBJECT

public:
    explicit SignalWatcher(QObject *parent = nullptr);
    ~SignalWatcher() override;

    Result<> install();

Q_SIGNALS:
    void terminationRequested(int signal);

private:
    void readSignal();
    QSocketNotifier *m_notifier = nullptr;
};

} // namespace redrive::daemon
