// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#include "overviewcontroller.h"

#include "connection/session.h"
#include "overview/overviewrange.h"
#include "overview/overviewview.h"
#include "query/opsstats.h"
#include "util/clock.h"

namespace redrive::ui {

OverviewController::OverviewController(
    Session *session, OverviewView *view, const Clock &clock, QObject *parent)
    : QObject(parent)
    , m_session(session)
    , m_view(view)
    , m_clock(clock)
{
    connect(m_view, &OverviewView::windowChanged, this, [this] {
        m_generation.advance();
        m_busy = false;
        refresh();
    });
}

void OverviewController::refresh()
{
    if (m_busy)
        return; // the previous refresh is still running; do not pile up aggregate queries
    m_busy = true;
    struct Read {
        Overview overview;
        std::optional<OverviewSpan> fitted; // when the range was sized to the data
    };
    const qint64 now = m_clock.nowMs();
    const qint64 chosen = m_view->windowMs();
    m_session->stats()->submit(
        this, &m_generation,
        [now, chosen](Db &db) -> Result<Read> {
            qint64 window = chosen;
            std::optional<OverviewSpan> fitted;
            if (window <= 0) {
                const auto stored = fetchStoredSpan(db);
                if (!stored)
                    return Failure(stored.error());
                fitted = fitOverviewSpan(stored->firstReceivedAt, now);
                window = fitted->ms;
            }
            auto overview = fetchOverview(db, now - window, now, 48);
            if (!overview)
                return Failure(overview.error());
            return Read { std::move(*overview), fitted };
        },
        [this](const Result<Read> &read) {
            m_busy = false;
            if (!read) {
                m_view->showError(tr("The overview could not be read: ") + read.error());
                return;
            }
            if (read->fitted)
                m_view->showFittedSpan(read->fitted->label);
            m_view->showOverview(read->overview, m_clock.nowMs());
            Q_EMIT refreshed();
        });
}

} // namespace redrive::ui
