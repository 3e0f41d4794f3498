// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#include "server.h"

namespace redrive::http {
namespace {

// Appends `text` as a JSON string literal. Error bodies are built on the I/O threads, so this
// avoids QJsonDocument and escapes exactly what JSON requires.
void appendJsonString(QByteArray &out, const QString &text)
{
    static const char hex[] = "0123456789abcdef";
    const QByteArray utf8 = text.toUtf8();
    out.reserve(out.size() + utf8.size() + 2);
    out += '"';
    for (const char ch : utf8) {
        const auto c = static_cast<unsigned char>(ch);
        switch (c) {
        case '"':
            out += "\\\"";
            break;
        case '\\':
            out += "\\\\";
            break;
        case '\n':
            out += "\\n";
            break;
        case '\r':
            out += "\\r";
            break;
        case '\t':
            out += "\\t";
            break;
        default:
            if (c < 0x20) {
                out += "\\u00";
                out += hex[c >> 4];
                out += hex[c & 0xf];
            } else {
                out += ch;
            }
        }
    }
    out += '"';
}

} // namespace

Response Response::json(int status, const QByteArray &body)
{
    Response r;
    r.status = status;
    r.body = body;
    return r;
}

Response Response::error(int status, const QString &code, const QString &message, const QString &field)
{
    QByteArray body;
    body.reserve(64 + message.size());
    body += "{\"error\":";
    appendJsonString(body, code);
    body += ",\"message\":";
    appendJsonString(body, message);
    if (!field.isEmpty()) {
        body += ",\"field\":";
        appendJsonString(body, field);
    }
    body += '}';
    return json(status, body);
}

} // namespace redrive::http
