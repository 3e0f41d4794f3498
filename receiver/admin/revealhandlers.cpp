// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#include "revealhandlers.h"

#include "admin/jsonbody.h"
#include "query/eventdetail.h"
#include "storage/sqlrow.h"

#include <QJsonArray>
#include <QStringDecoder>

namespace redrive::admin {

http::Response revealEvent(RequestContext &ctx, qint64 eventId)
{
    const QString target = QStringLiteral("event:%1").arg(eventId);
    if (auto r = requirePermission(ctx, access::Action::RevealPayload, target))
        return *r;
    ApiError e;
    const auto reason
        = readTextBody(ctx.request.body, QStringLiteral("reason"), TextRule { true, 1000, true }, &e);
    if (!reason)
        return errorResponse(e);

    // The read and its audit entry in one transaction: nobody sees an original that is not in
    // the audit log.
    Transaction tx(ctx.db);
    if (auto failed = beginWrite(tx, "revealing an event"))
        return *failed;
    struct Original {
        QByteArray body;
        QString contentType;
        QByteArray paths;
        std::optional<qint64> erasedAt;
    };
    const auto read = selectRow(ctx.db,
        QStringLiteral("SELECT body, content_type, redacted_paths, erased_at FROM events WHERE id = ?"),
        { eventId }, [](const QSqlQuery &q) {
            Original o;
            readColumns(q, o.body, o.contentType, o.paths, o.erasedAt);
            return o;
        });
    if (!read)
        return databaseError("revealing an event", read.error());
    if (!*read)
        return errorResponse(404, QStringLiteral("not_found"),
            QStringLiteral("event %1 does not exist").arg(eventId), QStringLiteral("id"));
    const Original &original = **read;
    if (original.erasedAt)
        return errorResponse(409, QStringLiteral("payload_erased"),
            QStringLiteral("event %1 was erased: its body is gone").arg(eventId), QStringLiteral("id"));
    const QJsonArray paths = QJsonDocument::fromJson(original.paths).array();
    const auto record = ctx.record(QStringLiteral("payload_revealed"), target, *reason,
        QJsonObject { { QStringLiteral("redacted_paths"), paths },
            { QStringLiteral("body_size"), static_cast<qint64>(original.body.size()) } });
    if (auto committed = auditAndCommit(ctx, tx, record); !committed)
        return databaseError("revealing an event", committed.error());

    QJsonObject answer { { QStringLiteral("event_id"), eventId },
        { QStringLiteral("content_type"), original.contentType }, { QStringLiteral("redacted_paths"), paths },
        { QStringLiteral("body_base64"), QString::fromLatin1(original.body.toBase64()) } };
    // The text as well when it is UTF-8 (every JSON body), so a reader needs no decoding step.
    auto decode = QStringDecoder(QStringDecoder::Utf8, QStringDecoder::Flag::Stateless);
    const QString text = decode(original.body);
    if (!decode.hasError())
        answer.insert(QStringLiteral("body"), text);
    return jsonResponse(200, answer);
}

} // namespace redrive::admin
