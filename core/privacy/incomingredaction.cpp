// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#include "incomingredaction.h"

#include "privacy/redaction.h"

#include <QJsonArray>
#include <QJsonDocument>

namespace redrive::privacy {

QStringList redactedKeyNames(const SourceConfig &source, const QList<EventKey> &keys)
{
    QStringList names;
    for (const BusinessKey &key : source.keys) {
        if (!key.redacted)
            continue;
        for (const EventKey &found : keys) {
            if (found.name == key.name) {
                names.append(key.name);
                break;
            }
        }
    }
    return names;
}

void redactIncoming(IncomingEvent &event, const SourceConfig &source)
{
    event.redactedBody.clear();
    event.redactedPathsJson.clear();
    event.redactedKeysJson.clear();
    if (source.redact.isEmpty())
        return;
    auto redaction = redact(event.body, source.redact);
    if (!redaction)
        return;
    event.redactedBody = std::move(redaction->body);
    event.redactedPathsJson
        = QJsonDocument(QJsonArray::fromStringList(redaction->paths)).toJson(QJsonDocument::Compact);
    const QStringList keys = redactedKeyNames(source, event.keys);
    if (!keys.isEmpty())
        event.redactedKeysJson
            = QJsonDocument(QJsonArray::fromStringList(keys)).toJson(QJsonDocument::Compact);
}

} // namespace redrive::privacy
