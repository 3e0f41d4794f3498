// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#include "detailcontroller.h"

#include "api/adminclient.h"
#include "common/filechooser.h"
#include "connection/session.h"
#include "detail/eventdetailview.h"
#include "detail/evidenceexport.h"
#include "detail/keylinks.h"
#include "detail/redactionbar.h"
#include "detail/revealdialog.h"
#include "detail/validationpanel.h"
#include "query/eventdetail.h"
#include "statusbar/replicacontroller.h"
#include "util/clock.h"

#include <QJsonDocument>
#include <QJsonObject>
#include <QPointer>

namespace redrive::ui {

DetailController::DetailController(
    Session *session, EventDetailView *view, const Clock &clock, QObject *parent)
    : QObject(parent)
    , m_session(session)
    , m_view(view)
    , m_clock(clock)
    , m_evidence(new EvidenceExport(session, this))
{
    m_view->setCanAddNotes(session->admin() && session->permissions().addNotes);
    connect(m_view, &EventDetailView::noteSubmitted, this, &DetailController::addNote);
    // The receiver builds and signs evidence, so it needs the admin API.
    m_view->setCanExportEvidence(session->admin() && session->permissions().exportEvidence);
    connect(m_view, &EventDetailView::exportEvidenceRequested, this, &DetailController::exportEvidence);
    m_view->setCanReplay(session->admin() && session->permissions().replay);
    connect(
        m_view, &EventDetailView::replayDeliveryRequested, this, &DetailController::replayDeliveryRequested);
    m_view->setCanResolve(session->admin() && session->permissions().resolveDeliveries);
    connect(m_view, &EventDetailView::resolveDeliveryRequested, this,
        &DetailController::resolveDeliveryRequested);
    m_view->validationPanel()->setCanRevalidate(session->admin() && session->permissions().revalidateEvents);
    connect(m_view->validationPanel(), &ValidationPanel::revalidateRequested, this,
        &DetailController::revalidate);
    m_view->redactionBar()->setCanReveal(session->admin() && session->permissions().revealPayload);
    connect(m_view->redactionBar(), &RedactionBar::revealRequested, this, &DetailController::reveal);
    connect(m_view->keyLinks(), &KeyLinks::searchRequested, this, &DetailController::keySearchRequested);
    connect(m_evidence, &EvidenceExport::progress, this,
        [this](const QString &text) { m_view->setEvidenceStatus(true, text); });
    connect(m_evidence, &EvidenceExport::finished, this, [this](bool ok, const QString &text) {
        m_view->setEvidenceStatus(false, text);
        Q_EMIT evidenceExported(ok, text);
    });
}

DetailController::~DetailController()
{
    // The view outlives this controller (it belongs to the main window).
    m_view->setCanExportEvidence(false);
    m_view->setEvidenceStatus(false, QString());
    m_view->setCanReplay(false);
    m_view->setCanResolve(false);
    m_view->validationPanel()->setCanRevalidate(false);
    m_view->redactionBar()->setCanReveal(false);
}

void DetailController::reveal(qint64 eventId)
{
    if (eventId <= 0 || !m_session->admin() || !m_session->permissions().revealPayload)
        return;
    auto *dialog = new RevealDialog(eventId, m_view);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    connect(dialog, &RevealDialog::revealAsked, this, [this, dialog, eventId](const QString &reason) {
        AdminClient *admin = m_session->admin();
        if (!admin)
            return;
        dialog->setBusy(true, tr("Asking the receiver…"));
        ApiReply *reply = admin->revealEvent(eventId, reason);
        const QPointer<RevealDialog> alive(dialog);
        connect(reply, &ApiReply::finished, this, [alive](const QJsonDocument &doc, const ApiError &error) {
            if (!alive)
                return; // closed meanwhile: the original is dropped with the answer
            if (!error.ok()) {
                alive->showError(actionErrorText(
                    error, tr("The reveal was not confirmed: "), tr("The original was not revealed: ")));
                return;
            }
            const QJsonObject o = doc.object();
            const QJsonValue text = o.value(QLatin1String("body"));
            alive->showOriginal(text.isString()
                    ? text.toString()
                    : QString::fromUtf8(
                        QByteArray::fromBase64(o.value(QLatin1String("body_base64")).toString().toLatin1())));
        });
    });
    dialog->open();
}

void DetailController::exportEvidence(qint64 eventId)
{
    if (eventId <= 0 || m_evidence->busy() || !m_session->admin() || !m_session->permissions().exportEvidence)
        return;
    const QString path = FileChooser::saveFileName(m_view, tr("Export evidence for event %1").arg(eventId),
        QStringLiteral("redrive-evidence-event-%1.json").arg(eventId), tr("JSON files (*.json)"));
    if (path.isEmpty())
        return;
    m_evidence->start(eventId, path);
}

void DetailController::showEvent(qint64 eventId)
{
    if (eventId != m_eventId && !m_evidence->busy())
        m_view->setEvidenceStatus(
            false, QString()); // a finished export's message was about the previous event
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
    m_session->events()->submit(
        this, &m_generation, [id = m_eventId](Db &db) { return fetchEventDetail(db, id); },
        [this](const Result<std::optional<EventDetail>> &detail) {
            if (!detail) {
                m_view->showError(tr("The event could not be read: %1").arg(detail.error()));
                return;
            }
            if (!*detail) {
                m_view->showError(
                    tr("Event %1 no longer exists (retention may have removed it).").arg(m_eventId));
                Q_EMIT missing(m_eventId);
                return;
            }
            m_view->showDetail(**detail, m_clock.nowMs(), m_session->retrySchedules());
            Q_EMIT loaded(m_eventId);
        });
}

void DetailController::addNote(qint64 eventId, const QString &text)
{
    AdminClient *admin = m_session->admin();
    if (!admin)
        return;
    m_view->setNoteBusy(true, tr("Saving…"));
    ApiReply *reply = admin->addEventNote(eventId, text);
    connect(reply, &ApiReply::finished, this, [this, eventId](const QJsonDocument &, const ApiError &error) {
        if (!error.ok()) {
            // A hung receiver may still commit the note: neither saved nor refused, so the page says
            // so (Refresh shows whether it landed) rather than inviting a second copy.
            m_view->setNoteBusy(false,
                actionErrorText(error, tr("The note was not confirmed: "), tr("The note was not saved: ")));
            return;
        }
        m_view->setNoteBusy(false);
        afterReplicaShows(m_session, this, [this, eventId] {
            if (eventId == m_eventId)
                reload();
        });
    });
}

void DetailController::revalidate(qint64 eventId)
{
    AdminClient *admin = m_session->admin();
    if (!admin || !m_session->permissions().revalidateEvents)
        return;
    ValidationPanel *panel = m_view->validationPanel();
    panel->setBusy(true, tr("Checking against the receiver's schema…"));
    ApiReply *reply = admin->revalidateEvent(eventId);
    connect(reply, &ApiReply::finished, this,
        [this, eventId, panel](const QJsonDocument &doc, const ApiError &error) {
            if (!error.ok()) {
                panel->setBusy(false,
                    actionErrorText(error, tr("The revalidation was not confirmed: "),
                        tr("The event was not revalidated: ")));
                return;
            }
            const QJsonObject o = doc.object();
            const int deliveries = o.value(QLatin1String("deliveries_created")).toInt();
            panel->setBusy(false,
                o.value(QLatin1String("valid")).toBool()
                    ? tr("It passes the schema now: released from quarantine with %Ln deliver(y|ies).",
                        nullptr, deliveries)
                    : tr("Still invalid against the receiver's schema (%Ln error(s)); the list shows "
                         "them as checked now.",
                        nullptr, o.value(QLatin1String("errors")).toInt()));
            afterReplicaShows(m_session, this, [this, eventId] {
                if (eventId == m_eventId)
                    reload();
            });
        });
}

void DetailController::showEventAttempt(qint64 eventId, qint64 replayId)
{
    disconnect(m_attemptFocus);
    showEvent(eventId);
    // One-shot: the next load of this event selects the attempt; a load of any other event
    // (the user moved on) only drops the wish.
    m_attemptFocus
        = connect(this, &DetailController::loaded, this, [this, eventId, replayId](qint64 loadedId) {
              disconnect(m_attemptFocus);
              if (loadedId == eventId)
                  m_view->selectReplayAttempt(replayId);
          });
}

} // namespace redrive::ui
