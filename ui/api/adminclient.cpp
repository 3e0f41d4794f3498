// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#include "adminclient.h"

#include "util/clock.h"

#include <QFile>
#include <QNetworkAccessManager>
#include <QNetworkReply>
#include <QSslConfiguration>

namespace redrive::ui {
namespace {

constexpr int kTimeoutMs = 15'000;

QString sslErrorsText(const QList<QSslError> &errors)
{
    QStringList parts;
    for (const QSslError &e : errors)
        parts.append(e.errorString());
    parts.removeDuplicates();
    return parts.join(QLatin1String("; "));
}

// A name (a destination's, a source's) as one segment of a path: '/', '?', '#' and the rest
// percent-encoded, so it cannot reach another endpoint.
QString pathSegment(const QString &name)
{
    return QString::fromLatin1(QUrl::toPercentEncoding(name));
}

} // namespace

QString actionErrorText(const ApiError &error, const QString &unconfirmed, const QString &refused)
{
    return (error.outcomeUnknown ? unconfirmed : refused) + error.message;
}

QString keepUnconfirmed(const QString &unconfirmed, const QString &text)
{
    return unconfirmed.isEmpty() ? text : unconfirmed + u'\n' + text;
}

AdminClient::AdminClient(QUrl baseUrl, QString token, QList<QSslCertificate> caCertificates, QObject *parent)
    : QObject(parent)
    , m_network(new QNetworkAccessManager(this))
    , m_base(std::move(baseUrl))
    , m_token(std::move(token))
    , m_ca(std::move(caCertificates))
{
    QString path = m_base.path();
    if (!path.endsWith(u'/'))
        path += u'/';
    if (!path.endsWith(QLatin1String("admin/v1/")))
        path += QLatin1String("admin/v1/");
    m_base.setPath(path);
}

bool AdminClient::loadCaCertificates(const QString &file, QList<QSslCertificate> *out, QString *error)
{
    QFile f(file);
    if (!f.open(QIODevice::ReadOnly)) {
        *error = tr("The CA certificate file %1 cannot be read: %2").arg(file, f.errorString());
        return false;
    }
    *out = QSslCertificate::fromData(f.readAll(), QSsl::Pem);
    if (out->isEmpty()) {
        *error = tr("The CA certificate file %1 holds no PEM certificate.").arg(file);
        return false;
    }
    return true;
}

ApiReply *AdminClient::get(const QString &path, const QUrlQuery &query)
{
    QUrl url = m_base.resolved(QUrl(path));
    url.setQuery(query);
    QNetworkRequest request(url);
    request.setRawHeader("Authorization", "Bearer " + m_token.toUtf8());
    request.setRawHeader("Accept", "application/json");
    request.setTransferTimeout(kTimeoutMs);
    if (!m_ca.isEmpty()) {
        QSslConfiguration ssl = QSslConfiguration::defaultConfiguration();
        ssl.addCaCertificates(m_ca);
        request.setSslConfiguration(ssl);
    }
    return send(m_network->get(request));
}

ApiReply *AdminClient::post(const QString &path, const QJsonObject &body)
{
    QNetworkRequest request(m_base.resolved(QUrl(path)));
    request.setRawHeader("Authorization", "Bearer " + m_token.toUtf8());
    request.setRawHeader("Accept", "application/json");
    request.setHeader(QNetworkRequest::ContentTypeHeader, QStringLiteral("application/json"));
    request.setTransferTimeout(kTimeoutMs);
    if (!m_ca.isEmpty()) {
        QSslConfiguration ssl = QSslConfiguration::defaultConfiguration();
        ssl.addCaCertificates(m_ca);
        request.setSslConfiguration(ssl);
    }
    return send(m_network->post(request, QJsonDocument(body).toJson(QJsonDocument::Compact)));
}

ApiReply *AdminClient::whoami()
{
    return get(QStringLiteral("whoami"));
}

ApiReply *AdminClient::eventEvidence(qint64 eventId)
{
    return get(QStringLiteral("events/%1/evidence").arg(eventId));
}

ApiReply *AdminClient::addEventNote(qint64 eventId, const QString &body)
{
    return post(
        QStringLiteral("events/%1/notes").arg(eventId), QJsonObject { { QStringLiteral("body"), body } });
}

ApiReply *AdminClient::revealEvent(qint64 eventId, const QString &reason)
{
    return post(QStringLiteral("events/%1/reveal").arg(eventId),
        QJsonObject { { QStringLiteral("reason"), reason } });
}

ApiReply *AdminClient::revalidateEvent(qint64 eventId)
{
    return post(QStringLiteral("events/%1/revalidate").arg(eventId), QJsonObject {});
}

ApiReply *AdminClient::acknowledgeIncident(qint64 incidentId, const QString &note)
{
    return post(QStringLiteral("incidents/%1/acknowledge").arg(incidentId),
        QJsonObject { { QStringLiteral("note"), note } });
}

ApiReply *AdminClient::pauseDestination(
    const QString &name, const QString &reason, std::optional<qint64> untilMs)
{
    QJsonObject body { { QStringLiteral("reason"), reason } };
    if (untilMs)
        body.insert(QStringLiteral("until"), isoUtc(*untilMs));
    return post(QStringLiteral("destinations/%1/pause").arg(pathSegment(name)), body);
}

ApiReply *AdminClient::closeCircuit(const QString &name, const QString &reason)
{
    return post(QStringLiteral("destinations/%1/circuit/close").arg(pathSegment(name)),
        QJsonObject { { QStringLiteral("reason"), reason } });
}

ApiReply *AdminClient::resumeDestination(const QString &name, const QString &reason)
{
    return post(QStringLiteral("destinations/%1/resume").arg(pathSegment(name)),
        QJsonObject { { QStringLiteral("reason"), reason } });
}

ApiReply *AdminClient::resolveDeliveries(const QJsonObject &body)
{
    return post(QStringLiteral("deliveries/resolve"), body);
}

ApiReply *AdminClient::previewReplay(const QJsonObject &selection)
{
    return post(QStringLiteral("replays/preview"), selection);
}

ApiReply *AdminClient::createReplay(
    const QString &selectionHash, const QString &reason, const QString &ticket)
{
    QJsonObject body { { QStringLiteral("selection_hash"), selectionHash },
        { QStringLiteral("reason"), reason } };
    if (!ticket.isEmpty())
        body.insert(QStringLiteral("ticket"), ticket);
    return post(QStringLiteral("replays"), body);
}

ApiReply *AdminClient::listReplays(std::optional<ReplayStatus> status, int limit, const QString &cursor)
{
    QUrlQuery query;
    if (status)
        query.addQueryItem(QStringLiteral("status"), toString(*status));
    if (limit > 0)
        query.addQueryItem(QStringLiteral("limit"), QString::number(limit));
    if (!cursor.isEmpty())
        query.addQueryItem(QStringLiteral("cursor"), cursor);
    return get(QStringLiteral("replays"), query);
}

ApiReply *AdminClient::replay(qint64 replayId, int itemsLimit, qint64 itemsAfter)
{
    QUrlQuery query;
    if (itemsAfter >= 0)
        query.addQueryItem(QStringLiteral("items_after"), QString::number(itemsAfter));
    if (itemsLimit > 0)
        query.addQueryItem(QStringLiteral("items_limit"), QString::number(itemsLimit));
    return get(QStringLiteral("replays/%1").arg(replayId), query);
}

namespace {
QJsonObject decisionBody(const QString &reason, const QString &selectionHash)
{
    QJsonObject body { { QStringLiteral("reason"), reason } };
    if (!selectionHash.isEmpty())
        body.insert(QStringLiteral("selection_hash"), selectionHash);
    return body;
}
} // namespace

ApiReply *AdminClient::approveReplay(qint64 replayId, const QString &reason, const QString &selectionHash)
{
    return post(QStringLiteral("replays/%1/approve").arg(replayId), decisionBody(reason, selectionHash));
}

ApiReply *AdminClient::rejectReplay(qint64 replayId, const QString &reason, const QString &selectionHash)
{
    return post(QStringLiteral("replays/%1/reject").arg(replayId), decisionBody(reason, selectionHash));
}

ApiReply *AdminClient::reconcileSource(const QString &source)
{
    return post(QStringLiteral("sources/%1/reconcile").arg(pathSegment(source)), QJsonObject {});
}

ApiReply *AdminClient::auditCheckpoint()
{
    return get(QStringLiteral("audit/checkpoint"));
}

ApiReply *AdminClient::send(QNetworkReply *reply)
{
    auto *out = new ApiReply(this);
    auto sslErrors = std::make_shared<QList<QSslError>>();
    connect(reply, &QNetworkReply::sslErrors, out,
        [sslErrors](const QList<QSslError> &errors) { *sslErrors = errors; });
    connect(reply, &QNetworkReply::finished, out, [this, out, reply, sslErrors] {
        const QByteArray body = reply->readAll();
        const ApiError error = errorFor(reply, body, *sslErrors);
        QJsonDocument doc = QJsonDocument::fromJson(body);
        if (error.ok() && reply->operation() != QNetworkAccessManager::GetOperation) {
            out->setCommitLsn(QString::fromLatin1(reply->rawHeader("Redrive-Commit-LSN")).trimmed());
            if (!out->commitLsn().isEmpty())
                Q_EMIT committed(out->commitLsn());
        }
        reply->deleteLater();
        Q_EMIT out->finished(doc, error);
        out->deleteLater();
    });
    return out;
}

ApiError AdminClient::errorFor(
    QNetworkReply *reply, const QByteArray &body, const QList<QSslError> &sslErrors)
{
    ApiError e;
    e.httpStatus = reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt();
    const QString host = reply->url().host() + u':' + QString::number(reply->url().port(443));
    if (e.httpStatus == 0) {
        switch (reply->error()) {
        case QNetworkReply::NoError:
            e.kind = ApiError::Kind::Protocol;
            e.message = tr("The admin API at %1 gave no HTTP answer.").arg(host);
            return e;
        case QNetworkReply::SslHandshakeFailedError:
            e.kind = ApiError::Kind::Tls;
            e.message = tr("The admin API at %1 presented a certificate this console does not trust (%2). "
                           "Check the CA certificate in the profile, and that the address names the "
                           "host the certificate was issued for.")
                            .arg(host, sslErrors.isEmpty() ? reply->errorString() : sslErrorsText(sslErrors));
            return e;
        case QNetworkReply::ConnectionRefusedError:
            e.kind = ApiError::Kind::Unreachable;
            e.message = tr("Nothing is listening at %1: the receiver's admin API is not running there, "
                           "or admin_listen names another address.")
                            .arg(host);
            return e;
        case QNetworkReply::HostNotFoundError:
            e.kind = ApiError::Kind::Unreachable;
            e.message = tr("The host name %1 does not resolve. Check the admin API address.")
                            .arg(reply->url().host());
            return e;
        case QNetworkReply::TimeoutError:
        case QNetworkReply::OperationCanceledError:
            e.kind = ApiError::Kind::Timeout;
            e.message = tr("The admin API at %1 did not answer in time.").arg(host);
            return e;
        case QNetworkReply::RemoteHostClosedError:
            e.kind = ApiError::Kind::Unreachable;
            e.message = tr("The admin API at %1 closed the connection. If it expects TLS, the address "
                           "must start with https://.")
                            .arg(host);
            return e;
        default:
            e.kind = ApiError::Kind::Unreachable;
            e.message = tr("The admin API at %1 could not be reached (%2).").arg(host, reply->errorString());
            return e;
        }
    }
    if (e.httpStatus >= 200 && e.httpStatus < 300)
        return e;
    const QJsonObject obj = QJsonDocument::fromJson(body).object();
    e.code = obj.value(QLatin1String("error")).toString();
    e.field = obj.value(QLatin1String("field")).toString();
    const QString serverText = obj.value(QLatin1String("message")).toString();
    auto withServer = [&](const QString &text) {
        return serverText.isEmpty() ? text : text + tr(" The server said: ") + serverText;
    };
    if (e.httpStatus == 503) {
        bool numeric = false;
        const int retryAfter = reply->rawHeader("Retry-After").trimmed().toInt(&numeric);
        e.retryAfterSeconds = numeric && retryAfter > 0 ? retryAfter : 0;
    }
    if (e.httpStatus == 503 && e.code == u"database_unavailable") {
        e.kind = ApiError::Kind::DatabaseUnavailable;
        e.message = e.retryAfterSeconds > 0
            ? tr("The receiver cannot reach its database; try again in %1 s.").arg(e.retryAfterSeconds)
            : tr("The receiver cannot reach its database; try again shortly.");
        // The receiver refuses before acting while the database is down; only a database lost
        // in the middle of a write leaves its outcome open (the commit may have landed).
        if (reply->operation() != QNetworkAccessManager::GetOperation)
            e.message += tr(" If the database went away during this action it may have been "
                            "recorded: check the page before repeating it.");
        return e;
    }
    if (e.httpStatus == 503 && e.code == u"reply_timeout") {
        // The receiver answered for a handler its database still holds: a read can be repeated,
        // an action may yet be recorded.
        e.kind = ApiError::Kind::Timeout;
        e.message = tr("The receiver did not finish in time; its database may be hung.");
        e.outcomeUnknown = reply->operation() != QNetworkAccessManager::GetOperation;
        if (e.outcomeUnknown)
            e.message += tr(" This action may still be recorded: check the page before repeating it.");
        return e;
    }
    switch (e.httpStatus) {
    case 400:
        e.kind = ApiError::Kind::BadRequest;
        e.message = withServer(e.field.isEmpty() ? tr("The request was refused as malformed.")
                                                 : tr("The value of \"%1\" was refused.").arg(e.field));
        break;
    case 401:
        e.kind = ApiError::Kind::Unauthorized;
        e.message = tr("The admin API rejected the token: it is wrong, revoked or expired. "
                       "Ask an administrator for a new one (redrived token create).");
        break;
    case 403:
        e.kind = ApiError::Kind::Forbidden;
        e.message = withServer(
            tr("Your role does not allow this action; the attempt was recorded in the audit log."));
        break;
    case 404:
        e.kind = ApiError::Kind::NotFound;
        e.message = withServer(
            tr("The admin API does not know this item (or this address is not a Redrive admin API)."));
        break;
    case 409:
        e.kind = ApiError::Kind::Conflict;
        e.message = withServer(tr("The item changed in the meantime."));
        break;
    default:
        e.kind = e.httpStatus >= 500 ? ApiError::Kind::Server : ApiError::Kind::Protocol;
        e.message = withServer(tr("The admin API answered HTTP %1.").arg(e.httpStatus));
        break;
    }
    return e;
}

} // namespace redrive::ui
