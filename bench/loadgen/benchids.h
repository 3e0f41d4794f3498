// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <string>

namespace redrive::bench {

// GitHub's X-GitHub-Delivery is a random UUID: ids land at random places in the unique index,
// unlike a counter's near-sequential ones. Distinct per n (splitmix64 is a bijection).
inline std::string uuidFor(long long n)
{
    auto mix = [](std::uint64_t z) {
        z += 0x9e3779b97f4a7c15ULL;
        z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
        z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
        return z ^ (z >> 31);
    };
    const std::uint64_t hi = mix(static_cast<std::uint64_t>(n));
    const std::uint64_t lo = mix(hi ^ 0x5851f42d4c957f2dULL);
    char buf[40];
    std::snprintf(buf, sizeof buf, "%08x-%04x-4%03x-%04x-%012llx", static_cast<unsigned>(hi >> 32),
        static_cast<unsigned>((hi >> 16) & 0xffff), static_cast<unsigned>(hi & 0xfff),
        static_cast<unsigned>(0x8000 | ((lo >> 48) & 0x3fff)),
        static_cast<unsigned long long>(lo & 0xffffffffffffULL));
    return buf;
}

// The event id the load generators send for event n.
inline std::string eventId(const std::string &prefix, const std::string &style, long long n)
{
    return prefix + (style == "uuid" ? uuidFor(n) : std::to_string(n));
}

// The body sent for event `id`: a realistic-looking JSON object padded to `size` bytes, with the
// id spliced in so every body (and so every signature) differs.
inline std::string eventBody(const std::string &id, int size)
{
    std::string body = "{\"action\":\"opened\",\"delivery\":\"" + id
        + "\",\"repository\":{\"id\":1296269,\"full_name\":\"octo/hello\"},\"sender\":{\"login\":\"octocat\"},"
          "\"pad\":\"";
    body.append(static_cast<std::size_t>(std::max(0, size - static_cast<int>(body.size()) - 2)), 'x');
    body += "\"}";
    return body;
}

} // namespace redrive::bench
