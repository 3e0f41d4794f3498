// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#pragma once

#include <QColor>
#include <QList>
#include <QString>
#include <QStringList>

class QDialog;
class QWidget;

namespace redrive::ui {

// Every confirmation the console asks goes through here, so the rules hold everywhere: the
// confirming button names the action, Cancel is the default, text from webhooks or other users
// is escaped before it is shown, and a reason can be required. Tests queue answers with
// setNextAnswers() instead of clicking a modal box.
class Prompter final {
public:
    struct Question {
        QString title;
        QString text; // plain text; escaped here
        QString confirmLabel; // "Approve replay #12"
        bool askReason = false;
        QString reasonLabel = defaultReasonLabel();
        // A choice between a few options (a pause's end), offered above the reason; the first is
        // preselected. Empty: none.
        QString choiceLabel; // "&Resume:", with its access key
        QStringList choices;
        // For prompts that act: the environment banner (name and colour of the profile) on top,
        // so nobody approves or pauses in production thinking it is staging.
        QString environment;
        QColor environmentColour;
        QString profileName;
    };
    struct Answer {
        bool confirmed = false;
        QString reason;
        int choice = 0; // the index into Question::choices
    };

    // "Reason (recorded in the audit log):", in the user's language.
    static QString defaultReasonLabel();
    static Answer ask(QWidget *parent, const Question &question);
    // The dialog ask() shows, built but not run: a test walks it (accessible names, the
    // environment banner, the keyboard path) without a modal loop. The caller owns it.
    [[nodiscard]] static QDialog *createDialog(QWidget *parent, const Question &question);

    static void setNextAnswers(QList<Answer> answers);
    [[nodiscard]] static QList<Question> askedQuestions();
    static void clearAskedQuestions();
};

} // namespace redrive::ui
