// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#include "auditcontroller.h"

#include "audit/auditmodel.h"
#include "audit/auditverifier.h"
#include "common/timeformat.h"
#include "connection/session.h"
#include "util/clock.h"

#include <QFileDialog>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLayout>
#include <QPushButton>
#include <QSaveFile>
#include <QTableView>
#include <QVBoxLayout>

namespace redrive::ui {

AuditController::AuditController(Session *session, QWidget *page, QObject *parent)
    : QObject(parent)
    , m_session(session)
    , m_container(new QWidget)
    , m_model(new AuditModel(session->stats(), this))
    , m_table(new QTableView(m_container))
    , m_status(new QLabel(m_container))
    , m_verify(new QPushButton(QStringLiteral("Verify chain"), m_container))
    , m_export(new QPushButton(QStringLiteral("Export CSV…"), m_container))
{
    page->layout()->addWidget(m_container);
    m_table->setObjectName(QStringLiteral("auditTable"));
    m_table->setModel(m_model);
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->verticalHeader()->hide();
    m_table->verticalHeader()->setSectionResizeMode(QHeaderView::Fixed);
    m_table->horizontalHeader()->setStretchLastSection(true);
    m_table->setWordWrap(false);
    m_table->setAlternatingRowColors(true);
    m_status->setObjectName(QStringLiteral("auditStatus"));
    m_status->setTextFormat(Qt::PlainText);
    m_status->setWordWrap(true);
    m_verify->setObjectName(QStringLiteral("verifyButton"));
    m_export->setObjectName(QStringLiteral("exportButton"));
    auto *row = new QHBoxLayout;
    row->addWidget(m_status, 1);
    row->addWidget(m_verify);
    row->addWidget(m_export);
    auto *layout = new QVBoxLayout(m_container);
    layout->setContentsMargins(6, 6, 6, 6);
    layout->addLayout(row);
    layout->addWidget(m_table, 1);
    connect(m_verify, &QPushButton::clicked, this, &AuditController::verify);
    connect(m_export, &QPushButton::clicked, this, [this] {
        const QString path = QFileDialog::getSaveFileName(m_container, QStringLiteral("Export audit log"),
            QStringLiteral("redrive-audit.csv"), QStringLiteral("CSV files (*.csv)"));
        if (!path.isEmpty())
            exportCsv(path);
    });
    connect(m_model, &AuditModel::loaded, this, [this] {
        if (m_model->rowCount() <= AuditModel::kPageSize)
            m_table->resizeColumnsToContents();
    });
    connect(m_model, &AuditModel::loadFailed, this, [this](const QString &e) {
        m_status->setText(QStringLiteral("The audit log could not be read: ") + e);
    });
    const bool allowed = session->permissions().readAudit;
    m_verify->setEnabled(allowed);
    m_export->setEnabled(allowed);
}

AuditController::~AuditController()
{
    delete m_container;
}

void AuditController::refresh()
{
    m_model->reload();
}

void AuditController::verify()
{
    m_status->setText(QStringLiteral("Verifying the hash chain…"));
    m_verify->setEnabled(false);
    struct Answer {
        std::optional<audit::VerifyResult> result;
        QString error;
    };
    m_session->stats()->submit(
        this, &m_generation,
        [](Db &db) {
            Answer a;
            audit::VerifyOptions options;
            options.checkSignature = false;
            a.result = audit::verifyAuditChain(db, options, &a.error);
            return a;
        },
        [this](const Answer &a) {
            m_verify->setEnabled(m_session->permissions().readAudit);
            if (!a.result) {
                m_status->setText(QStringLiteral("The chain could not be read: ") + a.error);
                return;
            }
            const audit::VerifyResult &r = *a.result;
            if (r.ok) {
                m_status->setText(
                    QStringLiteral("Chain intact: %L1 entries verified by this console (hashes recomputed "
                                   "from the rows, not taken from the receiver).")
                        .arg(r.count));
                m_status->setStyleSheet(QStringLiteral("color: #1b5e20;"));
                m_model->setFirstBadSeq(0);
            } else {
                m_status->setText(
                    QStringLiteral("Chain BROKEN at entry %1: %2 (%L3 entries before it are intact).")
                        .arg(r.firstBadSeq.value_or(0))
                        .arg(r.problem)
                        .arg(r.count));
                m_status->setStyleSheet(QStringLiteral("color: #b71c1c; font-weight: bold;"));
                m_model->setFirstBadSeq(r.firstBadSeq.value_or(0));
            }
            Q_EMIT verified(r.ok, r.count, r.firstBadSeq.value_or(0));
        });
}

QString AuditController::csvField(const QString &value)
{
    QString v = value;
    if (!v.isEmpty() && (v.front() == u'=' || v.front() == u'+' || v.front() == u'-' || v.front() == u'@'))
        v.prepend(u'\'');
    if (v.contains(u'"') || v.contains(u',') || v.contains(u'\n') || v.contains(u'\r') || v != value)
        return u'"' + QString(v).replace(QLatin1String("\""), QLatin1String("\"\"")) + u'"';
    return v;
}

void AuditController::exportCsv(const QString &path)
{
    struct Answer {
        qint64 rows = 0;
        QString error;
    };
    m_session->stats()->submit(
        this, nullptr,
        [path](Db &db) {
            Answer a;
            QSaveFile file(path);
            if (!file.open(QIODevice::WriteOnly)) {
                a.error = file.errorString();
                return a;
            }
            file.write("seq,at_utc,actor,role,action,target,reason,details,prev_hash,hash\r\n");
            qint64 after = 0;
            while (true) {
                QList<audit::AuditEntry> page;
                audit::AuditQuery q;
                q.afterSeq = after;
                q.limit = 1000;
                if (!audit::readAuditEntries(db, q, &page, &a.error))
                    return a;
                for (const audit::AuditEntry &e : page) {
                    const QStringList cells { QString::number(e.seq), isoUtc(e.atMs), e.actor, e.role,
                        e.action, e.target, e.reason, e.details, e.prevHash, e.hash };
                    QStringList out;
                    for (const QString &c : cells)
                        out.append(csvField(c));
                    file.write(out.join(u',').toUtf8() + "\r\n");
                    ++a.rows;
                    after = e.seq;
                }
                if (page.size() < 1000)
                    break;
            }
            if (!file.commit())
                a.error = file.errorString();
            return a;
        },
        [this, path](const Answer &a) {
            const QString message = a.error.isEmpty()
                ? QStringLiteral("Exported %L1 audit entries to %2.").arg(a.rows).arg(path)
                : QStringLiteral("Export failed: ") + a.error;
            m_status->setText(message);
            Q_EMIT exported(a.error.isEmpty(), message);
        });
}

} // namespace redrive::ui
