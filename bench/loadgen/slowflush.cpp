// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
// Benchmark aid, never linked into Redrive: an LD_PRELOAD library that makes every fsync() and
// fdatasync() of the process take REDRIVE_FLUSH_DELAY_US microseconds longer, so the ingest
// benchmark can show the group commit under a slow disk flush (this machine's disk has shown 4 ms
// under its neighbours' load) reproducibly. bench/ingest/bench_ingest.py --flush-delay-ms sets it
// for redrived and for the fsync-loop baseline alike.
#include <cerrno>
#include <cstdlib>
#include <ctime>
#include <dlfcn.h>

namespace {

using SyncFn = int (*)(int);

void delay()
{
    static const long us = [] {
        const char *v = std::getenv("REDRIVE_FLUSH_DELAY_US");
        return v ? std::strtol(v, nullptr, 10) : 0L;
    }();
    if (us <= 0)
        return;
    timespec left { us / 1'000'000, (us % 1'000'000) * 1000 };
    while (nanosleep(&left, &left) != 0 && errno == EINTR) { }
}

SyncFn next(const char *name)
{
    return reinterpret_cast<SyncFn>(dlsym(RTLD_NEXT, name));
}

} // namespace

extern "C" int fdatasync(int fd)
{
    static const SyncFn real = next("fdatasync");
    delay();
    return real(fd);
}

extern "C" int fsync(int fd)
{
    static const SyncFn real = next("fsync");
    delay();
    return real(fd);
}
