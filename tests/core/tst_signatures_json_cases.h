// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
// JSON scanner cases, kept out of the test source: moc 6.4 does not tokenise raw string literals.
#pragma once

namespace sigtest {

struct JsonStringCase {
    const char *name;
    const char *json;
    const char *key;
    const char *expected; // UTF-8; nullptr = no value
};

// Expected values are UTF-8 byte strings; u8 literals would be char8_t in C++20.
inline constexpr JsonStringCase kJsonStringCases[] = {
    { "simple", R"({"id":"evt_1"})", "id", "evt_1" },
    { "whitespace everywhere", " \t\r\n{ \"id\" :\n \"a\" \r\n} \n", "id", "a" },
    { "empty string value", R"({"id":""})", "id", "" },
    { "empty object", R"({})", "id", nullptr },
    { "absent", R"({"other":"x"})", "id", nullptr },
    { "only nested", R"({"data":{"id":"inner"}})", "id", nullptr },
    { "nested skipped, top-level found", R"({"data":{"id":"inner","a":[1,{"id":"x"},[[]],{}]},"id":"outer"})",
        "id", "outer" },
    { "found before nested", R"({"id":"first","data":{"id":"inner"}})", "id", "first" },
    { "braces and quotes inside strings", R"({"x":"}\"{[\\","id":"ok"})", "id", "ok" },
    { "key as a value is not a key", R"({"x":"id","y":["id"],"id":"real"})", "id", "real" },
    { "simple escapes", R"({"id":"a\"b\\c\/d\b\f\n\r\te"})", "id", "a\"b\\c/d\b\f\n\r\te" },
    { "unicode escape", R"({"id":"caf\u00e9"})", "id", "caf\xc3\xa9" },
    { "surrogate pair", R"({"id":"\ud83d\ude00!"})", "id", "\xf0\x9f\x98\x80!" },
    { "surrogate pair upper-case hex", R"({"id":"\uD83D\uDE00"})", "id", "\xf0\x9f\x98\x80" },
    { "raw UTF-8", "{\"id\":\"caf\xc3\xa9 \xe2\x82\xac\"}", "id", "caf\xc3\xa9 \xe2\x82\xac" },
    // U+FEFF inside a string is a character of the value, not a byte order mark.
    { "value starting with U+FEFF", "{\"id\":\"\xef\xbb\xbf\\\\x\"}", "id", "\xef\xbb\xbf\\x" },
    { "raw UTF-8 around escapes", "{\"id\":\"\xc3\xa9\\n\xc3\xa9\"}", "id", "\xc3\xa9\n\xc3\xa9" },
    { "lone high surrogate", R"({"id":"\ud83d"})", "id", nullptr },
    { "high surrogate then letter", R"({"id":"\ud83dx"})", "id", nullptr },
    { "high surrogate then non-low escape", R"({"id":"\ud83d\u0041"})", "id", nullptr },
    { "lone low surrogate", R"({"id":"\ude00"})", "id", nullptr },
    { "escaped NUL", R"({"id":"a\u0000b"})", "id", nullptr },
    { "invalid UTF-8 in the value", "{\"id\":\"a\xff\"}", "id", nullptr },
    { "overlong UTF-8 in the value", "{\"id\":\"\xc0\xaf\"}", "id", nullptr },
    { "escaped key", R"({"\u0069d":"escaped"})", "id", "escaped" },
    { "escaped key that differs", R"({"\u0069e":"no"})", "id", nullptr },
    { "duplicate keeps the last", R"({"id":"first","id":"last"})", "id", "last" },
    { "number value", R"({"id":12})", "id", nullptr },
    { "null value", R"({"id":null})", "id", nullptr },
    { "array value", R"({"id":["a"]})", "id", nullptr },
    { "object value", R"({"id":{"id":"a"}})", "id", nullptr },
    { "other key names", R"({"type":"invoice.paid","id":"x"})", "type", "invoice.paid" },
    { "key prefix is not the key", R"({"idx":"a","i":"b"})", "id", nullptr },
    { "numbers of every shape", R"({"a":-0.5e+10,"b":1E5,"c":0,"d":-0,"e":12.25,"id":"n"})", "id", "n" },
    { "literals", R"({"a":true,"b":false,"c":null,"id":"l"})", "id", "l" },
    // Not JSON, or not an object: no value, even when the member is there.
    { "array root", R"(["id","a"])", "id", nullptr },
    { "string root", R"("id")", "id", nullptr },
    { "empty text", "", "id", nullptr },
    { "whitespace only", "  \n", "id", nullptr },
    { "byte order mark", "\xef\xbb\xbf{\"id\":\"a\"}", "id", nullptr },
    { "trailing comma", R"({"id":"a",})", "id", nullptr },
    { "trailing garbage", R"({"id":"a"}x)", "id", nullptr },
    { "two documents", R"({"id":"a"}{})", "id", nullptr },
    { "unterminated object", R"({"id":"a")", "id", nullptr },
    { "unterminated string", R"({"id":"a)", "id", nullptr },
    { "single quotes", R"({"id":'a'})", "id", nullptr },
    { "unquoted key", R"({id:"a"})", "id", nullptr },
    { "missing colon", R"({"id" "a"})", "id", nullptr },
    { "missing comma", R"({"x":1 "id":"a"})", "id", nullptr },
    { "raw tab in string", "{\"id\":\"a\tb\"}", "id", nullptr },
    { "raw newline in a skipped string", "{\"x\":\"a\nb\",\"id\":\"a\"}", "id", nullptr },
    { "bad escape", R"({"x":"\x","id":"a"})", "id", nullptr },
    { "short unicode escape", R"({"x":"\u12","id":"a"})", "id", nullptr },
    { "non-hex unicode escape", R"({"x":"\u12g4","id":"a"})", "id", nullptr },
    { "leading zero", R"({"x":01,"id":"a"})", "id", nullptr },
    { "dot without digits", R"({"x":1.,"id":"a"})", "id", nullptr },
    { "exponent without digits", R"({"x":1e,"id":"a"})", "id", nullptr },
    { "bare minus", R"({"x":-,"id":"a"})", "id", nullptr },
    { "plus sign", R"({"x":+1,"id":"a"})", "id", nullptr },
    { "truncated literal", R"({"x":tru,"id":"a"})", "id", nullptr },
    { "NaN", R"({"x":NaN,"id":"a"})", "id", nullptr },
    { "error after the member", R"({"id":"a","x":})", "id", nullptr },
    { "unbalanced nesting", R"({"x":[1,2},"id":"a"})", "id", nullptr },
    { "nested trailing comma", R"({"x":[1,],"id":"a"})", "id", nullptr },
    { "nested object missing value", R"({"x":{"k"},"id":"a"})", "id", nullptr },
    { "nested object non-string key", R"({"x":{1:2},"id":"a"})", "id", nullptr },
    // Not interoperable (RFC 8259 §8.2, §6) and forbidden by I-JSON: refused as a whole.
    { "unpaired surrogate in another member", R"({"x":"\ud83d","id":"a"})", "id", nullptr },
    { "integer beyond 64 bits in another member", R"({"x":123456789012345678901234567890,"id":"a"})", "id",
        nullptr },
    { "number beyond a double in another member", R"({"x":1e999,"id":"a"})", "id", nullptr },
};

