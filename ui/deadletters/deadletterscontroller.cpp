// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#include "deadletterscontroller.h"

#include "connection/session.h"
#include "deadletters/deadlettermodel.h"

#include <QHeaderView>
#include <QLabel>
#include <QTableView>
#include <QVBoxLayout>

namespace redrive::ui {

DeadLettersController::DeadLettersController(Session *session, QWidget *page, QObject *parent)
    : QObject(parent)
    , m_session(session)
    , m_container(new QWidget)
    , m_model(new DeadLetterModel(this))
    , m_table(new QTableView(m_container))
    , m_summary(new QLabel(m_container))
{
    page->layout()->addWidget(m_container);
    m_table->setObjectName(QStringLiteral("deadLetterTable"));
    m_table->setModel(m_model);
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->setSelectionMode(QAbstractItemView::SingleSelection);
    m_table->verticalHeader()->hide();
    m_table->horizontalHeader()->setStretchLastSection(true);
    m_table->setAlternatingRowColors(true);
    m_summary->setObjectName(QStringLiteral("deadLetterSummary"));
    m_summary->setTextFormat(Qt::PlainText);
    auto *layout = new QVBoxLayout(m_container);
    layout->setContentsMargins(6, 6, 6, 6);
    layout->addWidget(m_summary);
    layout->addWidget(m_table, 1);
    auto open = [this](const QModelIndex &index) {
        const DeadLetterGroup *g = m_model->groupAt(index);
        if (!g)
            return;
        EventFilter f;
        f.destination = g->destination;
        f.category = g->category;
        f.deliveryStatus = QStringLiteral("dead");
        Q_EMIT openEvents(f);
    };
    // Enter and double-click both activate (the style decides which click does).
    connect(m_table, &QTableView::activated, this, open);
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
            if (auto g = fetchDeadLetterGroups(db, &a.error))
                a.groups = std::move(*g);
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
