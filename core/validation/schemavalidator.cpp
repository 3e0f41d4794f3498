// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#include "schemavalidator.h"

#include "util/jsonpointer.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QSet>
#include <QUrl>

#include <array>
#include <cstdint>
#include <cstring>
#include <stdexcept>
#include <vector>

// valijson reports a schema it cannot compile by throwing; without this it would abort().
#define VALIJSON_USE_EXCEPTIONS 1 // NOLINT(cppcoreguidelines-macro-usage)
// RapidJSON skips over the unescaped runs of a string sixteen bytes at a time (when it does not
// check UTF-8 as it goes; see validateBody). Every x86-64 CPU has SSE2. This file is the only one
// that includes RapidJSON, so the setting is the same wherever its templates are instantiated.
#if defined(__SSE2__) && !defined(RAPIDJSON_SSE2)
#define RAPIDJSON_SSE2 1 // NOLINT(cppcoreguidelines-macro-usage)
#endif
// valijson's RapidJSON adapter must come before any RapidJSON header (it sets RAPIDJSON_ASSERT).
#include <valijson/adapters/rapidjson_adapter.hpp>
// clang-format off
#include <rapidjson/document.h>
#include <rapidjson/error/en.h>
// clang-format on
#include <valijson/adapters/qtjson_adapter.hpp>
#include <valijson/schema.hpp>
#include <valijson/schema_parser.hpp>
#include <valijson/validation_results.hpp>
#include <valijson/validator.hpp>

namespace redrive::validation {
namespace {

// valijson's context is "<root>" then one "[name]" or "[index]" per step.
QString pointerOf(const std::vector<std::string> &context)
{
    QString pointer;
    for (const std::string &step : context) {
        if (step.size() < 2 || step.front() != '[' || step.back() != ']')
            continue; // "<root>"
        QString token = QString::fromStdString(step.substr(1, step.size() - 2));
        token.replace(u'~', QLatin1String("~0")).replace(u'/', QLatin1String("~1"));
        pointer += u'/' + token;
    }
    return pointer;
}

// A JSON text that may be a scalar at the top (QJsonDocument takes only objects and arrays).
std::optional<QJsonValue> parseValue(const QByteArray &bytes, QString *error)
{
    QJsonParseError parseError;
    const QJsonDocument doc = QJsonDocument::fromJson('[' + bytes + ']', &parseError);
    if (parseError.error != QJsonParseError::NoError || doc.array().size() != 1) {
        *error = parseError.error != QJsonParseError::NoError ? parseError.errorString()
                                                              : QStringLiteral("more than one value");
        return std::nullopt;
    }
    return doc.array().first();
}

// valijson follows a `$ref` at the top of a schema without its cycle guard (the one nested refs
// have) and reads a relative document there as this one: {"$ref":"#"} or {"$ref":"other.json"}
// at the top would recurse until the stack runs out. Such chains are followed here first and a
// loop, or another document named by a relative reference, is refused with a reason.
bool checkTopLevelRef(const QJsonValue &schema, QString *error)
{
    QSet<QString> seen;
    QJsonValue node = schema;
    while (node.isObject() && node.toObject().contains(QLatin1String("$ref"))) {
        const QString ref = node.toObject().value(QLatin1String("$ref")).toString();
        if (!ref.startsWith(u'#')) {
            if (ref.contains(QLatin1String("://")) || ref.startsWith(QLatin1String("urn:")))
                return true; // another document, fetched (or refused) by name
            *error = QStringLiteral("the $ref \"%1\" at the top of the schema names another file by a "
                                    "relative path; wrap it in \"allOf\": [{\"$ref\": …}]")
                         .arg(ref.left(200));
            return false;
        }
        const QString pointer = QUrl::fromPercentEncoding(ref.mid(1).toUtf8());
        if (seen.contains(pointer)) {
            *error = QStringLiteral("the $ref \"%1\" at the top of the schema refers to itself")
                         .arg(ref.left(200));
            return false;
        }
        seen.insert(pointer);
        const auto target
            = pointer.isEmpty() ? std::optional<QJsonValue>(schema) : resolveJsonPointer(schema, pointer);
        if (!target) {
            *error = QStringLiteral("the $ref \"%1\" names nothing in the schema").arg(ref.left(200));
            return false;
        }
        node = *target;
    }
    return true;
}

} // namespace

CompiledSchema::CompiledSchema()
    : m_schema(std::make_unique<valijson::Schema>())
{ }

CompiledSchema::~CompiledSchema() = default;

std::shared_ptr<const CompiledSchema> CompiledSchema::load(const QString &path, QString *error)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly)) {
        *error = QStringLiteral("cannot read %1: %2").arg(path, file.errorString());
        return nullptr;
    }
    QString parseError;
    const auto value = parseValue(file.readAll(), &parseError);
    if (!value) {
        *error = QStringLiteral("%1 is not JSON: %2").arg(path, parseError);
        return nullptr;
    }
    QString compileError;
    auto schema = compile(*value, QFileInfo(path).absolutePath(), &compileError);
    if (!schema)
        *error = QStringLiteral("%1 is not a valid JSON Schema (draft-07): %2").arg(path, compileError);
    return schema;
}

