// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#include "newreplaycontroller.h"

#include "connection/session.h"
#include "newreplay/replaydialog.h"

#include <QJsonArray>

namespace redrive::ui {

NewReplayController::NewReplayController(Session *session, QWidget *parentWindow, QObject *parent)
    : QObject(parent)
    , m_session(session)
    , m_parentWindow(parentWindow)
{ }

ReplayDialog *NewReplayController::dialog() const
{
    return m_dialog.data();
}

void NewReplayController::replayDeliveries(const QList<qint64> &deliveryIds, const QList<qint64> &succeeded)
{
    if (deliveryIds.isEmpty() && succeeded.isEmpty())
        return;
    if (!openDialog())
        return;
    m_proposed = deliveryIds;
    m_succeeded = succeeded;
    m_includeSucceeded = false;
    connect(m_dialog, &ReplayDialog::includeSucceededChanged, this, [this](bool include) {
        m_includeSucceeded = include;
        previewDeliveries();
    });
    previewDeliveries();
}

void NewReplayController::previewDeliveries()
{
    if (!m_dialog)
        return;
    m_dialog->offerSucceeded(int(m_succeeded.size()), m_includeSucceeded);
    QList<qint64> ids = m_proposed;
    if (m_includeSucceeded)
        ids += m_succeeded;
    if (ids.isEmpty()) {
        ++m_previewGeneration; // an answer still on its way would describe the other choice
        m_selectionHash.clear();
        m_dialog->showNothingProposed();
        return;
    }
    std::sort(ids.begin(), ids.end());
    QJsonArray array;
    for (qint64 id : std::as_const(ids))
        array.append(id);
    preview(QJsonObject { { QStringLiteral("delivery_ids"), array } }, deliveriesText(ids.size()));
}

void NewReplayController::replayFilter(const EventFilter &filter)
{
    if (!openDialog())
        return;
    preview(QJsonObject { { QStringLiteral("filter"), filter.toJsonObject() } },
        tr("everything the filter matches"));
}

bool NewReplayController::openDialog()
{
    if (!m_session->admin() || !m_session->permissions().replay)
        return false;
    delete m_dialog.data();
    const ConnectionProfile &p = m_session->profile();
    m_dialog = new ReplayDialog(p.environment, p.colour, p.name, m_parentWindow);
    m_dialog->setAttribute(Qt::WA_DeleteOnClose);
    connect(m_dialog, &ReplayDialog::submitted, this, &NewReplayController::submit);
    m_selectionHash.clear();
    m_dialog->open();
    return true;
}

void NewReplayController::preview(const QJsonObject &previewBody, const QString &what)
{
    AdminClient *admin = m_session->admin();
    if (!admin || !m_dialog)
        return;
    m_selectionHash.clear();
    m_dialog->showLoading(what);
    const quint64 generation = ++m_previewGeneration;
    ApiReply *reply = admin->previewReplay(previewBody);
    QPointer<ReplayDialog> dialog = m_dialog;
    connect(reply, &ApiReply::finished, this,
        [this, dialog, generation](const QJsonDocument &body, const ApiError &error) {
            if (!dialog || dialog != m_dialog || generation != m_previewGeneration)
                return;
            if (!error.ok()) {
                dialog->showError(tr("No preview: ") + error.message);
                return;
            }
            const auto preview = ReplayPreview::fromJson(body.object());
            if (!preview) {
                dialog->showError(preview.error());
                return;
            }
            m_selectionHash = preview->selectionHash;
            dialog->showPreview(*preview);
        });
}

void NewReplayController::submit(const QString &reason, const QString &ticket)
{
    AdminClient *admin = m_session->admin();
    if (!admin || !m_dialog || m_selectionHash.isEmpty())
        return;
    m_dialog->setBusy(true);
    ApiReply *reply = admin->createReplay(m_selectionHash, reason, ticket);
    QPointer<ReplayDialog> dialog = m_dialog;
    connect(
        reply, &ApiReply::finished, this, [this, dialog](const QJsonDocument &answer, const ApiError &error) {
            if (!dialog)
                return;
            if (!error.ok()) {
                dialog->showError(error.kind == ApiError::Kind::Conflict ? error.message
                            + tr(" Close this dialog and start the replay again for a fresh preview.")
                                                                         : error.message);
                return;
            }
            const QJsonObject replay = answer.object();
            Q_EMIT requested(replay.value(QLatin1String("id")).toInteger(),
                Stored<ReplayStatus>::fromName(replay.value(QLatin1String("status")).toString()));
            dialog->accept();
        });
}

} // namespace redrive::ui
