// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#pragma once

#include "common/dbexecutor.h"

#include <QObject>

namespace redrive {
class Clock;
}

namespace redrive::ui {

class OverviewView;
class Session;

// Reads the overview aggregates on the stats thread; refreshed by the main controller while
// the page is visible.
class OverviewController final : public QObject {
    Q_OBJECT
public:
    OverviewController(Session *session, OverviewView *view, const Clock &clock, QObject *parent = nullptr);
    void refresh();

Q_SIGNALS:
    void refreshed();

private:
    Session *m_session;
    OverviewView *m_view;
    const Clock &m_clock;
    Generation m_generation;
    bool m_busy = false;
};

} // namespace redrive::ui
