// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#include "storedheaders.h"

namespace redrive::ingest {
namespace {

bool plain(const QByteArray &text)
{
    for (const char ch : text) {
        const auto c = static_cast<unsigned char>(ch);
        if (c < 0x20 || c > 0x7e || c == '"' || c == '\\')
            return false;
    }
    return true;
}

} // namespace

QByteArray redactedHeadersJson(const Headers &headers)
{
    static const QByteArray kRedacted = QByteArrayLiteral("[redacted]");
    QByteArray out;
    qsizetype estimate = 2;
    for (const auto &[name, value] : headers.fields())
        estimate += name.size() + value.size() + 8;
    out.reserve(estimate);
    out += '[';
    bool first = true;
    for (const auto &[name, value] : headers.fields()) {
        const bool sensitive = Headers::isSensitive(name);
        const QByteArray &shown = sensitive ? kRedacted : value;
        if (!plain(name) || !plain(shown))
            return headers.redacted().toJson();
        if (!first)
            out += ',';
        first = false;
        out += "[\"";
        out += name;
        out += "\",\"";
        out += shown;
        out += "\"]";
    }
    out += ']';
    return out;
}

} // namespace redrive::ingest
