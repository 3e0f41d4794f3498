// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#pragma once

#include "domain/types.h"

#include <QColor>
#include <QDialog>

class QLabel;
class QLineEdit;
class QPlainTextEdit;
class QPushButton;
class QRadioButton;

namespace redrive::ui {

class EnvironmentBanner;

// "Mark resolved…": shows which dead letters would leave the dead letters without being sent
// again (the receiver's dry run), asks how they were resolved and why (required) and an optional
// ticket. Cancel is the default button; the other one names the count. Passive: the
// ResolveController talks to the admin API.
//
// Like ReplayDialog, it can be answered in advance: tests queue answers with setNextAnswers()
// and the dialog fills itself in and presses its own buttons once the count is shown.
class ResolveDialog final : public QDialog {
    Q_OBJECT
public:
    struct Answer {
        bool confirmed = false;
        Resolution resolution = Resolution::HandledManually;
        QString reason;
        QString ticket;
    };
    struct Shown {
        int count = 0;
        int skipped = 0;
        QString summary; // what the dialog said would happen
        QString environment;
    };

    ResolveDialog(const QString &environment, const QColor &colour, const QString &profileName,
        QWidget *parent = nullptr);

    void showLoading(const QString &what);
    // `count` dead letters would be resolved; `skipped` of the named ones cannot be (not dead, or
    // queued by a replay), `skippedWhy` says why in words.
    void showCount(int count, int skipped, const QString &skippedWhy);
    void showError(const QString &text);
    void setBusy(bool busy);

    static void setNextAnswers(QList<Answer> answers);
    [[nodiscard]] static QList<Shown> shown();
    static void clearShown();

Q_SIGNALS:
    void submitted(redrive::Resolution resolution, const QString &reason, const QString &ticket);

private:
    void updateSubmit();
    void answerIfQueued();

    int m_count = 0;
    bool m_busy = false;
    QString m_environmentText;
    EnvironmentBanner *m_environment;
    QLabel *m_summary;
    QRadioButton *m_handled;
    QRadioButton *m_notNeeded;
    QPlainTextEdit *m_reason;
    QLineEdit *m_ticket;
    QLabel *m_error;
    QPushButton *m_cancel;
    QPushButton *m_submit;
};

} // namespace redrive::ui
