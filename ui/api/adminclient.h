// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#pragma once

#include "domain/types.h"

#include <QJsonDocument>
#include <QJsonObject>
#include <QList>
#include <QObject>
#include <QSslCertificate>
#include <QSslError>
#include <QUrl>
#include <QUrlQuery>

#include <optional>

class QNetworkAccessManager;
class QNetworkReply;

namespace redrive::ui {

// What went wrong with an admin API call, already in words a support engineer can act on.
struct ApiError {
    enum class Kind {
        None,
        Unreachable,
        Tls,
        Timeout,
        Unauthorized,
        Forbidden,
        NotFound,
        Conflict,
        BadRequest,
        Server,
        Protocol,
        DatabaseUnavailable // 503 database_unavailable: the receiver cannot reach its database
    };
    Kind kind = Kind::None;
    int httpStatus = 0;
    QString code; // the API's "error" field
    QString field; // the API's "field", when one value was at fault
    QString message; // explained; safe to show (never contains the token)
    int retryAfterSeconds = 0; // from Retry-After on a 503, when the receiver sent one
    // An action the receiver answered before it finished (503 reply_timeout, "outcome":
    // "unknown"): it may still be recorded, so it is neither done nor refused.
    bool outcomeUnknown = false;

    [[nodiscard]] bool ok() const { return kind == Kind::None; }
};

// A page's line for an action that did not go through: `unconfirmed` (e.g. "Pausing crm was not
// confirmed: ") when the receiver may still record it (outcomeUnknown), `refused` (e.g. "crm was
// not paused: ") otherwise; either followed by the error's message.
[[nodiscard]] QString actionErrorText(
    const ApiError &error, const QString &unconfirmed, const QString &refused);

// What a page's status line says while its user's last action is unconfirmed: that action's
// line stays first, above `text` (what the page would say now, a failed read included), so the
// one message saying the outcome is unknown is not lost. `text` alone when none is pending.
[[nodiscard]] QString keepUnconfirmed(const QString &unconfirmed, const QString &text);

// One call in flight. Emits `finished` exactly once, then deletes itself.
class ApiReply final : public QObject {
    Q_OBJECT
public:
    using QObject::QObject;
    // The primary's WAL position after a write, from the Redrive-Commit-LSN header (PostgreSQL);
    // empty otherwise. Set before `finished`.
    [[nodiscard]] QString commitLsn() const { return m_commitLsn; }
    void setCommitLsn(const QString &lsn) { m_commitLsn = lsn; }

Q_SIGNALS:
    void finished(const QJsonDocument &body, const redrive::ui::ApiError &error);

private:
    QString m_commitLsn;
};

// The receiver's admin API (`/admin/v1`, bearer token, JSON). The token is held in memory only,
// for as long as the session lasts; the CA certificates of the profile are trusted in addition
// to the system's.
class AdminClient final : public QObject {
    Q_OBJECT
public:
    AdminClient(
        QUrl baseUrl, QString token, QList<QSslCertificate> caCertificates, QObject *parent = nullptr);

    // Any call by its path below /admin/v1/. Pages use the typed calls further down, which name
    // what they ask for and build its path and body in one place; these two remain for tests
    // and for calls no page has yet.
    ApiReply *get(const QString &path, const QUrlQuery &query = {});
    ApiReply *post(const QString &path, const QJsonObject &body);

    // Connection.
    // GET whoami: the name and role the token belongs to.
    ApiReply *whoami();

    // Event detail.
    // GET events/{id}/evidence: the event's evidence bundle, built and signed by the receiver
    // (which records the export in its audit log).
    ApiReply *eventEvidence(qint64 eventId);
    // POST events/{id}/notes {"body"}: a support note on the event.
    ApiReply *addEventNote(qint64 eventId, const QString &body);
    // POST events/{id}/revalidate: checks a quarantined event against the schema again.
    ApiReply *revalidateEvent(qint64 eventId);
    // POST events/{id}/reveal: the original of a redacted body (operator, auditor), audited.
    ApiReply *revealEvent(qint64 eventId, const QString &reason);

