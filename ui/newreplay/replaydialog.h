// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#pragma once

#include "newreplay/replaypreview.h"

#include <QColor>
#include <QDialog>

class QCheckBox;
class QLabel;
class QLineEdit;
class QPlainTextEdit;
class QPushButton;
class QTableWidget;

namespace redrive::ui {

class EnvironmentBanner;

// Shows what a replay would do before it is asked for: count, destinations and their risk,
// why it needs approval (in words), how many already succeeded or may have. A reason is
// required; a high-risk replay must be confirmed by typing "replay N". Cancel is the default
// button and the other one names the action. Already-succeeded deliveries the user selected
// are left out unless the "Include N already-succeeded deliveries" box is ticked. Passive: the
// NewReplayController talks to the admin API.
//
// Like Prompter, it can be answered in advance: tests queue answers with setNextAnswers() and
// the dialog fills itself in and presses its own buttons once the preview is shown, so no
// test clicks a real dialog.
class ReplayDialog final : public QDialog {
    Q_OBJECT
public:
    struct Answer {
        bool confirmed = false; // submit (with the confirmation typed when needed) or cancel
        QString reason;
        QString ticket;
        bool includeSucceeded = false; // tick the box first (when it is offered)
    };
    // What a dialog showed, for tests: the preview and the reasons in words.
    struct Shown {
        ReplayPreview preview;
        QStringList reasons;
        QString environment;
        int succeededOffered = 0;
        bool succeededIncluded = false;
    };

    ReplayDialog(const QString &environment, const QColor &colour, const QString &profileName,
        QWidget *parent = nullptr);

    void showLoading(const QString &what);
    void showPreview(const ReplayPreview &preview);
    // Every selected delivery already succeeded: nothing is proposed unless the box is ticked.
    void showNothingProposed();
    void showError(const QString &text);
    void setBusy(bool busy);
    // Offers "Include N already-succeeded deliveries" (hidden when n is 0).
    void offerSucceeded(int n, bool included);

    static void setNextAnswers(QList<Answer> answers);
    [[nodiscard]] static QList<Shown> shown();
    static void clearShown();

Q_SIGNALS:
    void submitted(const QString &reason, const QString &ticket);
    void includeSucceededChanged(bool include);

private:
    void updateSubmit();
    void record();
    void answerIfQueued();

    ReplayPreview m_preview;
    bool m_havePreview = false;
    bool m_busy = false;
    int m_succeededOffered = 0;
    QString m_environmentText;
    EnvironmentBanner *m_environment;
    QLabel *m_summary;
    QLabel *m_reasons;
    QLabel *m_risk;
    QTableWidget *m_destinations;
    QCheckBox *m_includeSucceeded;
    QPlainTextEdit *m_reason;
    QLineEdit *m_ticket;
    QLabel *m_confirmLabel;
    QLineEdit *m_confirm;
    QLabel *m_error;
    QPushButton *m_cancel;
    QPushButton *m_submit;
};

} // namespace redrive::ui
