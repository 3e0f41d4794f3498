// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#include "redaction.h"

#include "util/jsonpointer.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

#include <algorithm>
#include <utility>

namespace redrive::privacy {
namespace {

// Where a value sits in the body: [begin, end).
using Span = std::pair<qsizetype, qsizetype>;

// A pointer's reference tokens, unescaped ("~1" is '/', "~0" is '~').
QList<QByteArray> tokensOf(const QByteArray &pointer)
{
    QList<QByteArray> tokens;
    if (!pointer.startsWith('/'))
        return tokens;
    for (QByteArray token : pointer.mid(1).split('/')) {
        token.replace("~1", "/");
        token.replace("~0", "~");
        tokens.append(token);
    }
    return tokens;
}

// A forward scan over JSON text that finds values by path without building a document. It reads
// only as much structure as the path needs; a malformed body makes `failed` true and finds
// nothing.
class Scanner {
public:
    explicit Scanner(QByteArrayView text)
        : m_text(text)
    { }

    bool failed = false;

    void find(const QList<QByteArray> &tokens, QList<Span> *out)
    {
        const qsizetype start = skipSpace(0);
        find(start, tokens, 0, out);
    }

private:
    QByteArrayView m_text;

    [[nodiscard]] char at(qsizetype i) const { return i < m_text.size() ? m_text[i] : '\0'; }

    qsizetype skipSpace(qsizetype i) const
    {
        while (i < m_text.size()
            && (m_text[i] == ' ' || m_text[i] == '\t' || m_text[i] == '\n' || m_text[i] == '\r'))
            ++i;
        return i;
    }

    // The end of the string starting at i (on its opening quote), past the closing quote.
    qsizetype skipString(qsizetype i)
    {
        for (++i; i < m_text.size(); ++i) {
            if (m_text[i] == '\\')
                ++i;
            else if (m_text[i] == '"')
                return i + 1;
        }
        failed = true;
        return m_text.size();
    }

    // The end of the value starting at i.
    qsizetype skipValue(qsizetype i)
    {
        const char c = at(i);
        if (c == '"')
            return skipString(i);
        if (c == '{' || c == '[') {
            int depth = 0;
            for (; i < m_text.size(); ++i) {
                const char d = m_text[i];
                if (d == '"') {
                    i = skipString(i) - 1;
                } else if (d == '{' || d == '[') {
                    ++depth;
                } else if (d == '}' || d == ']') {
                    if (--depth == 0)
                        return i + 1;
                }
            }
            failed = true;
            return m_text.size();
        }
        const qsizetype begin = i;
        while (i < m_text.size()) {
            const char d = m_text[i];
            if (d == ',' || d == '}' || d == ']' || d == ' ' || d == '\t' || d == '\n' || d == '\r')
                break;
            ++i;
        }
        if (i == begin)
            failed = true;
        return i;
    }

    // A member name as its unescaped bytes.
    QByteArray nameOf(qsizetype begin, qsizetype end) const
    {
        const QByteArrayView raw = m_text.sliced(begin + 1, end - begin - 2);
        if (!raw.contains('\\'))
            return raw.toByteArray();
        const QJsonDocument doc
            = QJsonDocument::fromJson("[" + m_text.sliced(begin, end - begin).toByteArray() + "]");
        return doc.array().at(0).toString().toUtf8();
    }

    static std::optional<qsizetype> indexOf(const QByteArray &token)
    {
        if (token.isEmpty() || token.size() > 9 || (token.size() > 1 && token[0] == '0'))
            return std::nullopt;
        qsizetype n = 0;
        for (char c : token) {
            if (c < '0' || c > '9')
                return std::nullopt;
            n = n * 10 + (c - '0');
        }
        return n;
    }