std::shared_ptr<const CompiledSchema> CompiledSchema::compile(
    const QJsonValue &schema, const QString &baseDirectory, QString *error)
{
    if (!schema.isObject() && !schema.isBool()) {
        *error = QStringLiteral("a schema must be a JSON object or a boolean");
        return nullptr;
    }
    if (!checkTopLevelRef(schema, error))
        return nullptr;
    // `$ref`s to other documents: local files only. Redrive fetches nothing over the network.
    QString fetchError;
    auto fetch = [&](const std::string &uri) -> const QJsonValue * {
        QString name = QString::fromStdString(uri);
        if (name.startsWith(QLatin1String("file://")))
            name = name.mid(7);
        else if (name.contains(QLatin1String("://"))) {
            fetchError = QStringLiteral("remote reference %1 is not fetched; use a local file").arg(name);
            return nullptr;
        }
        const QString path = QDir(baseDirectory).absoluteFilePath(name);
        QFile file(path);
        if (!file.open(QIODevice::ReadOnly)) {
            fetchError = QStringLiteral("cannot read referenced %1: %2").arg(path, file.errorString());
            return nullptr;
        }
        QString parseError;
        auto value = parseValue(file.readAll(), &parseError);
        if (!value) {
            fetchError = QStringLiteral("referenced %1 is not JSON: %2").arg(path, parseError);
            return nullptr;
        }
        return new QJsonValue(*value); // NOLINT(cppcoreguidelines-owning-memory): valijson frees it
    };
    auto free = [](const QJsonValue *value) { delete value; }; // NOLINT(cppcoreguidelines-owning-memory)
    std::shared_ptr<CompiledSchema> compiled(new CompiledSchema());
    try {
        valijson::SchemaParser parser(valijson::SchemaParser::kDraft7);
        parser.populateSchema(valijson::adapters::QtJsonAdapter(schema), *compiled->m_schema, fetch, free);
    } catch (const std::exception &e) {
        *error = fetchError.isEmpty() ? QString::fromStdString(e.what()) : fetchError;
        return nullptr;
    }
    return compiled;
}

namespace {

// Qt's parser refuses documents nested deeper than this; RapidJSON and valijson would recurse
// until the stack ran out (a 1 MiB body of '[' on an I/O thread), so the depth is checked first.
constexpr int kMaxDepth = 1024;

bool nestedTooDeep(const QByteArray &body)
{
    if (body.size() <= kMaxDepth)
        return false; // every level opens with a byte of its own
    int depth = 0;
    bool inString = false;
    for (qsizetype i = 0; i < body.size(); ++i) {
        const char c = body.at(i);
        if (inString) {
            if (c == '\\')
                ++i;
            else if (c == '"')
                inString = false;
        } else if (c == '"') {
            inString = true;
        } else if (c == '[' || c == '{') {
            if (++depth > kMaxDepth)
                return true;
        } else if (c == ']' || c == '}') {
            --depth;
        }
    }
    return false;
}

// No byte above 0x7f, eight at a time.
bool isAscii(const QByteArray &body)
{
    const char *p = body.constData();
    const qsizetype n = body.size();
    std::uint64_t high = 0;
    qsizetype i = 0;
    for (; i + 8 <= n; i += 8) {
        std::uint64_t word = 0;
        std::memcpy(&word, p + i, sizeof word);
        high |= word;
    }
    for (; i < n; ++i)
        high |= static_cast<unsigned char>(p[i]);
    return (high & 0x8080808080808080ULL) == 0;
}

template<typename Adapter>
QList<ValidationError> validateWith(const valijson::Schema &schema, const Adapter &document)
{
    // Strong types ("1" is not a number). One validator per thread, because it caches the
    // compiled std::regex of every "pattern" it met: built per call, each event recompiled them,
    // which cost ingest a quarter of its rate with one pattern in the schema (bench_schema.py).
    // The cache is keyed by the pattern's text, so it is shared by every schema safely; its size
    // is bounded by the patterns the configuration holds.
    thread_local valijson::Validator validator;
    // First without collecting anything: valijson then stops at the first failure and builds no
    // error list, and most bodies pass. Only a body that fails is walked again, collecting, so its
    // errors (and their pointers) are exactly those of a single collecting walk.
    if (validator.validate(schema, document, nullptr))
        return {};
    valijson::ValidationResults results;
    if (validator.validate(schema, document, &results))
        return {}; // a collecting walk passes exactly when the first one does
    QList<ValidationError> errors;
    valijson::ValidationResults::Error e;
    while (errors.size() < kMaxValidationErrors && results.popError(e))
        errors.append(ValidationError { pointerOf(e.context), QString::fromStdString(e.description) });
    if (errors.isEmpty()) // valijson said no without saying why
        errors.append(ValidationError { QString(), QStringLiteral("does not match the schema") });
    return errors;
}

} // namespace

