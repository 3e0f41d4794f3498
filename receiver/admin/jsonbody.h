// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#pragma once

#include "admin/apiresponse.h"
#include "query/eventfilter.h"
#include "query/keysetpage.h"

#include <QJsonObject>
#include <QStringList>
#include <QUrlQuery>

#include <optional>

// Strict readers for request bodies and query strings: every refusal names the field at fault,
// and nothing is ever half-accepted (unknown fields, wrong types and oversized values are
// errors, not ignored).
namespace redrive::admin {

// A body that must be one JSON object holding only `allowed` keys, and no object in it (at any
// depth) naming a member twice. An empty body counts as {} only when `emptyIsObject`.
std::optional<QJsonObject> parseJsonObject(
    const QByteArray &body, const QStringList &allowed, ApiError *error, bool emptyIsObject = false);

struct TextRule {
    bool required = true;
    int maxChars = 1000;
    bool multiline = true; // newline and tab allowed
};
// A string field, trimmed. Refused: wrong type, blank when required, longer than maxChars,
// invalid Unicode, control characters. `out` stays empty for an absent optional field.
bool readText(const QJsonObject &object, const QString &key, const TextRule &rule, QString *out,
    ApiError *error, const QString &fieldName = {});

// A body that holds one text and nothing else, {"<field>": "..."} (an empty body too, when
// `emptyIsObject`): the text read by `rule`, empty when optional and absent.
std::optional<QString> readTextBody(const QByteArray &body, const QString &field, const TextRule &rule,
    ApiError *error, bool emptyIsObject = false);

// An empty body or {"reason": "..."} of at most 1000 characters (empty when absent): why someone
// asked for an action that needs no reason, kept in its audit entry.
std::optional<QString> readOptionalReason(const QByteArray &body, ApiError *error);

// A positive integer id (JSON number without fraction, at most 2^53).
bool readId(const QJsonValue &value, const QString &field, qint64 *out, ApiError *error);
std::optional<qint64> parsePathId(QStringView text);

// Unknown query parameters are refused so a typo ("destinaton=") never widens a result.
bool checkQueryKeys(const QUrlQuery &query, const QStringList &allowed, ApiError *error);
// "limit" in 1..max, `fallback` when absent.
bool readLimit(const QUrlQuery &query, int fallback, int max, int *out, ApiError *error);
// One keyset page as a list endpoint is asked for it: "limit" in 1..max (`fallback` when absent)
// and "cursor", the next_cursor of a previous page (`before` unset for the first page).
struct PageRequest {
    int limit = 0;
    std::optional<qint64> before; // list ids below this one
};
bool readPageRequest(const QUrlQuery &query, int fallback, int max, PageRequest *out, ApiError *error);
// A page's next_cursor: the cursor after `lastId` when more rows follow, else null.
QJsonValue nextCursor(bool more, qint64 lastId);
// The audit log's next_cursor: the last sequence number as text (its `after`), else null.
QJsonValue sequenceCursor(bool more, qint64 lastSeq);

// One page of a list endpoint, {"items", "next_cursor"}, as every list answers: `rows` were read
// with one row more than `limit` (see trimKeysetPage), `toJson` writes one item and `idOf` the
// key the next page starts after.
template<typename Row, typename ToJson, typename IdOf>
QJsonObject pageJson(
    QList<Row> rows, int limit, ToJson &&toJson, IdOf &&idOf, QJsonValue (*cursor)(bool, qint64) = nextCursor)
{
    const bool more = trimKeysetPage(rows, limit);
    QJsonArray items;
    for (const Row &row : std::as_const(rows))
        items.append(toJson(row));
    return QJsonObject { { QStringLiteral("items"), items },
        { QStringLiteral("next_cursor"), cursor(more, rows.isEmpty() ? 0 : idOf(rows.last())) } };
}
// The "filter" object of a bulk request (replay preview, revalidation) as an EventFilter: the keys
// of GET events, each checked as there. An empty filter is refused; `emptyHint` says what to use
// instead ("to replay specific deliveries use delivery_ids").
std::optional<EventFilter> readEventFilter(
    const QJsonValue &value, const QString &emptyHint, ApiError *error);
// "delivery_ids" of a bulk request: a non-empty array of distinct positive ids, at most
// maxSelection of them (422 selection_too_large, "… per <perWhat> …").
bool readDeliveryIds(
    const QJsonValue &value, int maxSelection, const QString &perWhat, QList<qint64> *ids, ApiError *error);
// A "64 hex digits" selection hash.
bool isSha256Hex(QStringView text);

} // namespace redrive::admin
