// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#pragma once

#include <QByteArray>
#include <QJsonValue>
#include <QList>
#include <QString>

#include <memory>

namespace valijson {
class Schema;
}

// JSON Schema (draft-07) validation of event bodies, by valijson over Qt's JSON values. A schema
// is compiled once, when the configuration is loaded, and then only read: validate() may run on
// every ingest thread at once.
namespace redrive::validation {

// One reason an event does not match its schema: where (an RFC 6901 pointer into the body, ""
// for the whole body) and what, in valijson's words.
struct ValidationError {
    QString pointer;
    QString message;
    friend bool operator==(const ValidationError &, const ValidationError &) = default;
};

// Most errors kept per event: enough to fix a payload, bounded for the row and the console.
inline constexpr int kMaxValidationErrors = 20;

class CompiledSchema final {
public:
    // Reads and compiles the schema file at `path`. Local `$ref`s to other files are read
    // relative to the file that holds them; remote (http:, https:) ones are refused, as Redrive
    // never fetches anything at ingest. nullptr with `error` saying why (missing, not JSON, not a
    // valid draft-07 schema).
    static std::shared_ptr<const CompiledSchema> load(const QString &path, QString *error);
    // Compiles `schema` (an object or a boolean), resolving file refs under `baseDirectory`.
    static std::shared_ptr<const CompiledSchema> compile(
        const QJsonValue &schema, const QString &baseDirectory, QString *error);

    ~CompiledSchema();
    CompiledSchema(const CompiledSchema &) = delete;
    CompiledSchema &operator=(const CompiledSchema &) = delete;

    // The errors of `document` (at most kMaxValidationErrors); empty when it is valid.
    [[nodiscard]] QList<ValidationError> validate(const QJsonValue &document) const;
    // The same for raw bytes: a body that is not JSON is one error at "".
    [[nodiscard]] QList<ValidationError> validateBody(const QByteArray &body) const;

private:
    CompiledSchema();
    std::unique_ptr<valijson::Schema> m_schema;
};

// [{"pointer","message"},…] as stored in event_validation.errors and answered by the admin API.
QByteArray validationErrorsJson(const QList<ValidationError> &errors);
QList<ValidationError> validationErrorsFromJson(const QByteArray &json);

} // namespace redrive::validation