    void find(qsizetype i, const QList<QByteArray> &tokens, qsizetype depth, QList<Span> *out)
    {
        if (failed || i >= m_text.size())
            return;
        if (depth == tokens.size()) {
            const qsizetype end = skipValue(i);
            if (!failed)
                out->append({ i, end });
            return;
        }
        const QByteArray &token = tokens[depth];
        const char open = at(i);
        if (open == '{') {
            i = skipSpace(i + 1);
            if (at(i) == '}')
                return;
            for (;;) {
                if (at(i) != '"') {
                    failed = true;
                    return;
                }
                const qsizetype nameEnd = skipString(i);
                const bool match = !failed && nameOf(i, nameEnd) == token;
                i = skipSpace(nameEnd);
                if (at(i) != ':') {
                    failed = true;
                    return;
                }
                const qsizetype value = skipSpace(i + 1);
                if (match)
                    find(value, tokens, depth + 1, out);
                i = skipSpace(skipValue(value));
                if (failed)
                    return;
                if (at(i) == '}')
                    return;
                if (at(i) != ',') {
                    failed = true;
                    return;
                }
                i = skipSpace(i + 1);
            }
        }
        if (open == '[') {
            const auto wanted = indexOf(token);
            if (!wanted)
                return;
            i = skipSpace(i + 1);
            if (at(i) == ']')
                return;
            for (qsizetype index = 0;; ++index) {
                if (index == *wanted) {
                    find(i, tokens, depth + 1, out);
                    return;
                }
                i = skipSpace(skipValue(i));
                if (failed || at(i) != ',')
                    return;
                i = skipSpace(i + 1);
            }
        }
    }
};

void collectScalars(const QJsonValue &value, int minLength, QStringList *out)
{
    if (value.isString() || value.isDouble()) {
        const QString text = jsonScalarText(value).value_or(QString());
        if (text.size() >= minLength)
            out->append(text);
    } else if (value.isArray()) {
        const QJsonArray array = value.toArray();
        for (const auto &v : array)
            collectScalars(v, minLength, out);
    } else if (value.isObject()) {
        const QJsonObject o = value.toObject();
        for (auto it = o.begin(); it != o.end(); ++it)
            collectScalars(it.value(), minLength, out);
    }
}

// Every matched span of `pointers`, and which pointers matched.
QList<Span> spansOf(QByteArrayView body, const QList<QByteArray> &pointers, QStringList *matched)
{
    QList<Span> spans;
    for (const QByteArray &pointer : pointers) {
        Scanner scanner(body);
        QList<Span> found;
        scanner.find(tokensOf(pointer), &found);
        if (scanner.failed)
            return {};
        if (!found.isEmpty()) {
            spans.append(found);
            if (matched)
                matched->append(QString::fromUtf8(pointer));
        }
    }
    return spans;
}

} // namespace

std::optional<Redaction> redact(QByteArrayView body, const QList<QByteArray> &pointers)
{
    if (pointers.isEmpty() || body.isEmpty())
        return std::nullopt;
    Redaction r;
    QList<Span> spans = spansOf(body, pointers, &r.paths);
    if (spans.isEmpty())
        return std::nullopt;
    std::sort(spans.begin(), spans.end());
    r.body.reserve(body.size());
    qsizetype at = 0;
    for (const auto &[begin, end] : std::as_const(spans)) {
        if (begin < at)
            continue; // inside a value already redacted (a pointer under another)
        r.body.append(body.sliced(at, begin - at));
        r.body.append(kRedactedJson);
        at = end;
    }
    r.body.append(body.sliced(at));
    return r;
}

QStringList redactedValues(QByteArrayView body, const QList<QByteArray> &pointers, int minLength)
{
    QStringList values;
    for (const auto &[begin, end] : spansOf(body, pointers, nullptr)) {
        const QJsonDocument doc
            = QJsonDocument::fromJson("[" + body.sliced(begin, end - begin).toByteArray() + "]");
        const QJsonValue v = doc.array().at(0);
        if (v.isDouble()) {
            const QString text = QString::fromUtf8(body.sliced(begin, end - begin));
            if (text.size() >= minLength)
                values.append(text);
        } else {
            collectScalars(v, minLength, &values);
        }
    }
    // Longest first, so a value that contains another is replaced whole.
    std::sort(
        values.begin(), values.end(), [](const QString &a, const QString &b) { return a.size() > b.size(); });
    values.removeDuplicates();
    return values;
}

QString scrub(QString text, const QStringList &values)
{
    for (const QString &v : values)
        text.replace(v, QStringLiteral("[redacted]"));
    return text;
}

} // namespace redrive::privacy
