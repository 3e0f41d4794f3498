// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#include "approvalscontroller.h"

#include "approvals/approvalmodel.h"
#include "common/prompter.h"
#include "connection/session.h"

#include <QHBoxLayout>
#include <QHeaderView>
#include <QJsonArray>
#include <QLabel>
#include <QLayout>
#include <QPushButton>
#include <QTableView>
#include <QVBoxLayout>

namespace redrive::ui {

ApprovalsController::ApprovalsController(Session *session, QWidget *page, QObject *parent)
    : QObject(parent)
    , m_session(session)
    , m_container(new QWidget)
    , m_model(new ApprovalModel(this))
    , m_table(new QTableView(m_container))
    , m_summary(new QLabel(m_container))
    , m_approve(new QPushButton(QStringLiteral("Approve…"), m_container))
    , m_reject(new QPushButton(QStringLiteral("Reject…"), m_container))
{
    page->layout()->addWidget(m_container);
    m_table->setObjectName(QStringLiteral("approvalTable"));
    m_table->setModel(m_model);
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->setSelectionMode(QAbstractItemView::SingleSelection);
    m_table->verticalHeader()->hide();
    m_table->horizontalHeader()->setStretchLastSection(true);
    m_summary->setObjectName(QStringLiteral("approvalSummary"));
    m_summary->setTextFormat(Qt::PlainText);
    m_summary->setWordWrap(true);
    m_approve->setObjectName(QStringLiteral("approveButton"));
    m_reject->setObjectName(QStringLiteral("rejectButton"));
    auto *buttons = new QHBoxLayout;
    buttons->addStretch(1);
    buttons->addWidget(m_reject);
    buttons->addWidget(m_approve);
    auto *layout = new QVBoxLayout(m_container);
    layout->setContentsMargins(6, 6, 6, 6);
    layout->addWidget(m_summary);
    layout->addWidget(m_table, 1);
    layout->addLayout(buttons);
    connect(m_approve, &QPushButton::clicked, this, [this] { decide(true); });
    connect(m_reject, &QPushButton::clicked, this, [this] { decide(false); });
    connect(m_table->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
        &ApprovalsController::updateButtons);
    connect(m_model, &QAbstractItemModel::modelReset, this, &ApprovalsController::updateButtons);
    updateButtons();
}

ApprovalsController::~ApprovalsController()
{
    delete m_container;
}

void ApprovalsController::updateButtons()
{
    const QModelIndex current = m_table->selectionModel()->currentIndex();
    const bool can
        = m_session->permissions().approve && m_model->requestAt(current) && !m_model->isOwn(current);
    m_approve->setEnabled(can);
    m_reject->setEnabled(can);
    const QString why = m_model->isOwn(current)
        ? QStringLiteral("You requested this replay; another operator must decide it.")
        : QString();
    m_approve->setToolTip(why);
    m_reject->setToolTip(why);
}

void ApprovalsController::refresh()
{
    AdminClient *admin = m_session->admin();
    if (!admin)
        return;
    QUrlQuery query;
    query.addQueryItem(QStringLiteral("status"), QStringLiteral("pending_approval"));
    ApiReply *reply = admin->get(QStringLiteral("replays"), query);
    connect(reply, &ApiReply::finished, this, [this](const QJsonDocument &body, const ApiError &error) {
        if (!error.ok()) {
            m_summary->setText(QStringLiteral("Replay requests could not be read: ") + error.message);
            return;
        }
        QList<ReplayRequest> requests;
        for (const QJsonValue &v : body.object().value(QLatin1String("items")).toArray()) {
            ReplayRequest r = ReplayRequest::fromJson(v.toObject());
            if (r.status == u"pending_approval")
                requests.append(r);
        }
        const qint64 keep = m_model->requestAt(m_table->currentIndex())
            ? m_model->requestAt(m_table->currentIndex())->id
            : 0;
        m_model->setRequests(requests, m_session->user());
        for (int row = 0; row < m_model->rowCount(); ++row) {
            if (m_model->requestAt(m_model->index(row, 0))->id == keep)
                m_table->selectRow(row);
        }
        m_table->resizeColumnsToContents();
        m_summary->setText(requests.isEmpty()
                ? QStringLiteral("No replay requests are waiting for approval.")
                : QStringLiteral("%1 replay request(s) wait for a decision. Check the reason and the "
                                 "selection, then approve or reject with a reason of your own.")
                      .arg(requests.size()));
        Q_EMIT refreshed();
    });
}

void ApprovalsController::decide(bool approve)
{
    const ReplayRequest *r = m_model->requestAt(m_table->selectionModel()->currentIndex());
    AdminClient *admin = m_session->admin();
    if (!r || !admin || m_model->isOwn(m_table->selectionModel()->currentIndex())
        || !m_session->permissions().approve)
        return;
    const qint64 id = r->id;
    Prompter::Question q;
    q.title = approve ? QStringLiteral("Approve replay") : QStringLiteral("Reject replay");
    q.text = QStringLiteral("Replay #%1 requested by %2: %3.\nTheir reason: %4\n\n%5")
                 .arg(id)
                 .arg(r->requestedBy,
                     r->count == 1 ? QStringLiteral("1 delivery")
                                   : QStringLiteral("%1 deliveries").arg(r->count),
                     r->reason, r->effect);
    q.confirmLabel = approve ? QStringLiteral("Approve replay #%1").arg(id)
                             : QStringLiteral("Reject replay #%1").arg(id);
    q.askReason = true;
    const Prompter::Answer answer = Prompter::ask(m_container, q);
    if (!answer.confirmed || answer.reason.isEmpty())
        return;
    ApiReply *reply = admin->post(QStringLiteral("replays/%1/%2")
                                      .arg(id)
                                      .arg(approve ? QStringLiteral("approve") : QStringLiteral("reject")),
        QJsonObject { { QStringLiteral("reason"), answer.reason } });
    connect(
        reply, &ApiReply::finished, this, [this, id, approve](const QJsonDocument &, const ApiError &error) {
            if (!error.ok()) {
                m_summary->setText(QStringLiteral("Replay #%1 was not %2: %3")
                                       .arg(id)
                                       .arg(approve ? QStringLiteral("approved") : QStringLiteral("rejected"),
                                           error.message));
                return;
            }
            Q_EMIT decided(id, approve);
            refresh();
        });
}

} // namespace redrive::ui
