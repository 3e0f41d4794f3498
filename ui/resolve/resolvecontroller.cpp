// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#include "resolvecontroller.h"

#include "connection/session.h"
#include "resolve/resolvedialog.h"

#include <QJsonArray>
#include <QMap>

namespace redrive::ui {
namespace {

QString skippedInWords(const QJsonArray &skipped)
{
    QMap<QString, int> byReason;
    for (const auto &v : skipped)
        ++byReason[v.toObject().value(QLatin1String("reason")).toString()];
    QStringList parts;
    for (auto it = byReason.cbegin(); it != byReason.cend(); ++it) {
        if (it.key() == u"not_dead")
            parts.append(ResolveController::tr("%Ln not a dead letter", nullptr, it.value()));
        else if (it.key() == u"queued_by_replay")
            parts.append(ResolveController::tr("%Ln queued by a replay", nullptr, it.value()));
        else
            parts.append(QStringLiteral("%1 %2").arg(it.value()).arg(it.key()));
    }
    return parts.join(QLatin1String(", "));
}

QJsonArray idArray(const QList<qint64> &ids)
{
    QJsonArray out;
    for (qint64 id : ids)
        out.append(id);
    return out;
}

} // namespace

ResolveController::ResolveController(Session *session, QWidget *parentWindow, QObject *parent)
    : QObject(parent)
    , m_session(session)
    , m_parentWindow(parentWindow)
{ }

ResolveDialog *ResolveController::dialog() const
{
    return m_dialog.data();
}

void ResolveController::resolveDeliveries(const QList<qint64> &deliveryIds)
{
    if (deliveryIds.isEmpty() || !openDialog())
        return;
    QList<qint64> ids = deliveryIds;
    std::sort(ids.begin(), ids.end());
    ids.resize(std::unique(ids.begin(), ids.end()) - ids.begin());
    dryRun(QJsonObject { { QStringLiteral("delivery_ids"), idArray(ids) } },
        tr("%Ln selected deliver(y|ies)", nullptr, int(ids.size())));
}

void ResolveController::resolveFilter(const EventFilter &filter)
{
    if (!openDialog())
        return;
    dryRun(QJsonObject { { QStringLiteral("filter"), filter.toJsonObject() } },
        tr("the deliveries the filter matches"));
}

bool ResolveController::openDialog()
{
    if (!m_session->admin() || !m_session->permissions().resolveDeliveries)
        return false;
    delete m_dialog.data();
    const ConnectionProfile &p = m_session->profile();
    m_dialog = new ResolveDialog(p.environment, p.colour, p.name, m_parentWindow);
    m_dialog->setAttribute(Qt::WA_DeleteOnClose);
    connect(m_dialog, &ResolveDialog::submitted, this, &ResolveController::submit);
    m_shownIds.clear();
    m_dialog->open();
    return true;
}

void ResolveController::dryRun(const QJsonObject &selection, const QString &what)
{
    AdminClient *admin = m_session->admin();
    if (!admin || !m_dialog)
        return;
    m_dialog->showLoading(what);
    QJsonObject body = selection;
    body.insert(QStringLiteral("dry_run"), true);
    QPointer<ResolveDialog> dialog = m_dialog;
    connect(admin->resolveDeliveries(body), &ApiReply::finished, this,
        [this, dialog](const QJsonDocument &answer, const ApiError &error) {
            if (!dialog || dialog != m_dialog)
                return;
            if (!error.ok()) {
                dialog->showError(error.message);
                return;
            }
            const QJsonObject o = answer.object();
            m_shownIds.clear();
            const QJsonArray ids = o.value(QLatin1String("delivery_ids")).toArray();
            for (const auto &v : ids)
                m_shownIds.append(v.toInteger());
            dialog->showCount(int(m_shownIds.size()), o.value(QLatin1String("skipped_count")).toInt(),
                skippedInWords(o.value(QLatin1String("skipped")).toArray()));
        });
}

void ResolveController::submit(Resolution resolution, const QString &reason, const QString &ticket)
{
    AdminClient *admin = m_session->admin();
    if (!admin || !m_dialog || m_shownIds.isEmpty())
        return;
    m_dialog->setBusy(true);
    QJsonObject body { { QStringLiteral("delivery_ids"), idArray(m_shownIds) },
        { QStringLiteral("resolution"), toString(resolution) }, { QStringLiteral("reason"), reason } };
    if (!ticket.isEmpty())
        body.insert(QStringLiteral("ticket"), ticket);
    QPointer<ResolveDialog> dialog = m_dialog;
    connect(admin->resolveDeliveries(body), &ApiReply::finished, this,
        [this, dialog](const QJsonDocument &answer, const ApiError &error) {
            if (!dialog)
                return;
            if (!error.ok()) {
                dialog->showError(error.outcomeUnknown
                        ? tr("The receiver did not confirm it in time; it may still be recorded. Look at the "
                             "deliveries before trying again: ")
                            + error.message
                        : error.message);
                return;
            }
            Q_EMIT resolved(answer.object().value(QLatin1String("resolved")).toInt());
            dialog->accept();
        });
}

} // namespace redrive::ui
