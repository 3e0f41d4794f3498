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

class ReplayDialog;
class Session;

// Runs the replay flow against the admin API: preview (frozen selection) → dialog → request.
class NewReplayController final : public QObject {
    Q_OBJECT
public:
    NewReplayController(Session *session, QWidget *parentWindow, QObject *parent = nullptr);

    // Replays these deliveries. `succeeded` are deliveries the user selected that already
    // succeeded downstream: they are left out of the preview unless the user ticks "Include N
    // already-succeeded deliveries" in the dialog, which previews again with them.
    void replayDeliveries(const QList<qint64> &deliveryIds, const QList<qint64> &succeeded = {});
    // Replays everything the filter matches (the receiver resolves it, not the visible page).
    void replayFilter(const EventFilter &filter);
    [[nodiscard]] ReplayDialog *dialog() const;

Q_SIGNALS:
    void requested(qint64 replayId, const redrive::Stored<redrive::ReplayStatus> &status);

private:
    bool openDialog();
    void preview(const QJsonObject &previewBody, const QString &what);
    void previewDeliveries();
    void submit(const QString &reason, const QString &ticket);

    Session *m_session;
    QWidget *m_parentWindow;
    QPointer<ReplayDialog> m_dialog;
    QString m_selectionHash;
    QList<qint64> m_proposed;
    QList<qint64> m_succeeded;
    bool m_includeSucceeded = false;
    quint64 m_previewGeneration = 0; // a newer preview makes the answer to an older one stale
};

} // namespace redrive::ui
