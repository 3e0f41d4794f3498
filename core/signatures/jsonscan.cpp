// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#include "jsonscan.h"

#include <array>
#include <cstring>
#include <limits>

namespace redrive::signatures::jsonscan {

namespace {

constexpr bool isWhitespace(char c)
{
    return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

constexpr bool isDigit(char c)
{
    return c >= '0' && c <= '9';
}

constexpr int hexValue(char c)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    if (c >= 'a' && c <= 'f')
        return c - 'a' + 10;
    if (c >= 'A' && c <= 'F')
        return c - 'A' + 10;
    return -1;
}

// Bytes that end the fast path inside a string: the closing quote, a backslash, and the
// control characters JSON forbids unescaped.
constexpr std::array<bool, 256> makeStringStops()
{
    std::array<bool, 256> stops {};
    for (int c = 0; c < 0x20; ++c)
        stops[static_cast<std::size_t>(c)] = true;
    stops['"'] = true;
    stops['\\'] = true;
    return stops;
}
constexpr std::array<bool, 256> kStringStops = makeStringStops();

class Cursor {
public:
    Cursor(const char *begin, const char *end)
        : m_p(begin)
        , m_end(end)
    { }

    [[nodiscard]] const char *position() const { return m_p; }
    [[nodiscard]] bool atEnd() const { return m_p == m_end; }
    [[nodiscard]] bool at(char c) const { return m_p != m_end && *m_p == c; }
    void advance() { ++m_p; }

    void skipWhitespace()
    {
        while (m_p != m_end && isWhitespace(*m_p))
            ++m_p;
    }

    // At an opening quote; on success the cursor is one past the closing quote.
    bool string(bool *hasEscape)
    {
        ++m_p;
        bool escaped = false;
        while (true) {
            skipOrdinaryBlocks();
            while (m_p != m_end && !kStringStops[static_cast<unsigned char>(*m_p)])
                ++m_p;
            if (m_p == m_end)
                return false;
            if (*m_p == '"') {
                ++m_p;
                *hasEscape = escaped;
                return true;
            }
            if (*m_p != '\\')
                return false; // raw control character
            escaped = true;
            if (m_end - m_p < 2)
                return false;
            switch (m_p[1]) {
            case '"':
            case '\\':
            case '/':
            case 'b':
            case 'f':
            case 'n':
            case 'r':
            case 't':
                m_p += 2;
                break;
            case 'u':
                if (m_end - m_p < 6)
                    return false;
                for (int i = 2; i < 6; ++i) {
                    if (hexValue(m_p[i]) < 0)
                        return false;
                }
                m_p += 6;
                break;
            default:
                return false;
            }
        }
    }

    bool number()
    {
        if (at('-'))
            ++m_p;
        if (atEnd())
            return false;
        if (*m_p == '0') {
            ++m_p;
        } else if (isDigit(*m_p)) {
            while (m_p != m_end && isDigit(*m_p))
                ++m_p;
        } else {
            return false;
        }
        if (at('.')) {
            ++m_p;
            if (!digits())
                return false;
        }
        if (at('e') || at('E')) {
            ++m_p;
            if (at('+') || at('-'))
                ++m_p;
            if (!digits())
                return false;
        }
        return true;
    }

    bool literal(QByteArrayView word)
    {
        if (m_end - m_p < word.size() || QByteArrayView(m_p, word.size()) != word)
            return false;
        m_p += word.size();
        return true;
    }

    // After '{' or ',' inside an object: a key, then ':'.
    bool memberKey()
    {
        skipWhitespace();
        if (!at('"'))
            return false;
        bool escaped = false;
        if (!string(&escaped))
            return false;
        skipWhitespace();
        if (!at(':'))
            return false;
        ++m_p;
        return true;
    }

