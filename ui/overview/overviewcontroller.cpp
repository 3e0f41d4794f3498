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
    struct Answer {
        std::optional<Overview> overview;
        std::optional<OverviewSpan> fitted; // when the range was sized to the data
        QString error;
    };
    const qint64 now = m_clock.nowMs();
    const qint64 chosen = m_view->windowMs();
    m_session->stats()->submit(
        this, &m_generation,
        [now, chosen](Db &db) {
            Answer a;
            qint64 window = chosen;
            if (window <= 0) {
                const auto stored = fetchStoredSpan(db);
                if (!stored) {
                    a.error = stored.error();
                    return a;
                }
                a.fitted = fitOverviewSpan(stored->firstReceivedAt, now);
                window = a.fitted->ms;
            }
            auto overview = fetchOverview(db, now - window, now, 48);
            a.error = overview.error();
            a.overview = std::move(overview).toOptional();
            return a;
        },
        [this](const Answer &a) {
            m_busy = false;
            if (!a.overview) {
                m_view->showError(QStringLiteral("The overview could not be read: ") + a.error);
                return;
            }
            if (a.fitted)
                m_view->showFittedSpan(a.fitted->label);
            m_view->showOverview(*a.overview, m_clock.nowMs());
            Q_EMIT refreshed();
        });
}

} // namespace redrive::ui
