// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#include "config/config.h"
#include "validation/schemavalidator.h"

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QSet>
#include <QTemporaryDir>
#include <QTest>

using namespace redrive;
using validation::CompiledSchema;
using validation::ValidationError;

namespace {

// A JSON value as the bytes of a body: "[v]" from Qt, without its brackets (Qt writes scalars only
// inside a container).
QByteArray bodyOf(const QJsonValue &value)
{
    QByteArray text = QJsonDocument(QJsonArray { value }).toJson(QJsonDocument::Compact);
    return text.mid(1, text.size() - 2);
}

// The official JSON-Schema-Test-Suite (Debian json-schema-test-suite), draft-07.
const QString kSuite = QStringLiteral("/usr/share/json-schema-test-suite/tests/draft7");

// Cases of the suite that Redrive's validator does not pass, each with the reason. A case that
// starts passing, or another that stops, fails the test: the list is the documented truth
// (docs/operations.md, "Schema validation"). Keys: "file / group / case".
struct KnownFailure {
    const char *file;
    const char *group; // nullptr: every group of the file
    const char *why;
};
const KnownFailure kKnownFailures[] = {
    // Remote references are never fetched: Redrive reads only local schema files.
    { "refRemote.json", nullptr, "remote $ref (http://localhost:1234/…): Redrive fetches nothing" },
    { "ref.json", "remote ref, containing refs itself", "remote $ref to the draft-07 meta-schema" },
    { "definitions.json", nullptr, "remote $ref to the draft-07 meta-schema" },
    { "ref.json", "Recursive references between schemas",
        "relative $ref against a remote $id (http://localhost:1234/)" },
};

QJsonValue readJson(const QString &path)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return {};
    return QJsonDocument::fromJson(file.readAll()).array();
}

void writeFile(const QString &path, const QByteArray &bytes)
{
    QFile file(path);
    QVERIFY(file.open(QIODevice::WriteOnly | QIODevice::Truncate));
    QCOMPARE(file.write(bytes), bytes.size());
}

std::shared_ptr<const CompiledSchema> compiled(const QByteArray &schema)
{
    QString error;
    auto s = CompiledSchema::compile(QJsonDocument::fromJson(schema).object(), QDir::tempPath(), &error);
    if (!s)
        qWarning("compile failed: %s", qUtf8Printable(error));
    return s;
}

} // namespace

class TstSchemaValidation : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void officialDraft7Suite();
    void errorsCarryPointersIntoTheBody();
    void unknownFieldsNeverFail();
    void errorsAreBounded();
    void bodyThatIsNotJsonIsOneError();
    void localRefsResolveBesideTheSchema();
    void remoteRefsAreRefused();
    void badSchemaFilesSayWhy_data();
    void badSchemaFilesSayWhy();
    void configRules();
    void configErrors_data();
    void configErrors();
};

void TstSchemaValidation::officialDraft7Suite()
{
    const QStringList files = QDir(kSuite).entryList({ QStringLiteral("*.json") }, QDir::Files, QDir::Name);
    QVERIFY2(files.size() >= 30, qPrintable(QStringLiteral("the suite is not at %1").arg(kSuite)));
    int total = 0, passed = 0, expectedFailures = 0;
    QStringList unexpected;
    QSet<QString> knownSeen;
    for (const QString &file : files) {
        const QJsonArray groups = readJson(kSuite + u'/' + file).toArray();
        QVERIFY2(!groups.isEmpty(), qPrintable(file));
        for (const QJsonValue &g : groups) {
            const QJsonObject group = g.toObject();
            const QString groupName = group.value(QLatin1String("description")).toString();
            const KnownFailure *known = nullptr;
            for (const KnownFailure &k : kKnownFailures) {
                if (file == QLatin1String(k.file) && (!k.group || groupName == QLatin1String(k.group)))
                    known = &k;
            }
            QString error;
            const auto schema = CompiledSchema::compile(group.value(QLatin1String("schema")), kSuite, &error);
            const QJsonArray cases = group.value(QLatin1String("tests")).toArray();
            bool groupFailed = false;
            for (const QJsonValue &c : cases) {
                const QJsonObject test = c.toObject();
                ++total;
                const bool expected = test.value(QLatin1String("valid")).toBool();
                // Through the path ingest uses: the case's data as the bytes of a body.
                const bool ok = schema
                    && schema->validateBody(bodyOf(test.value(QLatin1String("data")))).isEmpty() == expected;
                if (ok) {
                    ++passed;
                    continue;
                }
                groupFailed = true;
                if (known) {
                    ++expectedFailures;
                    continue;
                }
                unexpected.append(
                    QStringLiteral("%1 / %2 / %3%4")
                        .arg(file, groupName, test.value(QLatin1String("description")).toString(),
                            schema ? QString() : QStringLiteral(" (schema: %1)").arg(error)));
            }
            if (known && groupFailed)
                knownSeen.insert(
                    QLatin1String(known->file) + u'/' + QLatin1String(known->group ? known->group : ""));
        }
    }
    qInfo("JSON-Schema-Test-Suite draft7: %d of %d cases pass; %d fail as documented", passed, total,
        expectedFailures);
    QVERIFY2(unexpected.isEmpty(), qPrintable(unexpected.join(u'\n')));
    // Every documented exception still fails: one that passes now must leave the list and the docs.
    for (const KnownFailure &k : kKnownFailures) {
        const QString key = QLatin1String(k.file) + u'/' + QLatin1String(k.group ? k.group : "");
        QVERIFY2(knownSeen.contains(key),
            qPrintable(QStringLiteral("%1 passes now: %2").arg(key, QLatin1String(k.why))));
    }
    QVERIFY(total >= 400);
    QVERIFY(passed >= total - 25);
}

