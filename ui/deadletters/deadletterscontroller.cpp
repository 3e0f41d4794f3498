// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#include "deadletterscontroller.h"

#include "connection/session.h"
#include "deadletters/deadlettermodel.h"
#include "deadletters/deadlettersview.h"

#include <QTableView>

namespace redrive::ui {

DeadLettersController::DeadLettersController(Session *session, DeadLettersView *view, QObject *parent)
    : QObject(parent)
    , m_session(session)
    , m_view(view)
    , m_model(new DeadLetterModel(this))
    , m_table(view->table())
{
    m_table->setModel(m_model);
    m_view->setSummary(QString());
    connect(m_view, &DeadLettersView::groupActivated, this, [this](const QModelIndex &index) {
        if (const DeadLetterGroup *g = m_model->groupAt(index))
            Q_EMIT openEvents(groupFilter(*g));
    });
    // Replay the selected group: its dead deliveries, resolved by the receiver from the filter.
    m_view->setReplayAllowed(session->admin() && session->permissions().replay);
    connect(
        m_view, &DeadLettersView::replayGroupRequested, this, &DeadLettersController::replaySelectedGroup);
    m_view->setResolveAllowed(session->admin() && session->permissions().resolveDeliveries);
    connect(
        m_view, &DeadLettersView::resolveGroupRequested, this, &DeadLettersController::resolveSelectedGroup);
    connect(m_table->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
        &DeadLettersController::updateReplayGroup);
    connect(m_model, &QAbstractItemModel::modelReset, this, &DeadLettersController::updateReplayGroup);
    updateReplayGroup();
}

EventFilter DeadLettersController::groupFilter(const DeadLetterGroup &g)
{
    EventFilter f;
    f.destination = g.destination;
    f.category = g.category.name();
    f.deliveryStatus = toString(DeliveryStatus::Dead);
    return f;
}

void DeadLettersController::updateReplayGroup()
{
    const DeadLetterGroup *g = m_model->groupAt(m_table->selectionModel()->currentIndex());
    // Without a category the filter would also take the destination's other dead letters.
    const bool can = g && !g->category.isNull();
    m_view->setReplayEnabled(can,
        g && g->category.isNull()
            ? tr("This group has no recorded failure category; open its events and replay them "
                 "from there.")
            : tr("Preview and request a replay of this group's dead deliveries (Ctrl+R)."));
    m_view->setResolveEnabled(can);
}

void DeadLettersController::replaySelectedGroup()
{
    const DeadLetterGroup *g = m_model->groupAt(m_table->selectionModel()->currentIndex());
    if (g && !g->category.isNull() && m_session->admin() && m_session->permissions().replay)
        Q_EMIT replayRequested(groupFilter(*g));
}

void DeadLettersController::resolveSelectedGroup()
{
    const DeadLetterGroup *g = m_model->groupAt(m_table->selectionModel()->currentIndex());
    if (g && !g->category.isNull() && m_session->admin() && m_session->permissions().resolveDeliveries)
        Q_EMIT resolveRequested(groupFilter(*g));
}

void DeadLettersController::refresh()
{
    m_session->stats()->submit(
        this, &m_generation, [](Db &db) { return fetchDeadLetterGroups(db); },
        [this](Result<QList<DeadLetterGroup>> groups) {
            if (!groups) {
                m_view->setSummary(tr("Dead letters could not be read: ") + groups.error());
                return;
            }
            m_model->setGroups(std::move(*groups));
            m_table->resizeColumnsToContents();
            m_view->setSummary(m_model->rowCount() == 0
                    ? tr("No dead letters.")
                    : tr("%Ln dead letter(s) in %1. Press Enter or double-click a group to list its "
                         "events.",
                        nullptr, int(m_model->total()))
                          .arg(tr("%Ln group(s)", nullptr, m_model->rowCount())));
        });
}

} // namespace redrive::ui