    // Skips one complete value. Iterative, so hostile nesting costs a bounded stack.
    Status value(int depthUsed)
    {
        int depth = 0;
        const int maxDepth = kMaxDepth - depthUsed;
        while (true) {
            skipWhitespace();
            if (atEnd())
                return Status::NotJson;
            switch (*m_p) {
            case '{':
                ++m_p;
                skipWhitespace();
                if (at('}')) {
                    ++m_p;
                    break;
                }
                if (depth >= maxDepth)
                    return Status::TooDeep;
                m_stack[static_cast<std::size_t>(depth++)] = '}';
                if (!memberKey())
                    return Status::NotJson;
                continue;
            case '[':
                ++m_p;
                skipWhitespace();
                if (at(']')) {
                    ++m_p;
                    break;
                }
                if (depth >= maxDepth)
                    return Status::TooDeep;
                m_stack[static_cast<std::size_t>(depth++)] = ']';
                continue;
            case '"': {
                bool escaped = false;
                if (!string(&escaped))
                    return Status::NotJson;
                break;
            }
            case 't':
                if (!literal("true"))
                    return Status::NotJson;
                break;
            case 'f':
                if (!literal("false"))
                    return Status::NotJson;
                break;
            case 'n':
                if (!literal("null"))
                    return Status::NotJson;
                break;
            default:
                if (!number())
                    return Status::NotJson;
                break;
            }
            // One value is complete: close containers until another value is expected.
            while (true) {
                if (depth == 0)
                    return Status::Ok;
                skipWhitespace();
                if (atEnd())
                    return Status::NotJson;
                const char close = m_stack[static_cast<std::size_t>(depth - 1)];
                if (*m_p == ',') {
                    ++m_p;
                    if (close == '}' && !memberKey())
                        return Status::NotJson;
                    break;
                }
                if (*m_p != close)
                    return Status::NotJson;
                ++m_p;
                --depth;
            }
        }
    }

private:
    // Inside a string, skips eight bytes at a time while none of them is a quote, a backslash
    // or a control character (SWAR: the classic "has zero byte" and "has byte less than n"
    // tests, which can only report a block that really holds such a byte).
    void skipOrdinaryBlocks()
    {
        constexpr quint64 kOnes = 0x0101010101010101ULL;
        constexpr quint64 kHighs = 0x8080808080808080ULL;
        while (m_end - m_p >= 8) {
            quint64 w;
            std::memcpy(&w, m_p, sizeof w);
            const quint64 quote = w ^ (kOnes * '"');
            const quint64 backslash = w ^ (kOnes * '\\');
            const quint64 special
                = ((quote - kOnes) & ~quote) | ((backslash - kOnes) & ~backslash) | ((w - kOnes * 0x20) & ~w);
            if (special & kHighs)
                return;
            m_p += 8;
        }
    }

    bool digits()
    {
        const char *start = m_p;
        while (m_p != m_end && isDigit(*m_p))
            ++m_p;
        return m_p != start;
    }