void TstSchemaValidation::errorsCarryPointersIntoTheBody()
{
    const auto schema = compiled(R"({"type":"object","required":["id","data"],"properties":{
        "id":{"type":"string"},"data":{"type":"object","properties":{"items":{"type":"array",
        "items":{"type":"object","required":["sku"],"properties":{"a/b~c":{"type":"integer"}}}}}}}})");
    QVERIFY(schema);
    QVERIFY(schema->validateBody(R"({"id":"evt_1","data":{"items":[{"sku":"x"}]}})").isEmpty());
    const auto errors = schema->validateBody(R"({"id":7,"data":{"items":[{"sku":"x"},{"a/b~c":"no"}]}})");
    QSet<QString> pointers;
    for (const ValidationError &e : errors) {
        QVERIFY(!e.message.isEmpty());
        pointers.insert(e.pointer);
    }
    QVERIFY2(pointers.contains(QStringLiteral("/id")), qPrintable(QStringList(pointers.values()).join(u' ')));
    QVERIFY(pointers.contains(QStringLiteral("/data/items/1")));
    QVERIFY(pointers.contains(QStringLiteral("/data/items/1/a~1b~0c")));
    const auto roundTrip = validation::validationErrorsFromJson(validation::validationErrorsJson(errors));
    QCOMPARE(roundTrip, errors);
}

void TstSchemaValidation::unknownFieldsNeverFail()
{
    const auto schema
        = compiled(R"({"type":"object","required":["id"],"properties":{"id":{"type":"string"}}})");
    QVERIFY(schema);
    QVERIFY(schema->validateBody(R"({"id":"a","brand_new_field":{"x":[1,2]},"another":null})").isEmpty());
    // Strictness is the schema's to ask for.
    const auto strict = compiled(R"({"type":"object","additionalProperties":false,"properties":{"id":{}}})");
    QVERIFY(strict);
    QVERIFY(!strict->validateBody(R"({"id":"a","extra":1})").isEmpty());
}

void TstSchemaValidation::errorsAreBounded()
{
    const auto schema = compiled(R"({"type":"array","items":{"type":"string"}})");
    QVERIFY(schema);
    QByteArray body = "[";
    for (int i = 0; i < 100; ++i)
        body += (i ? "," : "") + QByteArray::number(i);
    body += ']';
    const auto errors = schema->validateBody(body);
    QCOMPARE(errors.size(), validation::kMaxValidationErrors);
}

