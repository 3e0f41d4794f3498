// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#include "revealdialog.h"

#include <QDialogButtonBox>
#include <QFontDatabase>
#include <QLabel>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QVBoxLayout>

namespace redrive::ui {
namespace {
constexpr int kMaxReasonChars = 1000; // the receiver's limit for a reason
}

RevealDialog::RevealDialog(qint64 eventId, QWidget *parent)
    : QDialog(parent)
    , m_eventId(eventId)
    , m_reason(new QPlainTextEdit(this))
    , m_revealButton(new QPushButton(tr("&Reveal"), this))
    , m_status(new QLabel(this))
    , m_original(new QPlainTextEdit(this))
{
    setObjectName(QStringLiteral("revealDialog"));
    setWindowTitle(tr("Reveal the original of event %1").arg(eventId));
    auto *intro
        = new QLabel(tr("The original body carries the values this source redacts. Say why you need it: "
                        "the reason and your name go into the audit log. The original is shown here "
                        "only and is not kept."),
            this);
    intro->setWordWrap(true);
    auto *reasonLabel = new QLabel(tr("Rea&son:"), this);
    reasonLabel->setBuddy(m_reason);
    m_reason->setObjectName(QStringLiteral("revealReason"));
    m_reason->setAccessibleName(tr("Reason for revealing"));
    m_reason->setTabChangesFocus(true);
    m_reason->setMaximumHeight(m_reason->fontMetrics().lineSpacing() * 4);
    m_revealButton->setObjectName(QStringLiteral("revealConfirmButton"));
    m_revealButton->setAccessibleName(tr("Reveal the original"));
    m_revealButton->setEnabled(false);
    m_status->setObjectName(QStringLiteral("revealStatus"));
    m_status->setTextFormat(Qt::PlainText);
    m_status->setWordWrap(true);
    m_original->setObjectName(QStringLiteral("revealedPayload"));
    m_original->setAccessibleName(tr("Original payload"));
    m_original->setReadOnly(true);
    m_original->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    m_original->setVisible(false);
    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Close, this);
    buttons->addButton(m_revealButton, QDialogButtonBox::ActionRole);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    connect(m_revealButton, &QPushButton::clicked, this, &RevealDialog::ask);
    connect(m_reason, &QPlainTextEdit::textChanged, this, [this] {
        const QString text = reason();
        m_revealButton->setEnabled(
            !text.isEmpty() && text.size() <= kMaxReasonChars && !m_original->isVisible());
        m_status->setText(text.size() > kMaxReasonChars
                ? tr("The reason is %1 characters; at most %2.").arg(text.size()).arg(kMaxReasonChars)
                : QString());
    });

    auto *layout = new QVBoxLayout(this);
    layout->addWidget(intro);
    layout->addWidget(reasonLabel);
    layout->addWidget(m_reason);
    layout->addWidget(m_status);
    layout->addWidget(m_original, 1);
    layout->addWidget(buttons);
    resize(640, 320);
}

RevealDialog::~RevealDialog()
{
    m_original->clear();
}

QString RevealDialog::reason() const
{
    return m_reason->toPlainText().trimmed();
}

void RevealDialog::ask()
{
    const QString text = reason();
    if (text.isEmpty() || text.size() > kMaxReasonChars)
        return;
    Q_EMIT revealAsked(text);
}

void RevealDialog::setBusy(bool busy, const QString &message)
{
    m_revealButton->setEnabled(!busy && !reason().isEmpty() && !m_original->isVisible());
    m_reason->setReadOnly(busy);
    m_status->setText(message);
}

void RevealDialog::showOriginal(const QString &text)
{
    m_reason->setReadOnly(true);
    m_revealButton->setEnabled(false);
    m_status->setText(tr("The original, as the destinations received it. This reveal is in the audit log."));
    m_original->setPlainText(text);
    m_original->setVisible(true);
    m_original->setFocus();
}

void RevealDialog::showError(const QString &message)
{
    setBusy(false, message);
}

} // namespace redrive::ui
