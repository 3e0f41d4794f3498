// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
//
// redrive-fsyncbench FILE SECONDS: the raw durability baseline — append 1 KiB, fdatasync, repeat.
// A receiver that acknowledges each event only after its own fdatasync can never beat this
// rate; group commit is what lets Redrive exceed it.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fcntl.h>
#include <unistd.h>
#include <vector>

int main(int argc, char **argv)
{
    if (argc != 3) {
        std::fprintf(stderr, "usage: redrive-fsyncbench FILE SECONDS\n");
        return 2;
    }
    const double seconds = std::atof(argv[2]);
    const int fd = ::open(argv[1], O_WRONLY | O_CREAT | O_TRUNC | O_APPEND | O_CLOEXEC, 0600);
    if (fd < 0 || seconds <= 0) {
        std::perror("redrive-fsyncbench");
        return 1;
    }
    std::vector<char> block(1024, 'x');
    std::vector<double> latencies;
    using Clock = std::chrono::steady_clock;
    const auto start = Clock::now();
    long long n = 0;
    while (std::chrono::duration<double>(Clock::now() - start).count() < seconds) {
        const auto t0 = Clock::now();
        if (::write(fd, block.data(), block.size()) != static_cast<ssize_t>(block.size())
            || ::fdatasync(fd) != 0) {
            std::perror("redrive-fsyncbench");
            return 1;
        }
        latencies.push_back(std::chrono::duration<double, std::milli>(Clock::now() - t0).count());
        ++n;
    }
    const double elapsed = std::chrono::duration<double>(Clock::now() - start).count();
    ::close(fd);
    ::unlink(argv[1]);
    std::sort(latencies.begin(), latencies.end());
    const auto pct = [&](double p) {
        return latencies[std::min(
            latencies.size() - 1, static_cast<size_t>(p * static_cast<double>(latencies.size())))];
    };
    std::printf("{\"ops\":%lld,\"ops_per_second\":%.1f,\"p50_ms\":%.4f,\"p99_ms\":%.4f}\n", n,
        static_cast<double>(n) / elapsed, pct(0.5), pct(0.99));
    return 0;
}
