// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#include "detailcontroller.h"

#include "connection/session.h"
#include "detail/eventdetailview.h"
#include "query/eventdetail.h"
#include "util/clock.h"

#include <QJsonObject>

namespace redrive::ui {

DetailController::DetailController(Session *session, EventDetailView *view, const Clock &clock, QObject *parent)
    : QObject(parent)
    , m_session(session)
    , m_view(view)
    , m_clock(clock)
{
    m_view->setCanAddNotes(session->admin() && session->permissions().addNotes);
    connect(m_view, &EventDetailView::noteSubmitted, this, &DetailController::addNote);
}

void DetailController::showEvent(qint64 eventId)
{
    m_generation.advance();
    m_eventId = eventId;
    if (eventId <= 0) {
        m_view->showEmpty();
        return;
    }
    m_view->showLoading(eventId);
    reload();
}

void DetailController::reload()
{
    if (m_eventId <= 0)
        return;
    struct Answer {
        std::optional<EventDetail> detail;
        QString error;
    };
    m_session->events()->submit(
        this, &m_generation,
        [id = m_eventId](Db &db) {
            Answer a;
            a.detail = fetchEventDetail(db, id, &a.error);
            return a;
        },
        [this](const Answer &a) {
            if (!a.detail) {
                m_view->showError(a.error.isEmpty()
                                      ? QStringLiteral("Event %1 no longer exists (retention may have removed it).").arg(m_eventId)
                                      : QStringLiteral("The event could not be read: ") + a.error);
                return;
            }
            m_view->showEvent(*a.detail, m_clock.nowMs(), m_session->retrySchedules());
            Q_EMIT loaded(m_eventId);
        });
}

void DetailController::addNote(qint64 eventId, const QString &text)
{
    AdminClient *admin = m_session->admin();
    if (!admin)
        return;
    m_view->setNoteBusy(true, QStringLiteral("Saving…"));
    ApiReply *reply = admin->post(QStringLiteral("events/%1/notes").arg(eventId), QJsonObject{{QStringLiteral("body"), text}});
    connect(reply, &ApiReply::finished, this, [this, eventId](const QJsonDocument &, const ApiError &error) {
        if (!error.ok()) {
            m_view->setNoteBusy(false, QStringLiteral("The note was not saved: ") + error.message);
            return;
        }
        m_view->setNoteBusy(false);
        if (eventId == m_eventId)
            reload();
    });
}

} // namespace redrive::ui
