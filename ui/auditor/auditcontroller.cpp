// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#include "auditcontroller.h"

#include "audit/evidenceverifier.h"
#include "audit/rangeevidence.h"
#include "audit/signingkey.h"
#include "auditor/auditmodel.h"
#include "auditor/auditview.h"
#include "auditor/chainstatustext.h"
#include "common/filechooser.h"
#include "common/prompter.h"
#include "common/timeformat.h"
#include "connection/session.h"
#include "util/clock.h"

#include <QCoreApplication>
#include <QDir>
#include <QFileInfo>
#include <QHeaderView>
#include <QJsonDocument>
#include <QSaveFile>
#include <QTableView>

namespace redrive::ui {
namespace {

QString noCheckpointBecause(const ApiError &error)
{
    if (error.httpStatus == 503 && error.code == u"not_configured")
        return QCoreApplication::translate("redrive::ui::AuditController",
            "no signed checkpoint: the receiver has no audit key (admin.audit_key_file)");
    return QCoreApplication::translate("redrive::ui::AuditController", "no signed checkpoint: %1")
        .arg(error.message);
}

bool writeFile(const QString &path, const QByteArray &bytes, QString *error)
{
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly) || file.write(bytes) != bytes.size() || !file.commit()) {
        *error = QCoreApplication::translate("redrive::ui::AuditController", "%1 cannot be written: %2")
                     .arg(path, file.errorString());
        return false;
    }
    return true;
}

} // namespace

AuditController::AuditController(
    Session *session, AuditView *view, QSettings &settings, const Clock &clock, QObject *parent)
    : QObject(parent)
    , m_session(session)
    , m_clock(clock)
    , m_trust(settings, session->profile().name)
    , m_view(view)
    , m_model(new AuditModel(session->stats(), this))
{
    m_view->reset();
    m_view->table()->setModel(m_model);
    const Permissions can = session->permissions();
    m_view->setActionsEnabled(can.readAudit, can.exportEvidence && session->admin());
    connect(m_view, &AuditView::filterChanged, this, &AuditController::applyFilter);
    connect(m_view, &AuditView::saveCheckpointRequested, this, &AuditController::saveCheckpoint);
    connect(m_view, &AuditView::trustNewKeyRequested, this, &AuditController::trustNewKey);
    connect(m_view, &AuditView::exportCsvRequested, this, [this] {
        const QString path = FileChooser::saveFileName(
            m_view, tr("Export audit log"), QStringLiteral("redrive-audit.csv"), tr("CSV files (*.csv)"));
        if (!path.isEmpty())
            exportCsv(path);
    });
    connect(m_view, &AuditView::exportEvidenceRequested, this, [this] {
        const QString path = FileChooser::saveFileName(m_view, tr("Export audit evidence"),
            QStringLiteral("redrive-audit-evidence-%1.json")
                .arg(m_clock.now().toString(QStringLiteral("yyyyMMdd-HHmm"))),
            tr("Evidence bundles (*.json)"));
        if (!path.isEmpty())
            exportEvidence(path);
    });
    connect(m_model, &AuditModel::loaded, this, [this] {
        if (m_model->rowCount() <= AuditModel::kPageSize)
            m_view->table()->resizeColumnsToContents();
    });
    connect(m_model, &AuditModel::loadFailed, this,
        [this](const QString &e) { showMessage(tr("The audit log could not be read: %1").arg(e)); });
}

void AuditController::refresh()
{
    if (m_model->rowCount() == 0 && !m_model->isLoading())
        applyFilter();
    else
        m_model->fetchNewer();
    verify();
}

void AuditController::applyFilter()
{
    m_model->setFilter(m_view->filter(m_clock.nowMs()));
}

void AuditController::showMessage(const QString &text)
{
    m_view->setMessage(text);
}

void AuditController::verify()
{
    if (m_checking) { // one walk at a time; the latest request runs when it ends
        m_checkAgain = true;
        return;
    }
    m_checking = true;
    AdminClient *admin = m_session->admin();
    if (!admin) {
        m_noCheckpointReason = tr("no signed checkpoint: this profile has no admin API");
        runCheck(std::nullopt);
        return;
    }
    ApiReply *reply = admin->auditCheckpoint();
    connect(reply, &ApiReply::finished, this, &AuditController::checkpointArrived);
}