void TstSchemaValidation::bodyThatIsNotJsonIsOneError()
{
    const auto schema = compiled(R"({"type":"object"})");
    QVERIFY(schema);
    const auto errors = schema->validateBody("id=1&type=x");
    QCOMPARE(errors.size(), 1);
    QCOMPARE(errors.first().pointer, QString());
    QVERIFY(errors.first().message.startsWith(QLatin1String("the body is not JSON")));
    // What a hostile sender can post, each one error and never a crash: nesting a megabyte deep
    // (the parser and the validator would recurse off the stack), bytes that are not UTF-8, a
    // second value after the first, NaN.
    const QByteArray deep = QByteArray(1 << 20, '[');
    const QByteArray inString = R"({"a":")" + QByteArray(5000, '[') + R"("})";
    for (const QByteArray &body : { deep, QByteArray("{\"a\":\"\xff\xfe\"}"), QByteArray("{} {}"),
             QByteArray("{\"a\":NaN}"), QByteArray("[[[["), QByteArray("{}\0{}", 5) }) {
        const auto bad = schema->validateBody(body);
        QCOMPARE(bad.size(), 1);
        QVERIFY2(bad.first().message.startsWith(QLatin1String("the body is not JSON")),
            qPrintable(bad.first().message));
    }
    QVERIFY(schema->validateBody(QByteArray(1000, '[') + QByteArray(1000, ']')).size() == 1); // not an object
    QVERIFY(schema->validateBody(inString).isEmpty()); // brackets inside a string are text
}

void TstSchemaValidation::localRefsResolveBesideTheSchema()
{
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    writeFile(dir.filePath(QStringLiteral("common.json")),
        R"({"definitions":{"money":{"type":"integer","minimum":0}}})");
    writeFile(dir.filePath(QStringLiteral("invoice.json")),
        R"({"type":"object","properties":{"amount":{"$ref":"common.json#/definitions/money"},
            "again":{"$ref":"#/properties/amount"}}})");
    QString error;
    const auto schema = CompiledSchema::load(dir.filePath(QStringLiteral("invoice.json")), &error);
    QVERIFY2(schema, qPrintable(error));
    QVERIFY(schema->validateBody(R"({"amount":5,"again":0})").isEmpty());
    const auto errors = schema->validateBody(R"({"amount":-1})");
    QVERIFY(!errors.isEmpty());
    QCOMPARE(errors.first().pointer, QStringLiteral("/amount"));
}

