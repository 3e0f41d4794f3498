// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#include "deadletterscontroller.h"

#include "common/tablepage.h"
#include "connection/session.h"
#include "deadletters/deadlettermodel.h"

#include <QAction>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QPushButton>
#include <QTableView>
#include <QVBoxLayout>

namespace redrive::ui {

DeadLettersController::DeadLettersController(Session *session, QWidget *page, QObject *parent)
    : QObject(parent)
    , m_session(session)
    , m_container(new TablePage(
          QStringLiteral("deadLetterTable"), QStringLiteral("Dead letters by category and destination")))
    , m_model(new DeadLetterModel(this))
    , m_table(m_container->table())
    , m_summary(m_container->status())
    , m_replayGroup(new QPushButton(QStringLiteral("Replay group…"), m_container))
{
    page->layout()->addWidget(m_container);
    m_table->setModel(m_model);
    m_summary->setObjectName(QStringLiteral("deadLetterSummary"));
    auto open = [this](const QModelIndex &index) {
        if (const DeadLetterGroup *g = m_model->groupAt(index))
            Q_EMIT openEvents(groupFilter(*g));
    };
    // Enter and double-click both activate (the style decides which click does).
    connect(m_table, &QTableView::activated, this, open);

    // Replay the selected group: its dead deliveries, resolved by the receiver from the filter.
    const bool canReplay = session->admin() && session->permissions().replay;
    m_replayGroup->setObjectName(QStringLiteral("replayGroupButton"));
    m_replayGroup->setAccessibleName(QStringLiteral("Replay the selected dead-letter group"));
    m_replayGroup->setVisible(canReplay);
    m_container->addButton(m_replayGroup);
    if (canReplay) {
        auto *action = new QAction(QStringLiteral("Replay group…"), m_table);
        action->setObjectName(QStringLiteral("replayGroupAction"));
        action->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_R));
        action->setShortcutContext(Qt::WidgetShortcut);
        m_table->addAction(action);
        m_table->setContextMenuPolicy(Qt::ActionsContextMenu);
        connect(action, &QAction::triggered, this, &DeadLettersController::replaySelectedGroup);
        connect(m_replayGroup, &QPushButton::clicked, this, &DeadLettersController::replaySelectedGroup);
    }
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
    m_replayGroup->setEnabled(can);
    m_replayGroup->setToolTip(g && g->category.isNull()
            ? QStringLiteral("This group has no recorded failure category; open its events and replay them "
                             "from there.")
            : QStringLiteral("Preview and request a replay of this group's dead deliveries (Ctrl+R)."));
    for (QAction *a : m_table->actions())
        a->setEnabled(can);
}

void DeadLettersController::replaySelectedGroup()
{
    const DeadLetterGroup *g = m_model->groupAt(m_table->selectionModel()->currentIndex());
    if (g && !g->category.isNull() && m_session->admin() && m_session->permissions().replay)
        Q_EMIT replayRequested(groupFilter(*g));
}

DeadLettersController::~DeadLettersController()
{
    delete m_container;
}

void DeadLettersController::refresh()
{
    struct Answer {
        QList<DeadLetterGroup> groups;
        QString error;
    };
    m_session->stats()->submit(
        this, &m_generation,
        [](Db &db) {
            Answer a;
            if (auto g = fetchDeadLetterGroups(db))
                a.groups = std::move(*g);
            else
                a.error = g.error();
            return a;
        },
        [this](Answer a) {
            if (!a.error.isEmpty()) {
                m_summary->setText(QStringLiteral("Dead letters could not be read: ") + a.error);
                return;
            }
            m_model->setGroups(std::move(a.groups));
            m_table->resizeColumnsToContents();
            m_summary->setText(m_model->rowCount() == 0
                    ? QStringLiteral("No dead letters.")
                    : QStringLiteral("%L1 dead letters in %2 groups. Press Enter or double-click a group "
                                     "to list its events.")
                          .arg(m_model->total())
                          .arg(m_model->rowCount()));
        });
}

} // namespace redrive::ui