struct JsonIntegerCase {
    const char *name;
    const char *json;
    bool found;
    long long expected;
};

inline constexpr JsonIntegerCase kJsonIntegerCases[] = {
    { "unix seconds", R"({"id":"evt","created":1686089970})", true, 1686089970LL },
    { "zero", R"({"created":0})", true, 0 },
    { "negative", R"({"created":-5})", true, -5 },
    { "negative zero", R"({"created":-0})", true, 0 },
    { "largest", R"({"created":9223372036854775807})", true, 9223372036854775807LL },
    { "smallest", R"({"created":-9223372036854775808})", true, -9223372036854775807LL - 1 },
    { "one past the largest", R"({"created":9223372036854775808})", false, 0 },
    { "one past the smallest", R"({"created":-9223372036854775809})", false, 0 },
    { "twenty-five digits", R"({"created":1234567890123456789012345})", false, 0 },
    { "fraction", R"({"created":1.5})", false, 0 },
    { "exponent", R"({"created":1e3})", false, 0 },
    { "string", R"({"created":"1686089970"})", false, 0 },
    { "absent", R"({"id":"x"})", false, 0 },
    { "nested only", R"({"data":{"created":1}})", false, 0 },
    { "invalid document", R"({"created":1,})", false, 0 },
};

} // namespace sigtest