void TstSchemaValidation::remoteRefsAreRefused()
{
    QString error;
    const auto schema = CompiledSchema::compile(
        QJsonDocument::fromJson(R"({"$ref":"https://schemas.example.com/invoice.json"})").object(),
        QDir::tempPath(), &error);
    QVERIFY(!schema);
    QVERIFY2(error.contains(QLatin1String("remote reference https://schemas.example.com/invoice.json")),
        qPrintable(error));
}

void TstSchemaValidation::badSchemaFilesSayWhy_data()
{
    QTest::addColumn<QByteArray>("content"); // empty: no file at all
    QTest::addColumn<QString>("says");
    QTest::newRow("missing") << QByteArray() << QStringLiteral("cannot read");
    QTest::newRow("not JSON") << QByteArray("{\"type\": ") << QStringLiteral("is not JSON");
    QTest::newRow("not a schema") << QByteArray(R"({"type": 5})")
                                  << QStringLiteral("is not a valid JSON Schema");
    QTest::newRow("bad keyword value")
        << QByteArray(R"({"minLength": "three"})") << QStringLiteral("is not a valid JSON Schema");
    QTest::newRow("a string") << QByteArray(R"("object")")
                              << QStringLiteral("must be a JSON object or a boolean");
    QTest::newRow("dangling ref") << QByteArray(R"({"properties":{"a":{"$ref":"gone.json"}}})")
                                  << QStringLiteral("cannot read referenced");
    QTest::newRow("top ref to itself") << QByteArray(R"({"$ref":"#"})") << QStringLiteral("refers to itself");
    QTest::newRow("top ref loop") << QByteArray(
        R"({"$ref":"#/definitions/a","definitions":{"a":{"$ref":"#"}}})")
                                  << QStringLiteral("refers to itself");
    QTest::newRow("top ref to a file")
        << QByteArray(R"({"$ref":"gone.json"})") << QStringLiteral("wrap it in");
}

void TstSchemaValidation::badSchemaFilesSayWhy()
{
    QFETCH(QByteArray, content);
    QFETCH(QString, says);
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("invoice.json"));
    if (!content.isEmpty())
        writeFile(path, content);
    QString error;
    QVERIFY(!CompiledSchema::load(path, &error));
    QVERIFY2(error.contains(says), qPrintable(error));
    QVERIFY2(
        error.contains(path) || error.contains(dir.filePath(QStringLiteral("gone.json"))), qPrintable(error));
}

namespace {
QByteArray configWith(const QByteArray &schemas)
{
    return R"([storage]
url = "sqlite:///tmp/redrive.db"
[[sources]]
name = "stripe"
scheme = "stripe"
secrets = ["whsec_test"]
)" + schemas;
}
} // namespace

void TstSchemaValidation::configRules()
{
    QTemporaryDir dir;
    writeFile(dir.filePath(QStringLiteral("invoice.json")), R"({"type":"object","required":["id"]})");
    writeFile(dir.filePath(QStringLiteral("any.json")), R"(true)");
    const QString configPath = dir.filePath(QStringLiteral("redrive.toml"));
    ConfigError error;
    const auto cfg = parseConfig(configWith(R"(
[[sources.schemas]]
event_types = ["invoice.*"]
schema = "invoice.json"
on_invalid = "reject"
[[sources.schemas]]
event_types = ["invoice.paid", "charge.*"]
schema = ")" + dir.filePath(QStringLiteral("any.json")).toUtf8()
                                     + R"("
)"),
        configPath, &error);
    QVERIFY2(cfg, qPrintable(error.toString()));
    const SourceConfig &source = cfg->sources.first();
    QCOMPARE(source.schemas.size(), 2);
    const SchemaRule *invoice = source.schemaFor(u"invoice.paid"); // first match wins
    QVERIFY(invoice);
    QCOMPARE(invoice->path, dir.filePath(QStringLiteral("invoice.json"))); // relative to the config file
    QCOMPARE(invoice->onInvalid, SchemaRule::OnInvalid::Reject);
    QVERIFY(invoice->schema);
    QVERIFY(!invoice->schema->validateBody("{}").isEmpty());
    const SchemaRule *charge = source.schemaFor(u"charge.failed");
    QVERIFY(charge);
    QCOMPARE(charge->onInvalid, SchemaRule::OnInvalid::Quarantine); // the default
    QVERIFY(!source.schemaFor(u"customer.created")); // no match: not validated
}

void TstSchemaValidation::configErrors_data()
{
    QTest::addColumn<QByteArray>("schemas");
    QTest::addColumn<QString>("expected");
    QTest::newRow("no event_types") << QByteArray("[[sources.schemas]]\nschema = \"invoice.json\"\n")
                                    << QStringLiteral("sources[0].schemas[0].event_types: is required");
    QTest::newRow("empty event_types")
        << QByteArray("[[sources.schemas]]\nevent_types = []\nschema = \"invoice.json\"\n")
        << QStringLiteral("sources[0].schemas[0].event_types: needs at least one");
    QTest::newRow("empty glob") << QByteArray(
        "[[sources.schemas]]\nevent_types = [\"\"]\nschema = \"invoice.json\"\n")
                                << QStringLiteral("sources[0].schemas[0].event_types[0]: must not be empty");
    QTest::newRow("no schema") << QByteArray("[[sources.schemas]]\nevent_types = [\"*\"]\n")
                               << QStringLiteral("sources[0].schemas[0].schema: is required");
    QTest::newRow("bad on_invalid")
        << QByteArray(
               "[[sources.schemas]]\nevent_types = [\"*\"]\nschema = \"invoice.json\"\non_invalid = \"drop\"\n")
        << QStringLiteral("sources[0].schemas[0].on_invalid: must be \"quarantine\" or \"reject\"");
    QTest::newRow("unknown key") << QByteArray(
        "[[sources.schemas]]\nevent_types = [\"*\"]\nschema = \"invoice.json\"\nstrict = true\n")
                                 << QStringLiteral("sources[0].schemas[0].strict: unknown key");
    QTest::newRow("not an array") << QByteArray("schemas = \"invoice.json\"\n")
                                  << QStringLiteral("sources[0].schemas: must be an array of tables");
    QTest::newRow("schema does not load")
        << QByteArray("[[sources.schemas]]\nevent_types = [\"*\"]\nschema = \"missing.json\"\n")
        << QStringLiteral("sources[0].schemas[0].schema: cannot read %1/missing.json");
}

void TstSchemaValidation::configErrors()
{
    QFETCH(QByteArray, schemas);
    QFETCH(QString, expected);
    QTemporaryDir dir;
    writeFile(dir.filePath(QStringLiteral("invoice.json")), R"({"type":"object"})");
    ConfigError error;
    QVERIFY(!parseConfig(configWith(schemas), dir.filePath(QStringLiteral("redrive.toml")), &error));
    if (expected.contains(QLatin1String("%1")))
        expected = expected.arg(dir.path());
    QVERIFY2(error.toString().startsWith(expected), qPrintable(error.toString()));
}

QTEST_GUILESS_MAIN(TstSchemaValidation)
#include "tst_schemavalidation.moc"
