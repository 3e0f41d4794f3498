// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#pragma once

#include "audit/checkpoint.h"
#include "auditor/audittrust.h"

#include <QObject>

#include <optional>

class QSettings;

namespace redrive {
class Clock;
}

namespace redrive::ui {

class AuditModel;
class AuditView;
class Session;
struct ApiError;

// Drives the audit log page (AuditView). The console verifies the hash chain itself, from the database, with
// core's code: it does not take the receiver's word for it. On every refresh (opening the page,
// F5, the console's periodic refresh) it walks the chain, checks the receiver's signed
// checkpoint against the key pinned for this profile, and proves each checkpoint the auditor
// saved. Exports: CSV of the filtered rows, and an evidence bundle for a time range.
class AuditController final : public QObject {
    Q_OBJECT
public:
    AuditController(Session *session, AuditView *view, QSettings &settings, const Clock &clock,
        QObject *parent = nullptr);
    [[nodiscard]] AuditModel *model() const { return m_model; }
    [[nodiscard]] AuditView *view() const { return m_view; }

    // New entries appear without moving the view, and the chain status is computed again.
    void refresh();
    // The chain status now: the walk, the receiver's checkpoint and the saved checkpoints.
    void verify();
    // Reads the filter bar and reloads the list.
    void applyFilter();
    // Keeps the verified head (the receiver's signed checkpoint when it verified) on this
    // computer. False, with a message, when the chain is not known to be intact.
    bool saveCheckpoint();
    // Writes the rows matching the current filter (all of them, not just the loaded ones) to
    // `path` on the database thread.
    void exportCsv(const QString &path);
    // Writes the evidence bundle for the chosen time range to `path`, a README beside it.
    void exportEvidence(const QString &path);
    [[nodiscard]] static QString readmePathFor(const QString &bundlePath);

    // RFC 4180 quoting, and a leading quote for cells a spreadsheet would run as a formula.
    static QString csvField(const QString &value);

Q_SIGNALS:
    void verified(bool ok, qint64 count, qint64 firstBadSeq);
    // After every status computation (chain, receiver checkpoint, saved checkpoints).
    void statusUpdated();
    void exported(bool ok, const QString &message);
    void evidenceExported(bool ok, const QString &message);

private:
    void checkpointArrived(const QJsonDocument &body, const ApiError &error);
    void runCheck(const std::optional<audit::Checkpoint> &signedCheckpoint);
    void trustNewKey();
    void showMessage(const QString &text);

    Session *m_session;
    const Clock &m_clock;
    AuditTrustStore m_trust;
    AuditView *m_view;
    AuditModel *m_model;
    std::optional<audit::Checkpoint> m_trusted; // the receiver checkpoint the last check verified
    std::optional<audit::AuditHead> m_intactHead; // the head of the last intact walk
    QString m_noCheckpointReason;
    QStringList m_keyWarnings;
    bool m_offerNewKey = false;
    bool m_checking = false;
    bool m_checkAgain = false;
};

} // namespace redrive::ui
