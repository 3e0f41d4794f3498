// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
//
// redrive-verifybench: the cost of one signature verification as ingest performs it — a GitHub
// request with a 1 KiB body (HMAC-SHA256 over the body, constant-time compare, id and type
// extraction). The ingest benchmark multiplies this by the events it acknowledged and divides by
// the receiver's CPU time, giving the share of the receiver's work spent on signatures.
//
//   --body-bytes N   body size (default 1024); the body is realistic JSON (nested objects,
//                    arrays, numbers, escapes), so validating it costs what a real one does
//   --scheme S       github (default: HMAC + one top-level member) or stripe (timestamped
//                    HMAC + id, type and created)
//   --keys N         business keys read in the same pass (0 to 3, default 0): a nested string,
//                    a nested number and an array element
//   --allowlist N    also time a source's allowed_ips check alone, as ingest does it for every
//                    request (the peer's text parsed, then N ranges of which only the last
//                    matches), directly and behind a trusted proxy with a two-entry
//                    X-Forwarded-For; reported as us_per_address_check(_via_proxy)
#include "crypto/crypto.h"
#include "signatures/verifier.h"
#include "util/ipranges.h"

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>

using namespace redrive;

namespace {

// {"action":"opened","id":"evt_bench","type":"bench.event","created":1700000000,"items":[…]}
QByteArray benchBody(int bytes)
{
    QByteArray body = R"({"action":"opened","id":"evt_bench","type":"bench.event","created":1700000000,)"
                      R"("repository":{"id":1296269,"full_name":"octo/hello"},"items":[)";
    const QByteArray item = R"({"sku":"A-1042","name":"caf\u00e9 \"large\"","qty":2,"price":12.5,)"
                            R"("tags":["gift","fragile"],"ok":true,"note":null},)";
    while (body.size() + item.size() + 16 < bytes)
        body += item;
    if (body.endsWith(','))
        body.chop(1);
    body += R"(],"pad":")";
    body += QByteArray(qMax(0, bytes - int(body.size()) - 2), 'x');
    body += R"("})";
    return body;
}

IpRanges benchRanges(int n)
{
    IpRanges ranges;
    QString reason;
    for (int i = 0; i + 1 < n; ++i) {
        const QString text = i % 2 ? QStringLiteral("2001:db8:%1::/48").arg(i, 0, 16)
                                   : QStringLiteral("198.51.%1.0/24").arg(i % 256);
        ranges.append(*IpRanges::parse(text, &reason));
    }
    ranges.append(*IpRanges::parse(u"127.0.0.0/8", &reason));
    return ranges;
}

// CPU microseconds per call of `check`, which must return true.
template<typename Check> double timeChecks(int iterations, Check &&check)
{
    timespec a {}, b {};
    int ok = 0;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &a);
    for (int i = 0; i < iterations; ++i)
        ok += check() ? 1 : 0;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &b);
    if (ok != iterations)
        return -1;
    return (static_cast<double>(b.tv_sec - a.tv_sec) * 1e6 + static_cast<double>(b.tv_nsec - a.tv_nsec) / 1e3)
        / iterations;
}

} // namespace

