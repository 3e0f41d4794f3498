// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#include "incidentscontroller.h"

#include "api/adminclient.h"
#include "common/prompter.h"
#include "common/tablepage.h"
#include "connection/session.h"
#include "incidents/incidentmodel.h"
#include "incidents/incidentsview.h"
#include "incidents/notifier.h"

#include <QSettings>
#include <QTableView>
#include <QUrl>

#include <algorithm>
#include <utility>

namespace redrive::ui {

IncidentsController::IncidentsController(
    Session *session, IncidentsView *view, Notifier &notifier, QSettings &settings, QObject *parent)
    : QObject(parent)
    , m_session(session)
    , m_notifier(notifier)
    , m_settings(settings)
    // Per profile, in a group of its own beside the profile's keys, as saved views and audit trust are.
    , m_markKey(QLatin1String("incidents/")
          + QString::fromLatin1(QUrl::toPercentEncoding(session->profile().name))
          + QLatin1String("/announcedUpTo"))
    , m_announcedBefore(settings.value(m_markKey).toLongLong())
    , m_view(view)
    , m_model(new IncidentModel(this))
    , m_table(view->table())
{
    m_table->setModel(m_model);
    m_view->setSummary(tr("Incidents: reading…"));
    m_view->setAcknowledgeAllowed(session->admin() && session->permissions().acknowledgeIncidents);
    connect(m_view, &IncidentsView::acknowledgeRequested, this, &IncidentsController::acknowledgeSelected);
    TablePage::followCurrentRow(m_table, this, [this] { updateButtons(); });
    updateButtons();
}

void IncidentsController::updateButtons()
{
    const Incident *i = m_model->incidentAt(m_table->selectionModel()->currentIndex());
    const bool can = !m_busy && i && !i->acknowledged();
    m_view->setAcknowledgeEnabled(can);
}

void IncidentsController::refresh()
{
    m_session->stats()->submit(
        this, &m_generation, [](Db &db) { return fetchOpenIncidents(db); },
        [this](Result<QList<Incident>> incidents) {
            if (!incidents) {
                m_view->setSummary(
                    keepUnconfirmed(m_unconfirmed, tr("Incidents could not be read: ") + incidents.error()));
                return;
            }
            // The unconfirmed acknowledgement shows: its incident is acknowledged, or closed.
            if (std::none_of(incidents->cbegin(), incidents->cend(),
                    [this](const Incident &i) { return i.id == m_unconfirmedId && !i.acknowledged(); })) {
                m_unconfirmed.clear();
                m_unconfirmedId = 0;
            }
            m_model->setIncidents(std::move(*incidents));
            m_table->resizeColumnsToContents();
            const int open = m_model->rowCount();
            const int attention = m_model->unacknowledgedCount();
            m_view->setSummary(keepUnconfirmed(m_unconfirmed,
                open == 0 ? tr("No open incidents.")
                    : attention == 0
                    ? tr("%Ln open incident(s), all acknowledged.", nullptr, open)
                    : tr("%Ln open incident(s), %L1 not acknowledged yet. Select one and press Ctrl+K "
                         "to say you are on it.",
                        nullptr, open)
                          .arg(attention)));
            if (const qint64 wanted = std::exchange(m_wanted, 0)) {
                const QModelIndex at = m_model->indexOfIncident(wanted);
                if (at.isValid())
                    m_table->selectRow(at.row());
                Q_EMIT incidentShown(wanted, at.isValid());
            }
            announceNew();
            if (attention != m_attention) {
                m_attention = attention;
                Q_EMIT attentionCountChanged(attention);
            }
        });
}

// One notification per incident: a dead-letter group that appeared, or grew past the threshold
// after it was acknowledged (the receiver opens a new incident then). Growth of an incident
// people already heard about is not news; neither is one somebody has acknowledged, nor one at
// or below the mark an earlier console run left (it announced that one already).
void IncidentsController::announceNew()
{
    qint64 highest = 0;
    for (const Incident &i : m_model->incidents()) {
        if (i.acknowledged() || i.id <= m_announcedBefore || m_announced.contains(i.id))
            continue;
        m_announced.insert(i.id);
        highest = std::max(highest, i.id);
        const QString category = IncidentModel::categoryText(i.category);
        m_notifier.notify(tr("Redrive incident: %1 — %2").arg(i.destination, category),
            tr("%Ln dead letter(s) for %1 (%2) in %3. Open Dead letters to acknowledge it.", nullptr,
                int(i.count))
                .arg(i.destination, category, m_session->profile().name));
    }
    if (highest > 0)
        rememberAnnounced(highest);
}

// The mark only rises: another console on the same profile may have stored a higher one.
void IncidentsController::rememberAnnounced(qint64 id)
{
    if (id <= m_settings.value(m_markKey).toLongLong())
        return;
    m_settings.setValue(m_markKey, id);
    m_settings.sync();
}

void IncidentsController::showIncident(qint64 id)
{
    m_wanted = id;
    refresh();
}

void IncidentsController::acknowledgeSelected()
{
    const Incident *i = m_model->incidentAt(m_table->selectionModel()->currentIndex());
    AdminClient *admin = m_session->admin();
    if (m_busy || !i || i->acknowledged() || !admin || !m_session->permissions().acknowledgeIncidents)
        return;
    const qint64 id = i->id;
    Prompter::Question q;
    q.title = tr("Acknowledge incident");
    q.text = tr("Acknowledge incident #%1: %Ln dead letter(s) for %2 (%3)?\n\nEveryone sees that "
                "you are on it, with your note. You hear about it again if it grows by the "
                "receiver's threshold.",
        nullptr, int(i->count))
                 .arg(id)
                 .arg(i->destination, IncidentModel::categoryText(i->category));
    q.confirmLabel = tr("Acknowledge incident #%1").arg(id);
    q.askReason = true;
    q.reasonLabel = tr("Note (what you are doing about it; recorded in the audit log):");
    const Prompter::Answer answer = m_session->askBeforeActing(m_view, q);
    if (!answer.confirmed || answer.reason.trimmed().isEmpty())
        return;
    m_busy = true;
    m_unconfirmed.clear(); // acting again: this acknowledgement's outcome is what the page says next
    m_unconfirmedId = 0;
    updateButtons();
    m_view->setSummary(tr("Acknowledging incident #%1…").arg(id));
    ApiReply *reply = admin->acknowledgeIncident(id, answer.reason.trimmed());
    connect(reply, &ApiReply::finished, this, [this, id](const QJsonDocument &, const ApiError &error) {
        m_busy = false;
        if (!error.ok()) {
            // A hung receiver may still record it: say so rather than "was not acknowledged".
            const QString text = actionErrorText(error,
                tr("The acknowledgement of incident #%1 was not confirmed: ").arg(id),
                tr("Incident #%1 was not acknowledged: ").arg(id));
            if (error.outcomeUnknown) {
                m_unconfirmed = text;
                m_unconfirmedId = id;
            }
            m_view->setSummary(text);
            updateButtons();
            if (error.kind == ApiError::Kind::Conflict)
                refresh(); // someone else was quicker: show who
            return;
        }
        Q_EMIT acknowledged(id);
        refresh(); // the receiver committed before answering: read it back from the database
    });
}

} // namespace redrive::ui
