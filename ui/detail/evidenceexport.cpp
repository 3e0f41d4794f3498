// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#include "evidenceexport.h"

#include "audit/evidenceverifier.h"
#include "connection/session.h"

#include <QCoreApplication>
#include <QJsonDocument>
#include <QJsonObject>
#include <QSaveFile>

namespace redrive::ui {
namespace {

QString whyNot(qint64 eventId, const ApiError &error)
{
    switch (error.httpStatus) {
    case 503:
        if (error.code == u"not_configured")
            return QCoreApplication::translate("redrive::ui::EvidenceExport",
                "the receiver signs no evidence (admin.audit_key_file is not set in its configuration).");
        break;
    case 404:
        if (error.field == u"id")
            return QCoreApplication::translate("redrive::ui::EvidenceExport",
                "the receiver has no event %1. Does this profile read the receiver's own database?")
                .arg(eventId);
        return QCoreApplication::translate("redrive::ui::EvidenceExport",
            "the receiver does not offer evidence bundles (an older redrived?).");
    default:
        break;
    }
    return error.message;
}

} // namespace

EvidenceExport::EvidenceExport(Session *session, QObject *parent)
    : QObject(parent)
    , m_session(session)
{ }

void EvidenceExport::fail(const QString &message)
{
    m_busy = false;
    Q_EMIT finished(false, tr("Evidence was not exported: %1").arg(message));
}

bool EvidenceExport::start(qint64 eventId, const QString &path)
{
    AdminClient *admin = m_session->admin();
    if (m_busy || !admin || eventId <= 0)
        return false;
    m_busy = true;
    Q_EMIT progress(tr("Asking the receiver to build and sign the evidence for event %1…").arg(eventId));
    ApiReply *reply = admin->eventEvidence(eventId);
    connect(reply, &ApiReply::finished, this,
        [this, eventId, path](const QJsonDocument &body, const ApiError &error) {
            if (!error.ok()) {
                fail(whyNot(eventId, error));
                return;
            }
            if (!body.isObject()
                || body.object()
                        .value(QLatin1String("event"))
                        .toObject()
                        .value(QLatin1String("id"))
                        .toInteger()
                    != eventId) {
                fail(tr("the receiver's answer is not an evidence bundle for event %1.").arg(eventId));
                return;
            }
            Q_EMIT progress(tr("Checking the signed bundle and writing %1…").arg(path));
            struct Written {
                audit::EvidenceVerdict verdict;
                QString bundleSha256;
            };
            // Verifying recomputes every hash of the bundle: off the GUI thread, with the file write.
            m_session->stats()->submit(
                this, nullptr,
                [bundle = body.object(), path](Db &) -> Result<Written> {
                    Written w;
                    const QByteArray bytes = QJsonDocument(bundle).toJson(QJsonDocument::Indented);
                    w.verdict = audit::verifyEvidence(bytes);
                    w.bundleSha256 = bundle.value(QLatin1String("bundle_sha256")).toString();
                    QSaveFile file(path);
                    if (!file.open(QIODevice::WriteOnly) || file.write(bytes) < 0 || !file.commit())
                        return Failure(tr("%1 cannot be written: %2").arg(path, file.errorString()));
                    return w;
                },
                [this, eventId, path](const Result<Written> &written) {
                    if (!written) {
                        fail(written.error());
                        return;
                    }
                    m_busy = false;
                    if (!written->verdict.ok) {
                        Q_EMIT finished(false,
                            tr("Evidence for event %1 was written to %2, but it does NOT verify: "
                               "%3")
                                .arg(eventId)
                                .arg(path, written->verdict.problem));
                        return;
                    }
                    Q_EMIT finished(true,
                        tr("Evidence for event %1 written to %2, signed by receiver key %3 "
                           "(bundle SHA-256 %4…). Check it anywhere with: redrive "
                           "--verify-evidence FILE --key-id %3")
                            .arg(eventId)
                            .arg(path, written->verdict.keyId, written->bundleSha256.left(16)));
                });
        });
    return true;
}

} // namespace redrive::ui
