// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#pragma once

#include "domain/types.h"
#include "query/eventfilter.h"

#include <QJsonObject>
#include <QObject>
#include <QPointer>

class QWidget;

namespace redrive::ui {

class ResolveDialog;
class Session;

// Runs "Mark resolved…" against the admin API: a dry run (which dead letters, exactly) → the
// dialog → the request for exactly the deliveries the dry run named, so what is resolved is what
// was shown even if more dead letters arrive meanwhile.
class ResolveController final : public QObject {
    Q_OBJECT
public:
    ResolveController(Session *session, QWidget *parentWindow, QObject *parent = nullptr);

    void resolveDeliveries(const QList<qint64> &deliveryIds);
    // The dead letters the filter matches (a dead-letter group, the events list's filter).
    void resolveFilter(const EventFilter &filter);
    [[nodiscard]] ResolveDialog *dialog() const;

Q_SIGNALS:
    void resolved(int count);

private:
    bool openDialog();
    void dryRun(const QJsonObject &selection, const QString &what);
    void submit(Resolution resolution, const QString &reason, const QString &ticket);

    Session *m_session;
    QWidget *m_parentWindow;
    QPointer<ResolveDialog> m_dialog;
    QList<qint64> m_shownIds; // what the dry run named: what the request resolves
};

} // namespace redrive::ui
