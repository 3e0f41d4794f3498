// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#include "evidenceexport.h"

#include "audit/evidence.h"
#include "audit/evidencereader.h"
#include "connection/session.h"
#include "util/clock.h"

#include <QJsonDocument>
#include <QSaveFile>

namespace redrive::ui {

EvidenceExport::EvidenceExport(Session *session, const Clock &clock, QObject *parent)
    : QObject(parent)
    , m_session(session)
    , m_clock(clock)
{}

void EvidenceExport::fail(const QString &message)
{
    m_busy = false;
    Q_EMIT finished(false, QStringLiteral("Evidence was not exported: ") + message);
}

bool EvidenceExport::start(qint64 eventId, const QString &path)
{
    AdminClient *admin = m_session->admin();
    if (m_busy || !admin || eventId <= 0)
        return false;
    m_busy = true;
    Q_EMIT progress(QStringLiteral("Asking the receiver for a signed audit checkpoint…"));
    ApiReply *reply = admin->get(QStringLiteral("audit/checkpoint"));
    connect(reply, &ApiReply::finished, this, [this, eventId, path](const QJsonDocument &body, const ApiError &error) {
        if (!error.ok()) {
            fail(error.httpStatus == 503 ? QStringLiteral("the receiver signs no checkpoints (admin.audit_key_file is not "
                                                          "set in its configuration).")
                                         : error.message);
            return;
        }
        QString why;
        const auto checkpoint = audit::Checkpoint::fromJson(body.object(), &why);
        if (!checkpoint) {
            fail(QStringLiteral("the receiver's checkpoint is malformed (%1).").arg(why));
            return;
        }
        if (!checkpoint->signatureValid()) {
            fail(QStringLiteral("the receiver's checkpoint signature does not verify."));
            return;
        }
        Q_EMIT progress(QStringLiteral("Reading event %1 and the audit log up to entry %2…").arg(eventId).arg(checkpoint->seq));
        audit::EvidenceMeta meta;
        meta.exportedAtMs = m_clock.nowMs();
        meta.exportedBy = m_session->user();
        meta.role = m_session->role() ? toString(*m_session->role()) : QString();
        meta.generator = QStringLiteral("redrive console " REDRIVE_VERSION);
        struct Answer {
            QString error;
            QString bundleSha256;
        };
        m_session->stats()->submit(
            this, nullptr,
            [eventId, path, cp = *checkpoint, meta](Db &db) {
                Answer a;
                audit::EvidenceReadOptions options;
                options.checkpointSeq = cp.seq;
                const auto data = audit::readEvidenceData(db, eventId, options, &a.error);
                if (!data) {
                    if (a.error.isEmpty())
                        a.error = QStringLiteral("event %1 no longer exists.").arg(eventId);
                    return a;
                }
                const QJsonObject bundle = audit::buildEvidenceBundle(*data, cp, meta);
                QSaveFile file(path);
                if (!file.open(QIODevice::WriteOnly) || file.write(QJsonDocument(bundle).toJson(QJsonDocument::Indented)) < 0
                    || !file.commit()) {
                    a.error = QStringLiteral("%1 cannot be written: %2").arg(path, file.errorString());
                    return a;
                }
                a.bundleSha256 = bundle.value(QLatin1String("bundle_sha256")).toString();
                return a;
            },
            [this, eventId, path](const Answer &a) {
                if (!a.error.isEmpty()) {
                    fail(a.error);
                    return;
                }
                m_busy = false;
                Q_EMIT finished(true, QStringLiteral("Evidence for event %1 written to %2 (bundle SHA-256 %3…). Check it "
                                                     "anywhere with: redrive --verify-evidence FILE")
                                          .arg(eventId)
                                          .arg(path, a.bundleSha256.left(16)));
            });
    });
    return true;
}

} // namespace redrive::ui
