// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
// libFuzzer target: the top-level JSON scanner, with QJsonDocument as an oracle where both
// have an answer. The first byte picks the member name so short keys get exercised too.
#include "signatures/verifier.h"

#include <QJsonDocument>
#include <QJsonObject>

#include <cmath>
#include <cstdlib>

using namespace redrive::signatures;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size == 0)
        return 0;
    static const QByteArray keys[] = { "id", "type", "created", "action", "", "\xc3\xa9", "a\"b", "id " };
    const QByteArray &key = keys[data[0] % std::size(keys)];
    const QByteArrayView json(data + 1, static_cast<qsizetype>(size - 1));

    const auto text = topLevelJsonString(json, key);
    const auto number = topLevelJsonInteger(json, key);
    if (text && number)
        std::abort(); // one member cannot be both

    if (!text && !number)
        return 0;
    // Our scanner found a value. Where Qt's parser accepts the same document (it is stricter
    // about UTF-8 in every string and about huge numbers, and it allows a BOM), it must agree.
    QJsonParseError error;
    const QJsonDocument doc = QJsonDocument::fromJson(json.toByteArray(), &error);
    if (error.error != QJsonParseError::NoError)
        return 0;
    if (!doc.isObject())
        std::abort(); // we only ever answer for objects
    const QJsonValue value = doc.object().value(QString::fromUtf8(key));
    // Qt drops one leading U+FEFF from a string without escapes (it decodes those with
    // QString::fromUtf8, which takes it for a byte order mark); Redrive keeps it, as JSON.parse
    // does. Either Qt's string is ours, or ours past its first U+FEFF.
    const auto agrees = [](const QString &qt, const QString &ours) {
        return qt == ours || (ours.startsWith(QChar(0xFEFF)) && qt == QStringView(ours).sliced(1));
    };
    if (text && (!value.isString() || !agrees(value.toString(), *text)))
        std::abort();
    if (number) {
        if (!value.isDouble())
            std::abort();
        if (std::fabs(static_cast<double>(*number)) < 9.0e15
            && value.toDouble() != static_cast<double>(*number))
            std::abort();
    }
    return 0;
}
