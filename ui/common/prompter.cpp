// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#include "prompter.h"

#include "common/accessibleparts.h"
#include "common/environmentbanner.h"

#include <QComboBox>
#include <QCoreApplication>
#include <QDialog>
#include <QDialogButtonBox>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QVBoxLayout>

#include <memory>

namespace redrive::ui {
namespace {

QList<Prompter::Answer> g_queued;
QList<Prompter::Question> g_asked;

} // namespace

QString Prompter::defaultReasonLabel()
{
    return QCoreApplication::translate("redrive::ui::Prompter", "Reason (recorded in the audit log):");
}

Prompter::Answer Prompter::ask(QWidget *parent, const Question &question)
{
    g_asked.append(question);
    if (!g_queued.isEmpty())
        return g_queued.takeFirst();

    std::unique_ptr<QDialog> dialog(createDialog(parent, question));
    auto *reason = dialog->findChild<QLineEdit *>(QStringLiteral("promptReason"));
    auto *choice = dialog->findChild<QComboBox *>(QStringLiteral("promptChoice"));
    // A modal question is the one place the console waits for the user; nothing else runs a
    // nested loop.
    Answer answer;
    answer.confirmed = dialog->exec() == QDialog::Accepted;
    if (reason)
        answer.reason = reason->text().trimmed();
    if (choice)
        answer.choice = choice->currentIndex();
    return answer;
}

QDialog *Prompter::createDialog(QWidget *parent, const Question &question)
{
    auto *dialog = new QDialog(parent);
    dialog->setObjectName(QStringLiteral("prompt"));
    dialog->setWindowTitle(question.title);
    auto *layout = new QVBoxLayout(dialog);
    if (!question.environment.isEmpty()) {
        auto *banner = new EnvironmentBanner(dialog);
        banner->setObjectName(QStringLiteral("promptEnvironment"));
        speakAsStatus(banner, QCoreApplication::translate("redrive::ui::Prompter", "Environment"));
        banner->showEnvironment(question.environment, question.environmentColour, question.profileName);
        layout->addWidget(banner);
    }
    auto *text = new QLabel(dialog);
    text->setObjectName(QStringLiteral("promptText"));
    text->setTextFormat(Qt::RichText);
    text->setText(question.text.toHtmlEscaped().replace(u'\n', QLatin1String("<br>")));
    text->setWordWrap(true);
    text->setMinimumWidth(420); // a readable measure instead of a narrow column of wrapped words
    layout->addWidget(text);
    QLineEdit *reason = nullptr;
    auto *buttons = new QDialogButtonBox(dialog);
    QPushButton *cancel = buttons->addButton(QDialogButtonBox::Cancel);
    QPushButton *confirm = buttons->addButton(question.confirmLabel, QDialogButtonBox::AcceptRole);
    cancel->setObjectName(QStringLiteral("promptCancel"));
    confirm->setObjectName(QStringLiteral("promptConfirm"));
    confirm->setAccessibleName(question.confirmLabel);
    cancel->setDefault(true);
    cancel->setAutoDefault(true);
    confirm->setAutoDefault(false);
    if (!question.choices.isEmpty()) {
        auto *label = new QLabel(question.choiceLabel, dialog);
        label->setObjectName(QStringLiteral("promptChoiceLabel"));
        auto *choice = new QComboBox(dialog);
        choice->setObjectName(QStringLiteral("promptChoice"));
        choice->addItems(question.choices);
        choice->setAccessibleName(QString(question.choiceLabel).remove(u'&').remove(u':').trimmed());
        label->setBuddy(choice);
        layout->addWidget(label);
        layout->addWidget(choice);
    }
    if (question.askReason) {
        // The label is the field's buddy: Alt+R reaches it, and a screen reader reads the
        // label with it.
        QString labelText = question.reasonLabel;
        if (!labelText.contains(u'&'))
            labelText.replace(QCoreApplication::translate("redrive::ui::Prompter", "Reason"),
                QCoreApplication::translate("redrive::ui::Prompter", "&Reason"));
        auto *label = new QLabel(labelText, dialog);
        label->setObjectName(QStringLiteral("promptReasonLabel"));
        reason = new QLineEdit(dialog);
        reason->setObjectName(QStringLiteral("promptReason"));
        reason->setAccessibleName(QCoreApplication::translate("redrive::ui::Prompter", "Reason"));
        reason->setAccessibleDescription(question.reasonLabel);
        label->setBuddy(reason);
        layout->addWidget(label);
        layout->addWidget(reason);
        confirm->setEnabled(false);
        QObject::connect(reason, &QLineEdit::textChanged, confirm,
            [confirm](const QString &t) { confirm->setEnabled(!t.trimmed().isEmpty()); });
    }
    layout->addWidget(buttons);
    QObject::connect(buttons, &QDialogButtonBox::accepted, dialog, &QDialog::accept);
    QObject::connect(buttons, &QDialogButtonBox::rejected, dialog, &QDialog::reject);
    // The choice comes just before the reason on the keyboard path, as on the screen.
    if (auto *choice = dialog->findChild<QComboBox *>(QStringLiteral("promptChoice")); choice && reason)
        QWidget::setTabOrder(choice, reason);
    // Typing goes into the reason; Enter still means Cancel (the default button).
    if (reason)
        reason->setFocus();
    else
        cancel->setFocus();
    return dialog;
}

void Prompter::setNextAnswers(QList<Answer> answers)
{
    g_queued = std::move(answers);
}

QList<Prompter::Question> Prompter::askedQuestions()
{
    return g_asked;
}

void Prompter::clearAskedQuestions()
{
    g_asked.clear();
}

} // namespace redrive::ui