    const char *m_p;
    const char *m_end;
    // The closer each open container expects. Only entries below the current depth are read,
    // so it is deliberately left uninitialised (this runs once per top-level member).
    std::array<char, kMaxDepth> m_stack;
};

Kind kindOf(char c)
{
    switch (c) {
    case '"':
        return Kind::String;
    case '{':
        return Kind::Object;
    case '[':
        return Kind::Array;
    case 't':
        return Kind::True;
    case 'f':
        return Kind::False;
    case 'n':
        return Kind::Null;
    default:
        return Kind::Number;
    }
}

// The contents of a syntactically valid JSON string (without its quotes) as UTF-16.
std::optional<QString> decodeContents(QByteArrayView raw)
{
    QString out;
    out.reserve(raw.size());
    qsizetype runStart = 0;
    qsizetype i = 0;
    auto flushRun = [&](qsizetype runEnd) {
        const QByteArrayView run = raw.sliced(runStart, runEnd - runStart);
        if (run.isEmpty())
            return true;
        if (!run.isValidUtf8())
            return false;
        out.append(QString::fromUtf8(run));
        return true;
    };
    auto hex4 = [&](qsizetype at) -> int {
        if (at + 4 > raw.size())
            return -1;
        int value = 0;
        for (qsizetype k = at; k < at + 4; ++k) {
            const int h = hexValue(raw[k]);
            if (h < 0)
                return -1;
            value = (value << 4) | h;
        }
        return value;
    };
    while (i < raw.size()) {
        if (raw[i] != '\\') {
            ++i;
            continue;
        }
        if (!flushRun(i) || i + 1 >= raw.size())
            return std::nullopt;
        const char e = raw[i + 1];
        i += 2;
        switch (e) {
        case '"':
            out.append(u'"');
            break;
        case '\\':
            out.append(u'\\');
            break;
        case '/':
            out.append(u'/');
            break;
        case 'b':
            out.append(u'\b');
            break;
        case 'f':
            out.append(u'\f');
            break;
        case 'n':
            out.append(u'\n');
            break;
        case 'r':
            out.append(u'\r');
            break;
        case 't':
            out.append(u'\t');
            break;
        case 'u': {
            const int unit = hex4(i);
            // U+0000 is refused: ids and types are stored as text, which PostgreSQL cannot hold it in.
            if (unit <= 0)
                return std::nullopt;
            i += 4;
            if (unit >= 0xDC00 && unit <= 0xDFFF)
                return std::nullopt; // a low surrogate with no high one before it
            if (unit >= 0xD800 && unit <= 0xDBFF) {
                if (i + 6 > raw.size() || raw[i] != '\\' || raw[i + 1] != 'u')
                    return std::nullopt;
                const int low = hex4(i + 2);
                if (low < 0xDC00 || low > 0xDFFF)
                    return std::nullopt;
                out.append(QChar(static_cast<char16_t>(unit)));
                out.append(QChar(static_cast<char16_t>(low)));
                i += 6;
            } else {
                out.append(QChar(static_cast<char16_t>(unit)));
            }
            break;
        }
        default:
            return std::nullopt;
        }
        runStart = i;
    }
    if (!flushRun(raw.size()))
        return std::nullopt;
    return out;
}

bool keyMatches(QByteArrayView rawKey, bool escaped, QByteArrayView wanted)
{
    if (!escaped)
        return rawKey == wanted;
    // An escape takes 2–12 bytes for at most 4 bytes of UTF-8, so a much longer raw key can
    // not decode to `wanted`; skip decoding those.
    if (rawKey.size() > wanted.size() * 6)
        return false;
    const auto decoded = decodeContents(rawKey);
    return decoded && decoded->toUtf8() == wanted;
}

} // namespace

Status scanObject(QByteArrayView json, std::span<const QByteArrayView> keys, std::span<Member> members)
{
    for (auto &m : members)
        m = Member {};
    const char *const base = json.data();
    Cursor c(base, base + json.size());
    c.skipWhitespace();
    if (!c.at('{'))
        return Status::NotJson;
    c.advance();
    c.skipWhitespace();
    if (c.at('}')) {
        c.advance();
    } else {
        while (true) {
            c.skipWhitespace();
            if (!c.at('"'))
                return Status::NotJson;
            const char *keyBegin = c.position() + 1;
            bool escaped = false;
            if (!c.string(&escaped))
                return Status::NotJson;
            const QByteArrayView rawKey(keyBegin, c.position() - 1 - keyBegin);
            c.skipWhitespace();
            if (!c.at(':'))
                return Status::NotJson;
            c.advance();
            c.skipWhitespace();
            if (c.atEnd())
                return Status::NotJson;
            const char *valueBegin = c.position();
            const Kind kind = kindOf(*valueBegin);
            if (const Status s = c.value(1); s != Status::Ok)
                return s;
            const std::size_t n = std::min(keys.size(), members.size());
            for (std::size_t k = 0; k < n; ++k) {
                if (keyMatches(rawKey, escaped, keys[k]))
                    members[k] = Member { true, kind, valueBegin - base, c.position() - base };
            }
            c.skipWhitespace();
            if (c.at(',')) {
                c.advance();
                continue;
            }
            if (!c.at('}'))
                return Status::NotJson;
            c.advance();
            break;
        }
    }
    c.skipWhitespace();
    return c.atEnd() ? Status::Ok : Status::NotJson;
}

std::optional<QString> decodeString(QByteArrayView json, const Member &member)
{
    if (!member.found || member.kind != Kind::String || member.begin < 0 || member.end > json.size()
        || member.end - member.begin < 2)
        return std::nullopt;
    return decodeContents(json.sliced(member.begin + 1, member.end - member.begin - 2));
}

std::optional<qint64> decodeInteger(QByteArrayView json, const Member &member)
{
    if (!member.found || member.kind != Kind::Number || member.begin < 0 || member.end > json.size()
        || member.end <= member.begin)
        return std::nullopt;
    QByteArrayView text = json.sliced(member.begin, member.end - member.begin);
    const bool negative = text.front() == '-';
    if (negative)
        text = text.sliced(1);
    if (text.isEmpty())
        return std::nullopt;
    // Accumulate as a negative number so that the minimum qint64 is representable.
    constexpr qint64 kMin = std::numeric_limits<qint64>::min();
    qint64 value = 0;
    for (const char ch : text) {
        if (!isDigit(ch))
            return std::nullopt; // fraction or exponent: not an integer
        const int digit = ch - '0';
        if (value < (kMin + digit) / 10)
            return std::nullopt;
        value = value * 10 - digit;
    }
    if (!negative) {
        if (value == kMin)
            return std::nullopt;
        value = -value;
    }
    return value;
}

} // namespace redrive::signatures::jsonscan
