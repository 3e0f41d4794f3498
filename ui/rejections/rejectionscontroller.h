// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#pragma once

#include <QObject>

namespace redrive::ui {

class RejectionModel;
class RejectionsView;
class Session;

// Drives the rejected-requests page (RejectionsView): where a rotated provider secret shows up as a run of
// 401s.
class RejectionsController final : public QObject {
    Q_OBJECT
public:
    RejectionsController(Session *session, RejectionsView *view, QObject *parent = nullptr);
    [[nodiscard]] RejectionModel *model() const { return m_model; }
    void refresh();

private:
    RejectionsView *m_view;
    RejectionModel *m_model;
};

} // namespace redrive::ui