    // Incidents.
    // POST incidents/{id}/acknowledge {"note"}: says someone is dealing with the incident.
    ApiReply *acknowledgeIncident(qint64 incidentId, const QString &note);

    // Destinations.
    // POST destinations/{name}/pause {"reason"}: stops deliveries to the destination.
    // `untilMs`: the pause's end, when the receiver resumes it by itself (none: until resumed).
    ApiReply *pauseDestination(
        const QString &name, const QString &reason, std::optional<qint64> untilMs = {});
    // POST destinations/{name}/resume {"reason"}: sends its waiting deliveries again.
    ApiReply *resumeDestination(const QString &name, const QString &reason);
    // POST destinations/{name}/circuit/close: the deliveries its open circuit held are sent again.
    ApiReply *closeCircuit(const QString &name, const QString &reason);

    // New replay dialog.
    // POST replays/preview: what a replay of `selection` (the filter or ids) would send, with
    // the selection hash that a request for it must name.
    ApiReply *previewReplay(const QJsonObject &selection);
    // POST replays {"selection_hash", "reason", "ticket"}: asks for the previewed replay; an
    // empty ticket is left out.
    ApiReply *createReplay(const QString &selectionHash, const QString &reason, const QString &ticket);

    // Resolve without replay.
    // POST deliveries/resolve {"delivery_ids" | "filter", "resolution", "reason", "ticket"?,
    // "dry_run"?}: dead letters handled another way leave the dead letters.
    ApiReply *resolveDeliveries(const QJsonObject &body);

    // Replays and approvals.
    // GET replays: the newest requests first; `status` (only requests in that state), `limit` and
    // `cursor` (the previous page's next_cursor) are sent only when given.
    ApiReply *listReplays(std::optional<ReplayStatus> status = {}, int limit = 0, const QString &cursor = {});
    // GET replays/{id}: the request with its items; `itemsAfter` (a delivery id, 0 for the
    // start) and `itemsLimit` are sent only when given (>= 0 and > 0).
    ApiReply *replay(qint64 replayId, int itemsLimit = 0, qint64 itemsAfter = -1);
    // POST replays/{id}/approve or /reject {"reason", "selection_hash"}: the decision binds to
    // the frozen selection that was shown (the receiver answers 409 if it differs); an empty
    // hash is left out.
    ApiReply *approveReplay(qint64 replayId, const QString &reason, const QString &selectionHash);
    ApiReply *rejectReplay(qint64 replayId, const QString &reason, const QString &selectionHash);

    // Reconciliation.
    // POST sources/{name}/reconcile: starts a reconciliation run of the source now.
    ApiReply *reconcileSource(const QString &source);

    // Audit log.
    // GET audit/checkpoint: the receiver's latest signed checkpoint of its audit chain.
    ApiReply *auditCheckpoint();

    [[nodiscard]] QUrl baseUrl() const { return m_base; }

Q_SIGNALS:
    // A write succeeded and the receiver named the primary's WAL position after its commit.
    // Emitted before the reply's `finished`, so whoever waits for a replica knows before the
    // page that made the change asks to refresh.
    void committed(const QString &lsn);

public:
    // Reads a PEM file of CA certificates; false with a sentence when it holds none.
    static bool loadCaCertificates(const QString &file, QList<QSslCertificate> *out, QString *error);
    // The explanation for a finished reply; exposed for tests.
    static ApiError errorFor(QNetworkReply *reply, const QByteArray &body, const QList<QSslError> &sslErrors);

private:
    ApiReply *send(QNetworkReply *reply);
    QNetworkAccessManager *m_network;
    QUrl m_base;
    QString m_token;
    QList<QSslCertificate> m_ca;
};

} // namespace redrive::ui

Q_DECLARE_METATYPE(redrive::ui::ApiError)
