// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#pragma once

#include "common/dbexecutor.h"

#include <QObject>

class QLabel;
class QPushButton;
class QTableView;
class QWidget;

namespace redrive::ui {

class AuditModel;
class Session;

// The audit log page. The console verifies the hash chain itself, from the database, with
// core's verifier: it does not take the receiver's word for it. Export writes CSV.
class AuditController final : public QObject {
    Q_OBJECT
public:
    AuditController(Session *session, QWidget *page, QObject *parent = nullptr);
    ~AuditController() override;
    [[nodiscard]] AuditModel *model() const { return m_model; }
    void refresh();
    void verify();
    // Writes every entry (not just the loaded ones) to `path` on the database thread.
    void exportCsv(const QString &path);

    // RFC 4180 quoting, and a leading quote for cells a spreadsheet would run as a formula.
    static QString csvField(const QString &value);

Q_SIGNALS:
    void verified(bool ok, qint64 count, qint64 firstBadSeq);
    void exported(bool ok, const QString &message);

private:
    Session *m_session;
    QWidget *m_container;
    AuditModel *m_model;
    QTableView *m_table;
    QLabel *m_status;
    QPushButton *m_verify;
    QPushButton *m_export;
    Generation m_generation;
};

} // namespace redrive::ui
