// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#pragma once

#include "query/eventfilter.h"

#include <QJsonObject>
#include <QObject>
#include <QPointer>

class QWidget;

namespace redrive::ui {

class ReplayDialog;
class Session;

// Runs the replay flow against the admin API: preview (frozen selection) → dialog → request.
class ReplayController final : public QObject {
    Q_OBJECT
public:
    ReplayController(Session *session, QWidget *parentWindow, QObject *parent = nullptr);

    // Replays these deliveries (the selected events' deliveries).
    void replayDeliveries(const QList<qint64> &deliveryIds);
    // Replays everything the filter matches (the receiver resolves it, not the visible page).
    void replayFilter(const EventFilter &filter);
    [[nodiscard]] ReplayDialog *dialog() const;

Q_SIGNALS:
    void requested(qint64 replayId, const QString &status);

private:
    void start(const QJsonObject &previewBody, const QString &what);
    void submit(const QString &reason, const QString &ticket);

    Session *m_session;
    QWidget *m_parentWindow;
    QPointer<ReplayDialog> m_dialog;
    QJsonObject m_previewBody;
    QString m_selectionHash;
};

} // namespace redrive::ui
