// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#include "destinationscontroller.h"

#include "api/adminclient.h"
#include "common/prompter.h"
#include "common/tablepage.h"
#include "common/timeformat.h"
#include "connection/session.h"
#include "destinations/destinationmodel.h"
#include "destinations/destinationsview.h"
#include "statusbar/replicacontroller.h"
#include "util/clock.h"

#include <QDateTime>
#include <QTableView>

#include <algorithm>
#include <utility>

namespace redrive::ui {

DestinationsController::DestinationsController(
    Session *session, DestinationsView *view, const Clock &clock, QObject *parent)
    : QObject(parent)
    , m_session(session)
    , m_clock(clock)
    , m_view(view)
    , m_model(new DestinationModel(this))
    , m_table(view->table())
    // Actions a role cannot take are not offered at all.
    , m_canManage(session->admin() && session->permissions().manageDestinations)
{
    m_table->setModel(m_model);
    m_view->setSummary(QString());
    m_view->setActionsAllowed(m_canManage);
    connect(m_view, &DestinationsView::pauseRequested, this, [this] { setPaused(true); });
    connect(m_view, &DestinationsView::resumeRequested, this, [this] { setPaused(false); });
    connect(m_view, &DestinationsView::closeCircuitRequested, this, &DestinationsController::closeCircuit);
    TablePage::followCurrentRow(m_table, this, [this] { updateButtons(); });
    updateButtons();
}

void DestinationsController::updateButtons()
{
    const DestinationStatus *d = m_model->destinationAt(m_table->selectionModel()->currentIndex());
    m_view->setSelectedDestination(
        d ? d->name : QString(), d && !d->paused, d && d->paused, d && d->circuitOpen);
}

void DestinationsController::showDestination(const QString &name)
{
    m_wanted = name;
    refresh();
}

void DestinationsController::refresh()
{
    if (!m_gate.enter())
        return;
    QStringList configured;
    if (const auto &schedules = m_session->retrySchedules()) {
        for (const DestinationConfig &d : schedules->destinations)
            configured.append(d.name);
    }
    const qint64 now = m_clock.nowMs();
    m_session->stats()->submit(
        this, &m_generation,
        [configured, now](Db &db) { return fetchDestinationStatuses(db, configured, now); },
        [this, now](Result<QList<DestinationStatus>> rows) {
            if (m_gate.leave()) {
                refresh(); // asked again while reading: this answer may already be stale
                return;
            }
            if (!rows) {
                m_view->setSummary(
                    keepUnconfirmed(m_unconfirmed, tr("Destinations could not be read: ") + rows.error()));
                return;
            }
            // The unconfirmed pause or resume shows: the destination is in the state asked for.
            if (std::none_of(rows->cbegin(), rows->cend(), [this](const DestinationStatus &d) {
                    return d.name == m_unconfirmedName && d.paused != m_unconfirmedPause;
                })) {
                m_unconfirmed.clear();
                m_unconfirmedName.clear();
            }
            const QString wanted = std::exchange(m_wanted, QString());
            const QString keep = !wanted.isEmpty() ? wanted
                : m_model->destinationAt(m_table->currentIndex())
                ? m_model->destinationAt(m_table->currentIndex())->name
                : QString();
            const bool firstFill = m_model->rowCount() == 0;
            m_model->setStatuses(std::move(*rows), now);
            if (const int row = m_model->rowOf(keep); row >= 0 && m_table->currentIndex().row() != row)
                m_table->selectRow(row);
            if (firstFill)
                m_view->fitColumns();
            const int paused = m_model->pausedCount();
            QString text = m_model->rowCount() == 0
                ? tr("No destinations yet: none has received a delivery, and the profile names no receiver "
                     "configuration.")
                : tr("%Ln destination(s); %1.", nullptr, m_model->rowCount())
                      .arg(paused ? tr("%L1 paused — their deliveries wait until resumed").arg(paused)
                                  : tr("none paused"));
            if (const QStringList open = m_model->openCircuits(); !open.isEmpty())
                text += QLatin1Char(' ')
                    + tr("%Ln circuit(s) open (%1): deliveries held, probing until the destination answers.",
                        nullptr, int(open.size()))
                          .arg(open.join(QStringLiteral(", ")));
            if (m_canManage)
                text += tr(" Select a destination to pause or resume it.");
            m_view->setSummary(keepUnconfirmed(m_unconfirmed, text));
            updateButtons();
            if (!wanted.isEmpty())
                Q_EMIT destinationShown(wanted, m_model->rowOf(wanted) >= 0);
            Q_EMIT refreshed();
        });
}

QList<std::optional<qint64>> DestinationsController::pauseEnds(qint64 nowMs)
{
    // The next 06:00 on this computer's clock: a night's maintenance window, the usual case.
    QDateTime six = QDateTime::fromMSecsSinceEpoch(nowMs);
    six.setTime(QTime(6, 0));
    if (six.toMSecsSinceEpoch() <= nowMs)
        six = six.addDays(1);
    return { std::nullopt, nowMs + 3'600'000, nowMs + 4LL * 3'600'000, six.toMSecsSinceEpoch() };
}

void DestinationsController::closeCircuit()
{
    const DestinationStatus *d = m_model->destinationAt(m_table->selectionModel()->currentIndex());
    AdminClient *admin = m_session->admin();
    if (!d || !admin || !m_session->permissions().manageDestinations || !d->circuitOpen)
        return;
    const QString name = d->name;
    Prompter::Question q;
    q.title = tr("Close circuit");
    q.text = tr(
        "Close the circuit of %1 without waiting for a probe?\n\nIts held deliveries (%Ln) are sent "
        "again at the destination's rate; if it still fails, the circuit opens again after its failures.",
        nullptr, int(d->backlog()))
                 .arg(name);
    q.confirmLabel = tr("Close circuit of %1").arg(name);
    q.askReason = true;
    const Prompter::Answer answer = m_session->askBeforeActing(m_view, q);
    if (!answer.confirmed || answer.reason.isEmpty())
        return;
    m_unconfirmed.clear();
    m_unconfirmedName.clear();
    m_view->setSelectedDestination(name, false, false, false);
    ApiReply *reply = admin->closeCircuit(name, answer.reason);
    connect(reply, &ApiReply::finished, this, [this, name](const QJsonDocument &, const ApiError &error) {
        if (!error.ok()) {
            m_view->setSummary(
                actionErrorText(error, tr("Closing the circuit of %1 was not confirmed: ").arg(name),
                    tr("The circuit of %1 was not closed: ").arg(name)));
            updateButtons();
            return;
        }
        afterReplicaShows(m_session, this, [this] {
            m_generation.advance();
            m_gate.abandon();
            refresh();
        });
    });
}

void DestinationsController::setPaused(bool pause)
{
    const DestinationStatus *d = m_model->destinationAt(m_table->selectionModel()->currentIndex());
    AdminClient *admin = m_session->admin();
    if (!d || !admin || !m_session->permissions().manageDestinations || d->paused == pause)
        return;
    const QString name = d->name;
    Prompter::Question q;
    q.title = pause ? tr("Pause destination") : tr("Resume destination");
    const qint64 waiting = d->backlog();
    const QString waitingText = waiting == 0 ? tr("none is waiting now")
        : waiting == 1                       ? tr("1 is waiting now")
                                             : tr("%Ln are waiting now", nullptr, int(waiting));
    q.text = pause
        ? tr("Pause deliveries to %1?\n\nNothing is sent to it until it is resumed; new events are "
             "still received and their deliveries wait (%2). Deliveries already in flight finish.")
              .arg(name, waitingText)
        : tr("Resume deliveries to %1?\n\nIts waiting deliveries are sent again at the "
             "destination's rate limit (%2).")
              .arg(name, waitingText);
    q.confirmLabel = pause ? tr("Pause %1").arg(name) : tr("Resume %1").arg(name);
    q.askReason = true;
    // A pause may end by itself: the receiver resumes the destination then.
    const qint64 now = m_clock.nowMs();
    const QList<std::optional<qint64>> ends = pauseEnds(now);
    if (pause) {
        q.choiceLabel = tr("R&esume:");
        q.choices = { tr("When someone resumes it"), tr("In 1 hour"), tr("In 4 hours"),
            tr("At 06:00 (%1)").arg(TimeFormat::display(*ends.at(3))) };
    }
    const Prompter::Answer answer = m_session->askBeforeActing(m_view, q);
    if (!answer.confirmed || answer.reason.isEmpty())
        return;
    const std::optional<qint64> until = pause ? ends.value(answer.choice) : std::nullopt;
    m_unconfirmed.clear(); // acting again: this change's outcome is what the page says next
    m_unconfirmedName.clear();
    m_view->setSelectedDestination(name, false, false);
    ApiReply *reply = pause ? admin->pauseDestination(name, answer.reason, until)
                            : admin->resumeDestination(name, answer.reason);
    connect(
        reply, &ApiReply::finished, this, [this, name, pause](const QJsonDocument &, const ApiError &error) {
            if (!error.ok()) {
                // A hung receiver may still record it: not "was not paused", which invites a retry.
                const QString text = actionErrorText(error,
                    (pause ? tr("Pausing %1 was not confirmed: ") : tr("Resuming %1 was not confirmed: "))
                        .arg(name),
                    (pause ? tr("%1 was not paused: ") : tr("%1 was not resumed: ")).arg(name));
                if (error.outcomeUnknown) {
                    m_unconfirmed = text;
                    m_unconfirmedName = name;
                    m_unconfirmedPause = pause;
                }
                m_view->setSummary(text);
                updateButtons();
                return;
            }
            Q_EMIT pausedChanged(name, pause);
            // The receiver committed the new state before answering: read it back from the database
            // once it shows there (a hot standby replays the change a little later).
            afterReplicaShows(m_session, this, [this] {
                m_generation.advance();
                m_gate.abandon();
                refresh();
            });
        });
}

} // namespace redrive::ui
