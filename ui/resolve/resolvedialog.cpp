// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#include "resolvedialog.h"

#include "common/accessibleparts.h"
#include "common/environmentbanner.h"
#include "common/statuspalette.h"

#include <QDialogButtonBox>
#include <QFormLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QRadioButton>
#include <QVBoxLayout>

namespace redrive::ui {
namespace {

QList<ResolveDialog::Answer> g_queued;
QList<ResolveDialog::Shown> g_shown;

} // namespace

ResolveDialog::ResolveDialog(
    const QString &environment, const QColor &colour, const QString &profileName, QWidget *parent)
    : QDialog(parent)
    , m_environmentText(environment)
    , m_environment(new EnvironmentBanner(this))
    , m_summary(new QLabel(this))
    , m_handled(
          new QRadioButton(tr("&Handled manually: someone did what the destination would have done"), this))
    , m_notNeeded(new QRadioButton(tr("&Not needed: nothing has to happen at the destination"), this))
    , m_reason(new QPlainTextEdit(this))
    , m_ticket(new QLineEdit(this))
    , m_error(new QLabel(this))
    , m_cancel(new QPushButton(tr("Cancel"), this))
    , m_submit(new QPushButton(tr("Mark resolved"), this))
{
    setObjectName(QStringLiteral("resolveDialog"));
    setWindowTitle(tr("Mark dead letters resolved"));
    m_environment->setObjectName(QStringLiteral("resolveEnvironment"));
    m_environment->showEnvironment(environment, colour, profileName);
    speakAsStatus(m_environment, tr("Environment"));
    m_summary->setObjectName(QStringLiteral("resolveSummary"));
    m_summary->setTextFormat(Qt::PlainText);
    m_summary->setWordWrap(true);
    speakAsStatus(m_summary, tr("What will be resolved"));
    m_handled->setObjectName(QStringLiteral("resolveHandledManually"));
    m_handled->setAccessibleName(tr("Handled manually"));
    m_notNeeded->setObjectName(QStringLiteral("resolveNotNeeded"));
    m_notNeeded->setAccessibleName(tr("Not needed"));
    m_handled->setChecked(true);
    m_reason->setObjectName(QStringLiteral("resolveReason"));
    m_reason->setAccessibleName(tr("Reason"));
    m_reason->setPlaceholderText(tr("What was done instead? (required; recorded in the audit log)"));
    m_reason->setMaximumHeight(70);
    m_reason->setTabChangesFocus(true);
    m_ticket->setObjectName(QStringLiteral("resolveTicket"));
    m_ticket->setAccessibleName(tr("Ticket"));
    m_ticket->setPlaceholderText(tr("optional, e.g. SUP-1234"));
    m_ticket->setMaxLength(200);
    m_error->setObjectName(QStringLiteral("resolveError"));
    m_error->setTextFormat(Qt::PlainText);
    m_error->setWordWrap(true);
    m_error->setStyleSheet(toneTextStyle(Tone::Bad));
    speakAsStatus(m_error, tr("Problem"));
    m_error->hide();
    m_cancel->setObjectName(QStringLiteral("resolveCancel"));
    m_cancel->setAccessibleName(tr("Cancel"));
    m_submit->setObjectName(QStringLiteral("resolveSubmit"));
    // Cancel is what Enter does; the action has to be clicked (or tabbed to) on purpose.
    m_cancel->setDefault(true);
    m_cancel->setAutoDefault(true);
    m_submit->setAutoDefault(false);
    m_submit->setEnabled(false);

    auto *how = new QVBoxLayout;
    how->addWidget(m_handled);
    how->addWidget(m_notNeeded);
    auto *form = new QFormLayout;
    form->addRow(tr("Resolution"), how);
    form->addRow(tr("&Reason"), m_reason);
    form->addRow(tr("&Ticket"), m_ticket);
    auto *buttons = new QDialogButtonBox(this);
    buttons->addButton(m_cancel, QDialogButtonBox::RejectRole);
    buttons->addButton(m_submit, QDialogButtonBox::AcceptRole);
    auto *layout = new QVBoxLayout(this);
    layout->addWidget(m_environment);
    layout->addWidget(m_summary);
    layout->addLayout(form);
    layout->addWidget(m_error);
    layout->addWidget(buttons);

    connect(m_cancel, &QPushButton::clicked, this, &QDialog::reject);
    connect(m_submit, &QPushButton::clicked, this, [this] {
        if (m_submit->isEnabled())
            Q_EMIT submitted(m_notNeeded->isChecked() ? Resolution::NotNeeded : Resolution::HandledManually,
                m_reason->toPlainText().trimmed(), m_ticket->text().trimmed());
    });
    connect(m_reason, &QPlainTextEdit::textChanged, this, &ResolveDialog::updateSubmit);
    resize(560, 380);
}

void ResolveDialog::setNextAnswers(QList<Answer> answers)
{
    g_queued = std::move(answers);
}

QList<ResolveDialog::Shown> ResolveDialog::shown()
{
    return g_shown;
}

void ResolveDialog::clearShown()
{
    g_shown.clear();
}

void ResolveDialog::showLoading(const QString &what)
{
    m_count = 0;
    m_error->hide();
    m_summary->setText(tr("Asking the receiver which of %1 are dead letters…").arg(what));
    updateSubmit();
}

void ResolveDialog::showCount(int count, int skipped, const QString &skippedWhy)
{
    m_count = count;
    m_error->hide();
    QString text = tr("%Ln dead letter(s) will be marked resolved. They leave the dead letters and their "
                      "incident, and no replay will send them again.",
        nullptr, count);
    if (skipped > 0)
        text += u'\n'
            + tr("%Ln selected deliver(y|ies) left as they are: %1.", nullptr, skipped).arg(skippedWhy);
    m_summary->setText(text);
    const QString action = tr("Mark %Ln resolved", nullptr, count);
    m_submit->setText(action);
    m_submit->setAccessibleName(action);
    m_reason->setFocus(); // the next thing to do is to say why
    updateSubmit();
    g_shown.append(Shown { count, skipped, text, m_environmentText });
    answerIfQueued();
}

void ResolveDialog::showError(const QString &text)
{
    m_error->setText(text);
    m_error->show();
    setBusy(false);
}

void ResolveDialog::setBusy(bool busy)
{
    m_busy = busy;
    updateSubmit();
}

void ResolveDialog::updateSubmit()
{
    m_submit->setEnabled(m_count > 0 && !m_busy && !m_reason->toPlainText().trimmed().isEmpty());
}

void ResolveDialog::answerIfQueued()
{
    if (g_queued.isEmpty())
        return;
    const Answer a = g_queued.takeFirst();
    if (!a.confirmed) {
        m_cancel->click();
        return;
    }
    (a.resolution == Resolution::NotNeeded ? m_notNeeded : m_handled)->setChecked(true);
    m_reason->setPlainText(a.reason);
    m_ticket->setText(a.ticket);
    m_submit->click(); // does nothing while the answer is incomplete (no reason): the dialog stays
}

} // namespace redrive::ui