int main(int argc, char **argv)
{
    int bodyBytes = 1024;
    bool stripe = false;
    int keys = 0;
    int allowlist = 0;
    for (int i = 1; i < argc; ++i) {
        if (std::strcmp(argv[i], "--allowlist") == 0 && i + 1 < argc) {
            allowlist = std::atoi(argv[++i]);
            if (allowlist < 0 || allowlist > 10'000) {
                std::fprintf(stderr, "redrive-verifybench: --allowlist is 0 to 10000\n");
                return 2;
            }
            continue;
        }
        if (std::strcmp(argv[i], "--keys") == 0 && i + 1 < argc) {
            keys = std::atoi(argv[++i]);
            if (keys < 0 || keys > 3) {
                std::fprintf(stderr, "redrive-verifybench: --keys is 0 to 3\n");
                return 2;
            }
            continue;
        }
        if (std::strcmp(argv[i], "--body-bytes") == 0 && i + 1 < argc) {
            bodyBytes = std::atoi(argv[++i]);
        } else if (std::strcmp(argv[i], "--scheme") == 0 && i + 1 < argc) {
            const char *scheme = argv[++i];
            stripe = std::strcmp(scheme, "stripe") == 0;
            if (!stripe && std::strcmp(scheme, "github") != 0) {
                std::fprintf(stderr, "redrive-verifybench: --scheme is github or stripe\n");
                return 2;
            }
        } else {
            std::fprintf(stderr,
                "usage: redrive-verifybench [--body-bytes N] [--scheme github|stripe] [--keys 0-3] "
                "[--allowlist N]\n");
            return 2;
        }
    }
    if (bodyBytes < 256 || bodyBytes > 16 * 1024 * 1024) {
        std::fprintf(stderr, "redrive-verifybench: --body-bytes must be from 256 to 16777216\n");
        return 2;
    }
    constexpr qint64 kNow = 1'700'000'000;
    SourceConfig source;
    source.name = QStringLiteral("bench");
    source.scheme = stripe ? SchemeKind::Stripe : SchemeKind::GitHub;
    source.secrets = { Secret { QStringLiteral("bench"), QByteArrayLiteral("bench-secret") } };
    const QByteArray body = benchBody(bodyBytes);
    const BusinessKey benchKeys[] = {
        { QStringLiteral("repo"), BusinessKey::Kind::JsonPointer, "/repository/full_name", {} },
        { QStringLiteral("repo_id"), BusinessKey::Kind::JsonPointer, "/repository/id", {} },
        { QStringLiteral("sku"), BusinessKey::Kind::JsonPointer, "/items/0/sku", {} },
    };
    for (int k = 0; k < keys; ++k)
        source.keys.append(benchKeys[k]);
    Headers headers;
    if (stripe) {
        const QByteArray ts = QByteArray::number(kNow);
        headers.add("Stripe-Signature",
            "t=" + ts + ",v1=" + crypto::hmacSha256(source.secrets[0].key, { ts, ".", body }).toHex());
    } else {
        headers.add("X-GitHub-Event", "pull_request");
        headers.add("X-GitHub-Delivery", "72d3162e-cc78-11e3-81ab-4c9367dc0958");
        headers.add(
            "X-Hub-Signature-256", "sha256=" + crypto::hmacSha256(source.secrets[0].key, body).toHex());
    }

    // About 0.2 GB of body in all, at least 2,000 verifications.
    const int iterations = qMax(2'000, int(200'000LL * 1024 / bodyBytes));
    int ok = 0;
    // CPU time, like the receiver's CPU it is compared with: on a busy machine wall time would
    // also count the time this process waited for a core.
    const auto cpuNow = [] {
        timespec ts {};
        clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
        return static_cast<double>(ts.tv_sec) + static_cast<double>(ts.tv_nsec) / 1e9;
    };
    const double cpuStart = cpuNow();
    const auto start = std::chrono::steady_clock::now();
    for (int i = 0; i < iterations; ++i) {
        const auto v = signatures::verify(source, headers, body, kNow);
        ok += v.ok() && v.keys.size() == keys ? 1 : 0;
    }
    const double wallSeconds
        = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    const double seconds = cpuNow() - cpuStart;
    if (ok != iterations) {
        std::fprintf(stderr, "redrive-verifybench: verification failed (%d of %d)\n", ok, iterations);
        return 1;
    }
    std::printf("{\"scheme\":\"%s\",\"body_bytes\":%d,\"keys\":%d,\"iterations\":%d,\"us_per_verify\":%.3f,"
                "\"wall_us_per_verify\":%.3f",
        stripe ? "stripe" : "github", int(body.size()), keys, iterations, seconds * 1e6 / iterations,
        wallSeconds * 1e6 / iterations);
    if (allowlist > 0) {
        const IpRanges allowed = benchRanges(allowlist);
        IpRanges trusted;
        QString reason;
        trusted.append(*IpRanges::parse(u"10.0.0.0/24", &reason));
        const QString peer = QStringLiteral("127.0.0.1");
        const QString proxy = QStringLiteral("10.0.0.5");
        Headers forwarded;
        forwarded.add("X-Forwarded-For", "127.0.0.1, 10.0.0.7");
        const double direct = timeChecks(200'000, [&] { return allowed.contains(QHostAddress(peer)); });
        const double viaProxy = timeChecks(
            200'000, [&] { return allowed.contains(clientAddress(proxy, forwarded, trusted).parsed); });
        if (direct < 0 || viaProxy < 0) {
            std::fprintf(stderr, "redrive-verifybench: the address check refused 127.0.0.1\n");
            return 1;
        }
        std::printf(
            ",\"allowlist_ranges\":%d,\"us_per_address_check\":%.3f,\"us_per_address_check_via_proxy\":%.3f",
            allowlist, direct, viaProxy);
    }
    std::printf("}\n");
    return 0;
}