void AuditController::checkpointArrived(const QJsonDocument &body, const ApiError &error)
{
    m_keyWarnings.clear();
    m_offerNewKey = false;
    m_noCheckpointReason.clear();
    if (!error.ok()) {
        m_noCheckpointReason = noCheckpointBecause(error);
        runCheck(std::nullopt);
        return;
    }
    const auto cp = audit::Checkpoint::fromJson(body.object());
    if (!cp) {
        m_keyWarnings.append(
            tr("The receiver's checkpoint is malformed (%1): nothing in it is trusted.").arg(cp.error()));
    } else if (!cp->signatureValid()) {
        m_keyWarnings.append(
            tr("The receiver's checkpoint signature does NOT verify: nothing in it is trusted."));
    } else {
        const QString keyId = audit::SigningKey::keyIdOf(cp->publicKey);
        switch (m_trust.checkKey(keyId)) {
        case AuditTrustStore::Pin::PinnedNow:
        case AuditTrustStore::Pin::Matches:
            break;
        case AuditTrustStore::Pin::Different:
            m_keyWarnings.append(
                tr("The receiver's audit key CHANGED: this profile pinned key %1, but the checkpoint "
                   "is signed by key %2. Nothing it signs is trusted until you confirm the new key "
                   "with whoever runs the receiver.")
                    .arg(m_trust.pinnedKeyId(), keyId));
            m_offerNewKey = true;
            break;
        }
    }
    m_view->setKeyWarnings(m_keyWarnings, m_offerNewKey);
    if (!m_keyWarnings.isEmpty()) {
        m_noCheckpointReason = tr("the receiver's checkpoint is NOT trusted (see the warning)");
        runCheck(std::nullopt);
        return;
    }
    runCheck(*cp);
}

void AuditController::runCheck(const std::optional<audit::Checkpoint> &signedCheckpoint)
{
    if (!signedCheckpoint)
        m_view->setKeyWarnings(m_keyWarnings, m_offerNewKey);
    std::optional<audit::ChainAnchor> signedAnchor;
    if (signedCheckpoint) {
        signedAnchor = audit::ChainAnchor { signedCheckpoint->seq, signedCheckpoint->hash,
            signedCheckpoint->atMs, audit::SigningKey::keyIdOf(signedCheckpoint->publicKey) };
    }
    const QList<audit::ChainAnchor> saved = m_trust.savedCheckpoints();
    QList<audit::ChainAnchor> anchors = saved;
    if (signedAnchor)
        anchors.prepend(*signedAnchor);
    // The walk recomputes every hash: on the database thread, never on the GUI thread.
    m_session->stats()->submit(
        this, nullptr, [anchors](Db &db) { return audit::checkChain(db, anchors); },
        [this, signedCheckpoint, signedAnchor, saved](const Result<audit::ChainReport> &report) {
            m_checking = false;
            m_trusted.reset();
            m_intactHead.reset();
            if (!report) {
                m_view->setChainStatus(
                    tr("The chain could not be read: %1").arg(report.error()), AuditView::Health::Bad);
            } else {
                const ChainStatusText text
                    = describeChainStatus(*report, signedAnchor, saved, m_noCheckpointReason);
                m_view->setChainStatus(
                    text.chain, text.chainGood ? AuditView::Health::Good : AuditView::Health::Bad);
                m_view->setCheckpointStatus(text.checkpoints,
                    text.checkpointsGood ? AuditView::Health::Unknown : AuditView::Health::Bad);
                const audit::VerifyResult &r = report->chain;
                m_model->setFirstBadSeq(r.ok ? 0 : r.firstBadSeq.value_or(0));
                if (r.ok) {
                    m_intactHead = r.head;
                    if (signedCheckpoint
                        && report->anchors.value(0).state == audit::AnchorResult::State::Unchanged)
                        m_trusted = signedCheckpoint;
                }
                Q_EMIT verified(r.ok, r.count, r.firstBadSeq.value_or(0));
            }
            Q_EMIT statusUpdated();
            if (m_checkAgain) {
                m_checkAgain = false;
                verify();
            }
        });
}

void AuditController::trustNewKey()
{
    Prompter::Question q;
    q.title = tr("Trust a new audit key");
    q.text = tr(
        "The receiver now signs its audit checkpoints with another key. Trust it only when whoever runs the "
        "receiver confirms the key was rotated (`redrived audit checkpoint` prints its id). A key you did not "
        "expect can mean someone else is answering for the receiver.");
    q.confirmLabel = tr("Trust the new key");
    if (!Prompter::ask(m_view, q).confirmed)
        return;
    m_trust.forgetPin();
    showMessage(tr("The pinned key was forgotten; the receiver's current key is pinned on this check."));
    verify();
}