QList<ValidationError> CompiledSchema::validate(const QJsonValue &document) const
{
    return validateWith(*m_schema, valijson::adapters::QtJsonAdapter(document));
}

QList<ValidationError> CompiledSchema::validateBody(const QByteArray &body) const
{
    // Bodies are read with RapidJSON, not Qt: valijson walks a RapidJSON document through its
    // adapter at a third of the cost of Qt's (2.2 µs against 7.2 µs for bench_schema.py's schema
    // on a 1 KiB body), which kept ingest with a schema and an allowlist on every event below
    // 0.9x of the plain receiver. The schema itself stays compiled from Qt's values: valijson's
    // compiled schema does not depend on the document's adapter. Strict: valid UTF-8, nothing
    // after the value, no NaN.
    if (nestedTooDeep(body))
        return { ValidationError { QString(),
            QStringLiteral("the body is not JSON: nested deeper than %1 levels").arg(kMaxDepth) } };
    // Parsed in place from a private copy, into a pool on the stack: strings are not copied into
    // the document and a 1 KiB body allocates once. In place stops at a NUL byte, which JSON
    // never holds outside an escape, so a body with one is refused here as the parser would.
    if (body.contains('\0'))
        return { ValidationError { QString(), QStringLiteral("the body is not JSON: it holds a NUL byte") } };
    // The copy and the pool are kept per thread and reused: nothing here allocates for a body
    // that fits them. The copy has 16 spare bytes, so the parser's aligned 16-byte reads up to
    // the terminating NUL never leave it.
    thread_local std::vector<char> text;
    text.assign(body.constData(), body.constData() + body.size());
    text.resize(text.size() + 16, '\0');
    thread_local std::array<char, 8192> pool;
    rapidjson::MemoryPoolAllocator<> allocator(pool.data(), pool.size());
    rapidjson::Document document(&allocator);
    // UTF-8 is checked by the parser only when the body has a byte above 0x7f: a body in ASCII is
    // valid UTF-8 whatever it says, parses to the same document and fails with the same error
    // either way, and without the check the parser scans strings sixteen bytes at a time.
    if (isAscii(body))
        document.ParseInsitu<rapidjson::kParseNoFlags>(text.data());
    else
        document.ParseInsitu<rapidjson::kParseValidateEncodingFlag>(text.data());
    if (document.HasParseError())
        return { ValidationError { QString(),
            QStringLiteral("the body is not JSON: %1 at byte %2")
                .arg(QString::fromLatin1(rapidjson::GetParseError_En(document.GetParseError())))
                .arg(document.GetErrorOffset()) } };
    try {
        return validateWith(*m_schema, valijson::adapters::RapidJsonAdapter(document));
    } catch (const std::exception &e) { // valijson's RAPIDJSON_ASSERT throws; never past ingest
        return { ValidationError { QString(),
            QStringLiteral("could not be validated: %1").arg(QString::fromUtf8(e.what()).left(200)) } };
    }
}

QByteArray validationErrorsJson(const QList<ValidationError> &errors)
{
    QJsonArray array;
    for (const ValidationError &e : errors)
        array.append(QJsonObject {
            { QStringLiteral("pointer"), e.pointer }, { QStringLiteral("message"), e.message } });
    return QJsonDocument(array).toJson(QJsonDocument::Compact);
}

QList<ValidationError> validationErrorsFromJson(const QByteArray &json)
{
    QList<ValidationError> errors;
    const QJsonArray array = QJsonDocument::fromJson(json).array();
    for (const auto &v : array) {
        const QJsonObject o = v.toObject();
        errors.append(ValidationError {
            o.value(QLatin1String("pointer")).toString(), o.value(QLatin1String("message")).toString() });
    }
    return errors;
}

} // namespace redrive::validation
