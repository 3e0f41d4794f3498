// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#include "apiresponse.h"

#include "util/clock.h"

#include <QJsonDocument>
#include <QVariant>

namespace redrive::admin {

http::Response jsonResponse(int status, const QJsonObject &body)
{
    http::Response r;
    r.status = status;
    r.contentType = QByteArrayLiteral("application/json");
    r.body = QJsonDocument(body).toJson(QJsonDocument::Compact);
    r.headers.append({ QByteArrayLiteral("Cache-Control"), QByteArrayLiteral("no-store") });
    return r;
}

http::Response errorResponse(const ApiError &e)
{
    QJsonObject body { { QStringLiteral("error"), e.code }, { QStringLiteral("message"), e.message } };
    if (!e.field.isEmpty())
        body.insert(QStringLiteral("field"), e.field);
    return jsonResponse(e.status, body);
}

http::Response errorResponse(int status, const QString &code, const QString &message, const QString &field)
{
    return errorResponse(ApiError { status, code, message, field });
}

http::Response internalError()
{
    return errorResponse(500, QStringLiteral("internal"),
        QStringLiteral("the request could not be completed; nothing was changed (see the receiver log)"));
}

ApiError badRequest(const QString &field, const QString &message)
{
    return ApiError { 400, QStringLiteral("bad_request"), message, field };
}

QJsonValue jsonOrNull(const QVariant &value)
{
    if (value.isNull())
        return QJsonValue::Null;
    switch (value.typeId()) {
    case QMetaType::Int:
    case QMetaType::LongLong:
    case QMetaType::UInt:
    case QMetaType::ULongLong:
        return value.toLongLong();
    case QMetaType::Double:
        return value.toDouble();
    case QMetaType::Bool:
        return value.toBool();
    default:
        return value.toString();
    }
}

QJsonValue isoOrNull(const QVariant &millis)
{
    if (millis.isNull())
        return QJsonValue::Null;
    return isoUtc(millis.toLongLong());
}

} // namespace redrive::admin
