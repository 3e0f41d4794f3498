// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#include "storedheaders.h"

#include <cstring>

namespace redrive::ingest {
namespace {

bool plain(QByteArrayView text)
{
    for (const char ch : text) {
        const auto c = static_cast<unsigned char>(ch);
        if (c < 0x20 || c > 0x7e || c == '"' || c == '\\')
            return false;
    }
    return true;
}

} // namespace

QByteArray redactedHeadersJson(const Headers &headers, QByteArrayView signatureHeader)
{
    static constexpr QByteArrayView kRedacted("[redacted]");
    const auto &fields = headers.fields();
    // First pass: decide what is shown and measure; second pass: copy into one allocation.
    // (Appending piece by piece cost more than the rest of the request's bookkeeping.)
    constexpr qsizetype kMaxFast = 64;
    bool sensitive[kMaxFast];
    bool dropped[kMaxFast];
    if (fields.size() > kMaxFast)
        return headers.redacted(signatureHeader).toJson();
    qsizetype size = 2; // [ ]
    qsizetype kept = 0;
    for (qsizetype i = 0; i < fields.size(); ++i) {
        const auto &[name, value] = fields[i];
        dropped[i] = Headers::isSignature(name, signatureHeader);
        if (dropped[i])
            continue;
        sensitive[i] = Headers::isSensitive(name);
        const QByteArrayView shown = sensitive[i] ? kRedacted : QByteArrayView(value);
        if (!plain(name) || !plain(shown))
            return headers.redacted(signatureHeader).toJson();
        size += name.size() + shown.size() + 7 + (kept++ > 0 ? 1 : 0); // ["name","value"] and a comma
    }
    QByteArray out(size, Qt::Uninitialized);
    char *p = out.data();
    auto put = [&p](QByteArrayView bytes) {
        std::memcpy(p, bytes.data(), static_cast<std::size_t>(bytes.size()));
        p += bytes.size();
    };
    *p++ = '[';
    bool first = true;
    for (qsizetype i = 0; i < fields.size(); ++i) {
        if (dropped[i])
            continue;
        const auto &[name, value] = fields[i];
        if (!first)
            *p++ = ',';
        first = false;
        put("[\"");
        put(name);
        put("\",\"");
        put(sensitive[i] ? kRedacted : QByteArrayView(value));
        put("\"]");
    }
    *p++ = ']';
    Q_ASSERT(p == out.constData() + out.size());
    return out;
}

} // namespace redrive::ingest
