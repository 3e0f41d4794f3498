// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#include "jsonbody.h"

#include <QLocale>
#include <QStringDecoder>

#include <algorithm>
#include <cstring>
#include <memory>
#include <simdjson.h>
#include <string_view>

namespace redrive::signatures::jsonbody {
namespace {

// A body copied into a buffer with simdjson's padding, and the parser, reused by the thread.
struct Scratch {
    simdjson::dom::parser parser;
    std::unique_ptr<char[]> buffer;
    std::size_t capacity = 0;

    const char *padded(QByteArrayView json)
    {
        const auto size = static_cast<std::size_t>(json.size());
        if (size + simdjson::SIMDJSON_PADDING > capacity) {
            capacity = std::max<std::size_t>(size + simdjson::SIMDJSON_PADDING, 4096);
            buffer = std::make_unique<char[]>(capacity);
        }
        if (size > 0)
            std::memcpy(buffer.get(), json.data(), size);
        std::memset(buffer.get() + size, 0, simdjson::SIMDJSON_PADDING);
        return buffer.get();
    }
};

Scratch &scratch()
{
    thread_local Scratch s;
    return s;
}

// A JSON string's text, exactly: QString::fromUtf8 would drop a leading U+FEFF as a byte order
// mark, but inside a JSON string it is a character of the value (JSON.parse keeps it).
QString decoded(std::string_view text)
{
    QStringDecoder utf8(QStringDecoder::Utf8, QStringDecoder::Flag::ConvertInitialBom);
    return utf8.decode(QByteArrayView(text.data(), static_cast<qsizetype>(text.size())));
}

bool isKey(std::string_view key, QByteArrayView wanted)
{
    return key.size() == static_cast<std::size_t>(wanted.size())
        && std::memcmp(key.data(), wanted.data(), key.size()) == 0;
}

Member read(simdjson::dom::element value)
{
    Member m;
    m.found = true;
    switch (value.type()) {
    case simdjson::dom::element_type::STRING: {
        std::string_view text;
        if (value.get_string().get(text) == simdjson::SUCCESS && text.find('\0') == std::string_view::npos)
            m.string = decoded(text);
        break;
    }
    case simdjson::dom::element_type::INT64: {
        int64_t n = 0;
        if (value.get_int64().get(n) == simdjson::SUCCESS)
            m.integer = n;
        break;
    }
    default:
        break;
    }
    return m;
}

Scalar scalarAt(simdjson::dom::element root, QByteArrayView pointer)
{
    Scalar out;
    simdjson::dom::element value;
    if (root.at_pointer(std::string_view(pointer.data(), static_cast<std::size_t>(pointer.size()))).get(value)
        != simdjson::SUCCESS)
        return out;
    out.found = true;
    switch (value.type()) {
    case simdjson::dom::element_type::STRING: {
        std::string_view text;
        if (value.get_string().get(text) == simdjson::SUCCESS && text.find('\0') == std::string_view::npos)
            out.text = decoded(text);
        break;
    }
    case simdjson::dom::element_type::INT64:
        out.text = QString::number(value.get_int64().value_unsafe());
        break;
    case simdjson::dom::element_type::UINT64:
        out.text = QString::number(value.get_uint64().value_unsafe());
        break;
    case simdjson::dom::element_type::DOUBLE:
        out.text = QString::number(value.get_double().value_unsafe(), 'g', QLocale::FloatingPointShortest);
        break;
    default:
        break;
    }
    return out;
}

} // namespace

Status readObject(QByteArrayView json, std::span<const QByteArrayView> keys, std::span<Member> members,
    std::span<const QByteArrayView> pointers, std::span<Scalar> scalars)
{
    std::fill(members.begin(), members.end(), Member {});
    std::fill(scalars.begin(), scalars.end(), Scalar {});
    // simdjson skips a UTF-8 byte order mark; RFC 8259 §8.1 says a sender must not add one
    // and Redrive has always refused it.
    if (json.startsWith("\xEF\xBB\xBF"))
        return Status::NotJson;
    // simdjson counts the document itself as one more level than the root object.
    constexpr std::size_t kParserDepth = kMaxDepth + 1;
    Scratch &s = scratch();
    const auto size = static_cast<std::size_t>(json.size());
    if (s.parser.capacity() < size || s.parser.max_depth() != kParserDepth) {
        if (s.parser.allocate(std::max<std::size_t>(size, 4096), kParserDepth) != simdjson::SUCCESS)
            return Status::NotJson;
    }
    simdjson::dom::element root;
    const auto error = s.parser.parse(s.padded(json), size, false).get(root);
    if (error == simdjson::DEPTH_ERROR)
        return Status::TooDeep;
    simdjson::dom::object object;
    if (error || root.get_object().get(object) != simdjson::SUCCESS)
        return Status::NotJson;
    for (const simdjson::dom::key_value_pair field : object) {
        for (std::size_t i = 0; i < keys.size(); ++i) {
            if (isKey(field.key, keys[i]))
                members[i] = read(field.value); // the last duplicate wins
        }
    }
    // simdjson's object lookup answers the first of duplicate keys where `members` keeps the
    // last; a key is a search aid, not a security decision, so the lookup's choice stands.
    for (std::size_t i = 0; i < pointers.size() && i < scalars.size(); ++i)
        scalars[i] = scalarAt(root, pointers[i]);
    return Status::Ok;
}

} // namespace redrive::signatures::jsonbody
