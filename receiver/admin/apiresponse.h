// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#pragma once

#include "http/server.h"

#include <QJsonArray>
#include <QJsonObject>
#include <QString>

// Building admin API answers. Kept in this library (rather than using http::Response's
// helpers) so the admin API builds and is tested independently of the HTTP edge.
namespace redrive::admin {

// Why a request was refused: the error body {"error", "message", "field"?}.
struct ApiError {
    int status = 400;
    QString code; // bad_request, unauthorized, forbidden, not_found, conflict, ...
    QString message; // a sentence for humans; never a stack trace, SQL or a secret
    QString field; // the offending field, when one is at fault
};

http::Response jsonResponse(int status, const QJsonObject &body);
http::Response errorResponse(const ApiError &error);
http::Response errorResponse(
    int status, const QString &code, const QString &message, const QString &field = {});
// 500 with a generic message: the details go to the log, not to the client.
http::Response internalError();

ApiError badRequest(const QString &field, const QString &message);

// JSON helpers for nullable columns.
QJsonValue jsonOrNull(const QVariant &value); // integers and strings; NULL → null
QJsonValue isoOrNull(const QVariant &millis); // ms since the epoch → ISO-8601 UTC; NULL → null

} // namespace redrive::admin
