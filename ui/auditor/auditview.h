// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#pragma once

#include "audit/auditlog.h"

#include <QWidget>

class QComboBox;
class QDateTimeEdit;
class QLabel;
class QLineEdit;
class QPushButton;
class QTableView;
class QTimer;

namespace redrive::ui {

class WarningBanner;

// The audit log page, passive: a filter bar (actor, action, target, time range, text in the
// reason), the chain status that is always visible, a loud banner for an untrusted receiver
// key, the auditor's actions and the table. AuditController decides what it shows.
class AuditView final : public QWidget {
    Q_OBJECT
public:
    enum class Health { Unknown, Good, Bad };

    explicit AuditView(QWidget *parent = nullptr);

    // As a new session's page starts: no filters, the chain being checked, no warning or message.
    void reset();

    [[nodiscard]] QTableView *table() const { return m_table; }
    // The filters as a query; the time range is resolved against `nowMs`.
    [[nodiscard]] audit::AuditQuery filter(qint64 nowMs) const;
    // The chosen time range; the whole log up to `nowMs` when none is chosen.
    [[nodiscard]] std::pair<qint64, qint64> range(qint64 nowMs) const;

    void setChainStatus(const QString &text, Health health);
    void setCheckpointStatus(const QString &text, Health health);
    // Empty hides the banner; `offerNewKey` shows "Trust new key…" beside it.
    void setKeyWarnings(const QStringList &warnings, bool offerNewKey);
    void setMessage(const QString &text); // the outcome of the last action
    [[nodiscard]] QString chainStatus() const;
    [[nodiscard]] QString checkpointStatus() const;
    void setActionsEnabled(bool saveCheckpoint, bool exportEvidence);

Q_SIGNALS:
    void filterChanged();
    void saveCheckpointRequested();
    void exportCsvRequested();
    void exportEvidenceRequested();
    void trustNewKeyRequested();

private:
    void timeRangeChosen(int index);
    QLineEdit *m_actor;
    QLineEdit *m_action;
    QLineEdit *m_target;
    QLineEdit *m_text;
    QComboBox *m_range;
    QDateTimeEdit *m_since;
    QDateTimeEdit *m_until;
    QPushButton *m_clear;
    WarningBanner *m_keyWarning;
    QPushButton *m_trustKey;
    QLabel *m_chain;
    QLabel *m_checkpoints;
    QLabel *m_message;
    QPushButton *m_saveCheckpoint;
    QPushButton *m_exportCsv;
    QPushButton *m_exportEvidence;
    QTableView *m_table;
    QTimer *m_debounce;
};

} // namespace redrive::ui
