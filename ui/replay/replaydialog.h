// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#pragma once

#include "replay/replaypreview.h"

#include <QDialog>

class QLabel;
class QLineEdit;
class QPlainTextEdit;
class QPushButton;
class QTableWidget;

namespace redrive::ui {

// Shows what a replay would do before it is asked for: count, destinations and their risk,
// how many already succeeded or may have, whether approval is needed. A reason is required;
// a high-risk replay must be confirmed by typing "replay N". Cancel is the default button and
// the other one names the action. Passive: the ReplayController talks to the admin API.
class ReplayDialog final : public QDialog {
    Q_OBJECT
public:
    ReplayDialog(const QString &environment, bool production, QWidget *parent = nullptr);

    void showLoading(const QString &what);
    void showPreview(const ReplayPreview &preview);
    void showError(const QString &text);
    void setBusy(bool busy);

Q_SIGNALS:
    void submitted(const QString &reason, const QString &ticket);

private:
    void updateSubmit();

    ReplayPreview m_preview;
    bool m_havePreview = false;
    bool m_busy = false;
    QLabel *m_environment;
    QLabel *m_summary;
    QLabel *m_risk;
    QTableWidget *m_destinations;
    QPlainTextEdit *m_reason;
    QLineEdit *m_ticket;
    QLabel *m_confirmLabel;
    QLineEdit *m_confirm;
    QLabel *m_error;
    QPushButton *m_cancel;
    QPushButton *m_submit;
};

} // namespace redrive::ui
