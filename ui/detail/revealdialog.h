// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#pragma once

#include <QDialog>

class QLabel;
class QPlainTextEdit;
class QPushButton;

namespace redrive::ui {

// "Reveal original" for one redacted event: the reason first (required, kept in the audit log
// as payload_revealed), then the original body, shown here only. Nothing of it is written to
// disk or settings, and it is cleared when the dialog closes.
class RevealDialog final : public QDialog {
    Q_OBJECT
public:
    explicit RevealDialog(qint64 eventId, QWidget *parent = nullptr);
    ~RevealDialog() override;

    [[nodiscard]] qint64 eventId() const { return m_eventId; }
    [[nodiscard]] QString reason() const;
    void setBusy(bool busy, const QString &message = {});
    void showOriginal(const QString &text);
    void showError(const QString &message);

Q_SIGNALS:
    void revealAsked(const QString &reason);

private:
    void ask();

    qint64 m_eventId;
    QPlainTextEdit *m_reason;
    QPushButton *m_revealButton;
    QLabel *m_status;
    QPlainTextEdit *m_original;
};

} // namespace redrive::ui
