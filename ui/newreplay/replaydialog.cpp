// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#include "replaydialog.h"

#include "common/accessibleparts.h"
#include "common/environmentbanner.h"
#include "common/localeformat.h"
#include "common/statuspalette.h"

#include <QCheckBox>
#include <QDialogButtonBox>
#include <QFormLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QTableWidget>
#include <QVBoxLayout>

namespace redrive::ui {
namespace {

QList<ReplayDialog::Answer> g_queued;
QList<ReplayDialog::Shown> g_shown;

} // namespace

ReplayDialog::ReplayDialog(
    const QString &environment, const QColor &colour, const QString &profileName, QWidget *parent)
    : QDialog(parent)
    , m_environmentText(environment)
    , m_environment(new EnvironmentBanner(this))
    , m_summary(new QLabel(this))
    , m_reasons(new QLabel(this))
    , m_risk(new QLabel(this))
    , m_destinations(new QTableWidget(this))
    , m_includeSucceeded(new QCheckBox(this))
    , m_reason(new QPlainTextEdit(this))
    , m_ticket(new QLineEdit(this))
    , m_confirmLabel(new QLabel(this))
    , m_confirm(new QLineEdit(this))
    , m_error(new QLabel(this))
    , m_cancel(new QPushButton(tr("Cancel"), this))
    , m_submit(new QPushButton(tr("Replay"), this))
{
    setObjectName(QStringLiteral("replayDialog"));
    setWindowTitle(tr("Replay deliveries"));
    m_environment->setObjectName(QStringLiteral("replayEnvironment"));
    m_environment->showEnvironment(environment, colour, profileName);
    speakAsStatus(m_environment, tr("Environment"));
    m_summary->setObjectName(QStringLiteral("replaySummary"));
    m_summary->setTextFormat(Qt::PlainText);
    m_summary->setWordWrap(true);
    m_reasons->setObjectName(QStringLiteral("replayApprovalReasons"));
    speakAsStatus(m_reasons, tr("Why approval is needed"));
    m_reasons->setTextFormat(Qt::PlainText);
    m_reasons->setWordWrap(true);
    m_reasons->hide();
    m_risk->setObjectName(QStringLiteral("replayRisk"));
    m_risk->setTextFormat(Qt::PlainText);
    m_risk->setWordWrap(true);
    m_destinations->setObjectName(QStringLiteral("replayDestinations"));
    m_destinations->setAccessibleName(tr("Destinations of the replay"));
    m_destinations->setColumnCount(3);
    m_destinations->setHorizontalHeaderLabels({ tr("Destination"), tr("Risk"), tr("Deliveries") });
    m_destinations->verticalHeader()->hide();
    m_destinations->horizontalHeader()->setStretchLastSection(true);
    m_destinations->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_destinations->setMaximumHeight(120);
    m_destinations->setSelectionMode(QAbstractItemView::NoSelection);
    // Tab stops here once (arrows then read the rows), so a keyboard or screen-reader user can
    // hear which destinations, and which risks, the replay touches.
    m_destinations->setFocusPolicy(Qt::TabFocus);
    m_destinations->setTabKeyNavigation(false);
    m_includeSucceeded->setObjectName(QStringLiteral("replayIncludeSucceeded"));
    m_includeSucceeded->setAccessibleName(tr("Include already-succeeded deliveries"));
    m_includeSucceeded->hide();
    m_reason->setObjectName(QStringLiteral("replayReason"));
    m_reason->setAccessibleName(tr("Reason"));
    m_reason->setPlaceholderText(tr("Why replay these? (required; recorded in the audit log)"));
    m_reason->setMaximumHeight(70);
    m_reason->setTabChangesFocus(true);
    m_ticket->setObjectName(QStringLiteral("replayTicket"));
    m_ticket->setAccessibleName(tr("Ticket"));
    m_ticket->setPlaceholderText(tr("optional, e.g. INC-1234"));
    m_confirm->setObjectName(QStringLiteral("replayConfirm"));
    m_confirm->setAccessibleName(tr("Type the confirmation"));
    m_confirmLabel->setTextFormat(Qt::PlainText);
    m_error->setObjectName(QStringLiteral("replayError"));
    m_error->setTextFormat(Qt::PlainText);
    m_error->setWordWrap(true);
    m_error->setStyleSheet(toneTextStyle(Tone::Bad));
    m_error->hide();
    m_cancel->setObjectName(QStringLiteral("replayCancel"));
    m_cancel->setAccessibleName(tr("Cancel"));
    m_submit->setObjectName(QStringLiteral("replaySubmit"));
    m_submit->setAccessibleName(tr("Replay"));
    // Cancel is what Enter does; the action has to be clicked (or tabbed to) on purpose.
    m_cancel->setDefault(true);
    m_cancel->setAutoDefault(true);
    m_submit->setAutoDefault(false);
    m_submit->setEnabled(false);

    auto *form = new QFormLayout;
    form->addRow(tr("Reason"), m_reason);
    form->addRow(tr("Ticket"), m_ticket);
    form->addRow(m_confirmLabel, m_confirm);
    auto *buttons = new QDialogButtonBox(this);
    buttons->addButton(m_cancel, QDialogButtonBox::RejectRole);
    buttons->addButton(m_submit, QDialogButtonBox::AcceptRole);
    auto *layout = new QVBoxLayout(this);
    layout->addWidget(m_environment);
    layout->addWidget(m_summary);
    layout->addWidget(m_destinations);
    layout->addWidget(m_reasons);
    layout->addWidget(m_risk);
    layout->addWidget(m_includeSucceeded);
    layout->addLayout(form);
    layout->addWidget(m_error);
    layout->addWidget(buttons);

    connect(m_cancel, &QPushButton::clicked, this, &QDialog::reject);
    connect(m_submit, &QPushButton::clicked, this, [this] {
        if (m_submit->isEnabled())
            Q_EMIT submitted(m_reason->toPlainText().trimmed(), m_ticket->text().trimmed());
    });
    // A click on the box (or Space) asks the controller for a new preview with or without them.
    connect(m_includeSucceeded, &QCheckBox::clicked, this, &ReplayDialog::includeSucceededChanged);
    connect(m_reason, &QPlainTextEdit::textChanged, this, &ReplayDialog::updateSubmit);
    connect(m_confirm, &QLineEdit::textChanged, this, &ReplayDialog::updateSubmit);
    m_confirmLabel->hide();
    m_confirm->hide();
    resize(560, 500);
}

void ReplayDialog::setNextAnswers(QList<Answer> answers)
{
    g_queued = std::move(answers);
}

QList<ReplayDialog::Shown> ReplayDialog::shown()
{
    return g_shown;
}

void ReplayDialog::clearShown()
{
    g_shown.clear();
}

void ReplayDialog::showLoading(const QString &what)
{
    m_havePreview = false;
    m_error->hide();
    m_summary->setText(tr("Asking the receiver what replaying %1 would do…").arg(what));
    m_destinations->setRowCount(0);
    m_reasons->hide();
    m_risk->clear();
    updateSubmit();
}

void ReplayDialog::offerSucceeded(int n, bool included)
{
    m_includeSucceeded->setText(tr("Include %Ln already-succeeded deliver(y|ies)", nullptr, n));
    m_includeSucceeded->setToolTip(
        tr("They reached their destination already; replaying sends them again and needs "
           "another operator's approval."));
    m_succeededOffered = n;
    m_includeSucceeded->setChecked(included);
    m_includeSucceeded->setVisible(n > 0);
}

void ReplayDialog::showNothingProposed()
{
    m_havePreview = false;
    m_summary->setText(tr("Every selected delivery already succeeded downstream, so none is "
                          "proposed. Tick the box below to replay them anyway."));
    m_destinations->setRowCount(0);
    m_reasons->hide();
    m_risk->clear();
    updateSubmit();
    m_includeSucceeded->setFocus();
    record();
    answerIfQueued();
}

void ReplayDialog::showPreview(const ReplayPreview &p)
{
    m_preview = p;
    m_havePreview = true;
    m_error->hide();
    m_summary->setText(
        p.effect.isEmpty() ? tr("%1 would be sent again.").arg(deliveriesText(p.count)) : p.effect);
    m_destinations->setRowCount(int(p.destinations.size()));
    for (int i = 0; i < p.destinations.size(); ++i) {
        const auto &d = p.destinations[i];
        m_destinations->setItem(i, 0, new QTableWidgetItem(d.name));
        auto *risk = new QTableWidgetItem(toString(d.risk));
        if (d.risk == Risk::High)
            risk->setForeground(toneText(Tone::Bad));
        m_destinations->setItem(i, 1, risk);
        m_destinations->setItem(i, 2, new QTableWidgetItem(LocaleFormat::count(d.count)));
    }
    const QStringList reasons = p.approvalReasonsInWords();
    m_reasons->setText(reasons.isEmpty() ? QString()
                                         : tr("Needs another operator's approval because:\n• %1.")
                                               .arg(reasons.join(QStringLiteral(".\n• "))));
    m_reasons->setVisible(!reasons.isEmpty());
    QStringList warnings;
    if (p.alreadySucceeded > 0)
        warnings.append(
            tr("%Ln already succeeded downstream: replaying sends them again.", nullptr, p.alreadySucceeded));
    if (p.outcomeUnknown > 0)
        warnings.append(
            tr("%Ln may already have been processed (outcome unknown).", nullptr, p.outcomeUnknown));
    if (p.requiresApproval && reasons.isEmpty())
        warnings.append(tr("This needs approval by another operator before anything is sent."));
    m_risk->setText(warnings.join(u'\n'));
    m_risk->setStyleSheet(p.isHighRisk() ? toneTextStyle(Tone::Caution, true) : QString());
    m_confirmLabel->setVisible(p.isHighRisk());
    m_confirm->setVisible(p.isHighRisk());
    m_confirmLabel->setText(tr("Type \"%1\" to confirm").arg(p.confirmPhrase()));
    m_confirm->setPlaceholderText(p.confirmPhrase());
    m_submit->setText(p.actionLabel());
    m_submit->setAccessibleName(p.actionLabel());
    m_reason->setFocus(); // the next thing to do is to say why
    m_submit->setStyleSheet(p.isHighRisk() ? dangerButtonStyle() : QString());
    updateSubmit();
    record();
    answerIfQueued();
}

void ReplayDialog::showError(const QString &text)
{
    m_error->setText(text);
    m_error->show();
    setBusy(false);
}

void ReplayDialog::setBusy(bool busy)
{
    m_busy = busy;
    m_includeSucceeded->setEnabled(!busy);
    updateSubmit();
}

void ReplayDialog::updateSubmit()
{
    bool ok = m_havePreview && !m_busy && m_preview.count > 0 && !m_reason->toPlainText().trimmed().isEmpty();
    if (ok && m_preview.isHighRisk())
        ok = m_confirm->text().trimmed() == m_preview.confirmPhrase();
    m_submit->setEnabled(ok);
}

void ReplayDialog::record()
{
    Shown s;
    if (m_havePreview) {
        s.preview = m_preview;
        s.reasons = m_preview.approvalReasonsInWords();
    }
    s.environment = m_environmentText;
    s.succeededOffered = m_succeededOffered;
    s.succeededIncluded = m_includeSucceeded->isChecked();
    g_shown.append(s);
}

void ReplayDialog::answerIfQueued()
{
    if (g_queued.isEmpty())
        return;
    const Answer a = g_queued.first();
    if (a.includeSucceeded && m_succeededOffered > 0 && !m_includeSucceeded->isChecked()) {
        // The answer applies to the preview that comes back with them included.
        m_includeSucceeded->click();
        return;
    }
    g_queued.removeFirst();
    if (!a.confirmed || !m_havePreview) {
        m_cancel->click();
        return;
    }
    m_reason->setPlainText(a.reason);
    m_ticket->setText(a.ticket);
    if (m_preview.isHighRisk())
        m_confirm->setText(m_preview.confirmPhrase());
    m_submit->click(); // does nothing while the answer is incomplete (no reason): the dialog stays
}

} // namespace redrive::ui