bool AuditController::saveCheckpoint()
{
    if (!m_intactHead) {
        showMessage(tr("No checkpoint saved: the chain is not known to be intact (see the status above)."));
        return false;
    }
    audit::ChainAnchor a;
    QString signer;
    if (m_trusted) {
        a = { m_trusted->seq, m_trusted->hash, m_trusted->atMs,
            audit::SigningKey::keyIdOf(m_trusted->publicKey) };
        signer = tr("signed by receiver key %1").arg(a.keyId);
    } else {
        a = { m_intactHead->seq, m_intactHead->hash, m_clock.nowMs(), QString() };
        signer = tr("computed by this console, not signed by the receiver");
    }
    if (!m_trust.saveCheckpoint(a)) {
        showMessage(tr("Checkpoint #%1 is already saved.").arg(a.seq));
        return false;
    }
    showMessage(tr("Checkpoint #%1 saved on this computer (%2).").arg(a.seq).arg(signer));
    verify();
    return true;
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
    // The rows written, or why the file is not there.
    m_session->stats()->submit(
        this, nullptr,
        [path, filter = m_model->filter()](Db &db) -> Result<qint64> {
            qint64 rows = 0;
            QSaveFile file(path);
            if (!file.open(QIODevice::WriteOnly))
                return Failure(file.errorString());
            file.write("seq,at_utc,actor,role,action,target,reason,details,prev_hash,hash\r\n");
            audit::AuditQuery q = filter;
            q.afterSeq = 0;
            q.limit = 1000;
            while (true) {
                auto read = audit::readAuditEntries(db, q);
                if (!read)
                    return Failure(read.error());
                const QList<audit::AuditEntry> &page = *read;
                for (const audit::AuditEntry &e : page) {
                    const QStringList cells { QString::number(e.seq), isoUtc(e.atMs), e.actor, e.role,
                        e.action, e.target, e.reason, e.details, e.prevHash, e.hash };
                    QStringList out;
                    for (const QString &c : cells)
                        out.append(csvField(c));
                    file.write(out.join(u',').toUtf8() + "\r\n");
                    ++rows;
                    q.afterSeq = e.seq;
                }
                if (page.size() < q.limit)
                    break;
            }
            if (!file.commit())
                return Failure(file.errorString());
            return rows;
        },
        [this, path, filtered = m_model->filter().isFiltered()](const Result<qint64> &rows) {
            QString message;
            if (!rows)
                message = tr("Export failed: %1").arg(rows.error());
            // "entry" has no "(s)" plural: one sentence for one entry, a numerus one for the rest.
            else if (*rows == 1)
                message = filtered ? tr("Exported 1 filtered audit entry to %1.").arg(path)
                                   : tr("Exported 1 audit entry to %1.").arg(path);
            else
                message = filtered
                    ? tr("Exported %Ln filtered audit entries to %1.", nullptr, int(*rows)).arg(path)
                    : tr("Exported %Ln audit entries to %1.", nullptr, int(*rows)).arg(path);
            showMessage(message);
            Q_EMIT exported(rows.has_value(), message);
        });
}

QString AuditController::readmePathFor(const QString &bundlePath)
{
    const QFileInfo info(bundlePath);
    return info.dir().filePath(info.completeBaseName() + QStringLiteral("-README.txt"));
}

void AuditController::exportEvidence(const QString &path)
{
    if (!m_trusted) {
        const QString message = tr(
            "Evidence was not exported: it needs a checkpoint signed by the receiver with the pinned key, and "
            "the last check had none (%1).")
                                    .arg(m_noCheckpointReason.isEmpty() ? tr("the chain is not intact")
                                                                        : m_noCheckpointReason);
        showMessage(message);
        Q_EMIT evidenceExported(false, message);
        return;
    }
    const auto [since, until] = m_view->range(m_clock.nowMs());
    audit::AuditEvidenceMeta meta;
    meta.exportedAtMs = m_clock.nowMs();
    meta.exportedBy = m_session->user();
    meta.generator = QStringLiteral("redrive ") + QCoreApplication::applicationVersion();
    struct Written {
        audit::EvidenceVerdict verdict;
        qint64 inRange = 0;
    };
    showMessage(tr("Building the evidence for %1 .. %2…").arg(isoUtc(since), isoUtc(until)));
    m_session->stats()->submit(
        this, nullptr,
        [cp = *m_trusted, range = audit::AuditRange { since, until }, meta, path](Db &db) -> Result<Written> {
            Written w;
            const auto bundle = audit::buildAuditRangeEvidence(db, cp, range, meta);
            if (!bundle)
                return Failure(bundle.error());
            const QByteArray bytes = QJsonDocument(*bundle).toJson(QJsonDocument::Indented);
            // The file is checked as a stranger would check it before anyone relies on it.
            w.verdict = audit::verifyEvidence(bytes);
            w.inRange = bundle->value(QLatin1String("range"))
                            .toObject()
                            .value(QLatin1String("entries_in_range"))
                            .toInteger();
            const QString readme = audit::auditEvidenceReadme(*bundle, QFileInfo(path).fileName());
            QString error;
            if (!writeFile(path, bytes, &error) || !writeFile(readmePathFor(path), readme.toUtf8(), &error))
                return Failure(error);
            return w;
        },
        [this, path](const Result<Written> &written) {
            QString message;
            bool ok = false;
            if (!written) {
                message = tr("Evidence was not exported: %1").arg(written.error());
            } else if (!written->verdict.ok) {
                message = tr("Evidence was written to %1, but it does NOT verify: %2")
                              .arg(path, written->verdict.problem);
            } else {
                ok = true;
                const QString readme = QFileInfo(readmePathFor(path)).fileName();
                message = written->inRange == 1
                    ? tr("Evidence for 1 entry written to %1 (with %2). Check it anywhere with: "
                         "redrive --verify-evidence FILE --key-id %3")
                          .arg(path, readme, written->verdict.keyId)
                    : tr("Evidence for %Ln entries written to %1 (with %2). Check it anywhere with: "
                         "redrive --verify-evidence FILE --key-id %3",
                        nullptr, int(written->inRange))
                          .arg(path, readme, written->verdict.keyId);
            }
            showMessage(message);
            Q_EMIT evidenceExported(ok, message);
        });
}

} // namespace redrive::ui
