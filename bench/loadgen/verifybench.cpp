// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
//
// redrive-verifybench: the cost of one signature verification as ingest performs it — a GitHub
// request with a 1 KiB body (HMAC-SHA256 over the body, constant-time compare, id and type
// extraction). The ingest benchmark multiplies this by the events it acknowledged and divides by
// the receiver's CPU time, giving the share of the receiver's work spent on signatures.
#include "crypto/crypto.h"
#include "signatures/verifier.h"

#include <chrono>
#include <cstdio>
#include <ctime>

using namespace redrive;

int main()
{
    SourceConfig source;
    source.name = QStringLiteral("bench");
    source.scheme = SchemeKind::GitHub;
    source.secrets = { Secret { QStringLiteral("bench"), QByteArrayLiteral("bench-secret") } };
    QByteArray body
        = R"({"action":"opened","delivery":"x","repository":{"id":1296269,"full_name":"octo/hello"},"pad":")";
    body.append(QByteArray(1024 - body.size() - 2, 'x'));
    body.append("\"}");
    Headers headers;
    headers.add("X-GitHub-Event", "pull_request");
    headers.add("X-GitHub-Delivery", "72d3162e-cc78-11e3-81ab-4c9367dc0958");
    headers.add("X-Hub-Signature-256", "sha256=" + crypto::hmacSha256(source.secrets[0].key, body).toHex());

    const int iterations = 200'000;
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
    for (int i = 0; i < iterations; ++i)
        ok += signatures::verify(source, headers, body, 1'700'000'000).ok() ? 1 : 0;
    const double wallSeconds
        = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    const double seconds = cpuNow() - cpuStart;
    if (ok != iterations) {
        std::fprintf(stderr, "redrive-verifybench: verification failed (%d of %d)\n", ok, iterations);
        return 1;
    }
    std::printf("{\"iterations\":%d,\"us_per_verify\":%.3f,\"wall_us_per_verify\":%.3f}\n", iterations,
        seconds * 1e6 / iterations, wallSeconds * 1e6 / iterations);
    return 0;
}
