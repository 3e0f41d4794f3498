#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
# SPDX-FileCopyrightText: Redrive authors
"""clang-tidy (.clang-tidy) or clazy (.clazy) over every C++ source of the named rooms, as BUILD_DIR
compiles them. Run through scripts/static-checks.sh; see docs/architecture.md, "Static checks".

Most of a check's cost is the system headers, not Redrive's code: every translation unit parses
Qt, Boost and the standard library again, and the matchers walk all of it (bugprone-reserved-
identifier alone reported, and suppressed, some 30,000 findings in libstdc++ per file, so the
compiler's -Wreserved-identifier does its work now). So the
sources of one target and folder are checked together, concatenated into one "chunk" file: the
headers are paid for once per chunk instead of once per file. Concatenated, not #included, so every
line of every source is in the main file, where main-file-only checks (misc-unused-using-decls,
misc-unused-alias-decls) look. Line numbers are mapped back to the source files. Chunks stay
inside one folder: over core, chunks of 16 files across folders collided so often (27 splits) that
they took 1.9 times the CPU of the folder chunks of 8 (433 s against 232 s).

A chunk is exactly the files' text; what that cannot preserve is handled, never ignored:
  - a chunk that does not compile (two files define the same name in anonymous namespaces) is
    split in halves until it does; a single file runs on its own, as it is built;
  - a finding in a chunk is confirmed by running its file alone, and only a finding the file
    shows alone is reported, so unity-only artefacts (a local shadowing another file's constant)
    never fail a run. A chunk can in principle hide a finding that depends on the file's own
    scope alone (a using-declaration one file declares and a later file of the chunk uses); the
    self-test (--self-test) shows the main-file checks still fire in every position of a chunk.
"""

import argparse
import concurrent.futures
import json
import os
import re
import shlex
import shutil
import subprocess
import sys
import tempfile
import time

ROOMS = ("core", "receiver", "ui", "app")
CHUNK_FILES = 8  # sources per chunk: fewer chunks are cheaper, smaller ones split faster
DIAG = re.compile(r"^(?P<file>[^ :][^:]*):(?P<line>\d+):(?P<col>\d+): (?P<kind>warning|error|note|remark): ")
FINDING = re.compile(r"^[^ ]+:[0-9]+:[0-9]+: (warning|error): ")


def fail(message, code=1):
    print(f"static-checks: {message}", file=sys.stderr)
    sys.exit(code)


class Tool:
    def __init__(self, name, root, build):
        self.name = name
        self.root = root
        self.build = build
        header_filter = f"^{root}/({'|'.join(ROOMS)})/"
        extra = ["--extra-arg=-Wno-unknown-warning-option", "--extra-arg=-Wno-unused-command-line-argument"]
        if name == "tidy":
            exe = shutil.which("clang-tidy-14") or shutil.which("clang-tidy")
            if not exe:
                fail("clang-tidy not found (scripts/install-deps.sh installs package clang-tidy)")
            # --config-file: a chunk lives outside the tree, where .clang-tidy would not be found.
            # -Wreserved-identifier stands in for bugprone-reserved-identifier (see .clang-tidy).
            self.cmd = [exe, "--quiet", f"--config-file={root}/.clang-tidy", f"--header-filter={header_filter}",
                        "--extra-arg=-Wreserved-identifier"] + extra
        else:
            exe = shutil.which("clazy-standalone")
            if not exe:
                fail("clazy-standalone not found (scripts/install-deps.sh installs package clazy)")
            checks = []
            for line in open(os.path.join(root, ".clazy")):
                line = line.split("#", 1)[0].strip()
                if line:
                    checks.append(line)
            if not checks:
                fail(f"{root}/.clazy lists no checks")
            self.cmd = [exe, f"--checks={','.join(checks)}", f"--header-filter={header_filter}",
                        f"--ignore-dirs=^({build}|/usr)/"] + extra + ["--extra-arg=-Werror"]

    def compile_error(self, line):
        """A diagnostic line that says the code did not compile (as opposed to a finding)."""
        if self.name == "tidy":
            return line.endswith("[clang-diagnostic-error]")
        # clazy-standalone: findings and -Werror warnings carry a [-W...] tag; errors of the
        # compiler itself carry none.
        return " error: " in line and "[-W" not in line

    def run(self, db_dir, source):
        start = time.monotonic()
        proc = subprocess.run(self.cmd + ["-p", db_dir, source], stdout=subprocess.PIPE,
                              stderr=subprocess.STDOUT, text=True, errors="replace")
        return proc.returncode, proc.stdout, time.monotonic() - start


def compile_flags(entry):
    """The entry's arguments without the output, the dependency file, the source itself and the
    build's precompiled headers (CMake's `-include …/cmake_pch.hxx`): a check compiles each
    source with only the includes it names, so one that forgets an include fails here even
    though the build, which force-includes the common headers, does not."""
    args = entry.get("arguments") or shlex.split(entry["command"])
    out, skip = [], False
    for i, a in enumerate(args):
        if skip:
            skip = False
            continue
        if a in ("-o", "-c", "-MF", "-MT", "-MQ"):
            skip = True
            continue
        if a == "-include" and i + 1 < len(args) and os.path.basename(args[i + 1]).startswith("cmake_pch"):
            skip = True
            continue
        if a in ("-MD", "-MMD", "-Winvalid-pch"):
            continue
        out.append(a)
    return out


class Chunk:
    def __init__(self, sources, flags, directory):
        self.sources = sources
        self.flags = flags
        self.directory = directory


class Runner:
    def __init__(self, tool, build, root, work, jobs):
        self.tool = tool
        self.build = build
        self.root = root
        self.work = work
        self.jobs = jobs
        self.serial = 0
        self.chunk_runs = 0
        self.file_runs = 0
        self.splits = 0
        self.cpu_seconds = 0.0

    def _new_path(self, suffix):
        self.serial += 1
        return os.path.join(self.work, f"{self.serial}{suffix}")

    def _database(self, entries):
        directory = self._new_path(".db")
        os.makedirs(directory)
        with open(os.path.join(directory, "compile_commands.json"), "w") as f:
            json.dump(entries, f)
        return directory

    def run_file(self, source):
        """One source on its own, with the flags it is built with (see main)."""
        self.file_runs += 1
        rc, out, seconds = self.tool.run(self.build, source)
        self.cpu_seconds += seconds
        return rc, out

    def run_chunk(self, chunk):
        """(findings text, list of sources with findings); splits a chunk that does not compile."""
        if len(chunk.sources) == 1:
            return self.confirmed([chunk.sources[0]])
        path = self._new_path(".cpp")
        spans = []  # (first line, last line, source)
        line = 1
        with open(path, "w") as out:
            for source in chunk.sources:
                text = open(source, encoding="utf-8", errors="surrogateescape").read()
                if not text.endswith("\n"):
                    text += "\n"
                count = text.count("\n")
                out.write(text)
                spans.append((line, line + count - 1, source))
                line += count
        # A source's own quoted includes are found beside it, as when it is compiled alone.
        flags = chunk.flags + ["-iquote", os.path.dirname(chunk.sources[0])]
        db = self._database([{"directory": chunk.directory, "file": path,
                              "arguments": flags + ["-c", path]}])
        self.chunk_runs += 1
        rc, out, seconds = self.tool.run(db, path)
        self.cpu_seconds += seconds
        lines = out.splitlines()
        if any(self.tool.compile_error(l) for l in lines):
            self.splits += 1
            half = len(chunk.sources) // 2
            a, b = Chunk(chunk.sources[:half], chunk.flags, chunk.directory), \
                Chunk(chunk.sources[half:], chunk.flags, chunk.directory)
            return merge(self.run_chunk(a), self.run_chunk(b))
        suspects = set()
        for l in lines:
            m = DIAG.match(l)
            if not m or m.group("kind") not in ("warning", "error"):
                continue
            f = m.group("file")
            if os.path.realpath(f) == os.path.realpath(path):
                suspects.add(source_at(spans, int(m.group("line"))))
            else:
                # A finding in a room's header: confirmed by a file of the chunk that includes it.
                suspects.add(chunk.sources[0] if not suspects else next(iter(suspects)))
        if rc != 0 and not suspects:
            return (f"static-checks: {self.tool.name} failed on a chunk of "
                    f"{', '.join(relative(self.root, s) for s in chunk.sources)} (status {rc}):\n{out}", ["crash"])
        if not suspects:
            return ("", [])
        return self.confirmed(sorted(suspects))

    def confirmed(self, sources):
        texts, bad = [], []
        for source in sources:
            rc, out = self.run_file(source)
            findings = [l for l in out.splitlines() if FINDING.match(l)]
            if findings:
                texts.append(out)
                bad.append(source)
            elif rc != 0:
                texts.append(f"static-checks: {self.tool.name} failed on {relative(self.root, source)} "
                             f"(status {rc}):\n{out}")
                bad.append("crash")
        return ("\n".join(texts), bad)


def merge(a, b):
    return (a[0] + ("\n" if a[0] and b[0] else "") + b[0], a[1] + b[1])


def source_at(spans, line):
    for first, last, source in spans:
        if first <= line <= last:
            return source
    return spans[-1][2]


def relative(root, path):
    return path[len(root) + 1:] if path.startswith(root + "/") else path


def findings_of(text, root):
    """Each diagnostic block once ("file:line:col: warning|error: ..." plus its notes and source
    lines), paths relative to the tree; the same one reached from several files is printed once."""
    seen, order, blocks = set(), [], {}
    key, block = None, []

    def flush():
        nonlocal key, block
        if key is not None and key not in seen:
            seen.add(key)
            order.append(key)
            blocks[key] = block
        key, block = None, []

    for line in text.splitlines():
        if FINDING.match(line):
            flush()
            key, block = line, [line]
            continue
        if re.match(r"^[0-9]+ (warnings?|errors?)( and [0-9]+ (warnings?|errors?))? generated\.$", line) or \
                re.match(r"^Suppressed [0-9]+ warnings|^Use -header-filter|^Error while processing|"
                         r"^Error: |^In file included from ", line):
            flush()
            continue
        if key is not None:
            block.append(line)
    flush()
    out = []
    for k in order:
        out.extend(l.replace(root + "/", "") for l in blocks[k])
    return out, len(order)


def room_sources(build, root, rooms):
    db = json.load(open(os.path.join(build, "compile_commands.json")))
    pattern = re.compile(r"^" + re.escape(root) + r"/(" + "|".join(rooms) + r")/.*\.cpp$")
    missing, entries = set(), {}
    for entry in db:
        path = os.path.realpath(os.path.join(entry["directory"], entry["file"]))
        if not pattern.match(path):
            continue
        flags = compile_flags(entry)
        for a in flags:
            if a.startswith("-I") and "_autogen" in a and not os.path.isdir(a[2:]):
                missing.add(a[2:])
        entries[path] = (flags, entry["directory"])
    if missing:
        fail("build first, autogen headers missing: " + ", ".join(sorted(missing)[:3]))
    return entries


def chunks_of(entries, size):
    """Sources grouped by folder and identical compile flags, in chunks of at most `size`."""
    groups = {}
    for path, (flags, directory) in sorted(entries.items()):
        groups.setdefault((os.path.dirname(path), tuple(flags), directory), []).append(path)
    chunks = []
    for (folder, flags, directory), sources in groups.items():
        n = (len(sources) + size - 1) // size
        per = (len(sources) + n - 1) // n
        for i in range(0, len(sources), per):
            chunks.append(Chunk(sources[i:i + per], list(flags), directory))
    # Biggest first, so the last job to finish is a short one.
    chunks.sort(key=lambda c: -sum(os.path.getsize(s) for s in c.sources))
    return chunks


# Planted findings, one per "// FINDING check" comment. Checked as one chunk of four: probe_a and
# probe_d define the same name, so the chunk does not compile and is split into [a, b] and [c, d],
# which do; each main-file check is then planted in the first and in a later file of a chunk.
PROBE_A = """// Written by static_checks.py --self-test.
#include <string>
#include <utility>
namespace probe {
namespace {
int kShared = 1;
}
using std::pair; // FINDING misc-unused-using-decls
int *nothing() { return kShared > 0 ? 0 : nullptr; } // FINDING modernize-use-nullptr
} // namespace probe
"""
PROBE_B = """// Written by static_checks.py --self-test.
#include <string>
#include <utility>
#include <vector>
namespace probe_b {
using std::pair; // FINDING misc-unused-using-decls
std::size_t total(const std::vector<std::string> &v)
{
    std::size_t n = 0;
    for (const auto &s : v) // its one finding is main-file only, and it is second in its chunk
        n += s.size();
    return n;
}
} // namespace probe_b
"""
PROBE_C = """// Written by static_checks.py --self-test.
#include <utility>
namespace probe_c {
namespace alias = std; // FINDING misc-unused-alias-decls
int answer() { return 42; }
}
"""
PROBE_D = """// Written by static_checks.py --self-test.
#include <utility>
namespace probe {
namespace {
int kShared = 2;
}
namespace other = std; // FINDING misc-unused-alias-decls
int shared() { return kShared; }
} // namespace probe
"""
CLAZY_PROBE = """// Written by static_checks.py --self-test.
#include <QString>
namespace probe_clazy {
QString two(const QString &a, const QString &b)
{
    return QStringLiteral("%1 %2").arg(a).arg(b); // FINDING qstring-arg
}
} // namespace probe_clazy
"""
CLAZY_PROBE_D = """// Written by static_checks.py --self-test.
#include <QByteArray>
namespace probe {
namespace {
int kShared = 2;
}
bool unset() { return kShared > 0 && qgetenv("REDRIVE_PROBE").isEmpty(); } // FINDING qgetenv
} // namespace probe
"""


def self_test(tool, runner, entries, root):
    """The chunked run reports each planted finding at its own file and line, in every position
    of a chunk, and survives a chunk that does not compile."""
    core = [p for p in entries if p.startswith(root + "/core/")]
    if not core:
        fail("self-test: the build compiles no core source to borrow flags from")
    flags, directory = entries[core[0]]
    if tool.name == "tidy":
        probes = {"probe_a.cpp": PROBE_A, "probe_b.cpp": PROBE_B, "probe_c.cpp": PROBE_C, "probe_d.cpp": PROBE_D}
    else:
        probes = {"probe_a.cpp": PROBE_A.replace("// FINDING", "//"), "probe_b.cpp": CLAZY_PROBE,
                  "probe_c.cpp": PROBE_C.replace("// FINDING", "//"), "probe_d.cpp": CLAZY_PROBE_D}
    folder = os.path.join(runner.work, "selftest")
    os.makedirs(folder)
    paths = []
    for name, text in probes.items():
        p = os.path.join(folder, name)
        with open(p, "w") as f:
            f.write(text)
        paths.append(p)
    # A compile database for the probes alone, so a file run finds them too.
    runner.build = runner._database([{"directory": directory, "file": p, "arguments": flags + ["-c", p]}
                                     for p in paths])
    text, _ = runner.run_chunk(Chunk(paths, flags, directory))
    reported, _ = findings_of(text, root)
    expected = []
    for p in paths:
        for n, line in enumerate(open(p), 1):
            if "// FINDING " in line:
                expected.append((relative(root, p), n, line.split("// FINDING ")[1].strip()))
    missing = [e for e in expected
               if not any(r.startswith(f"{e[0]}:{e[1]}:") and e[2] in r for r in reported)]
    extra = [r for r in reported if FINDING.match(r)
             and not any(r.startswith(f"{e[0]}:{e[1]}:") for e in expected)]
    print(f"static-checks: self-test ({tool.name}): {len(expected) - len(missing)} of {len(expected)} "
          f"planted findings reported at their lines, {len(extra)} unexpected; "
          f"{runner.chunk_runs} chunk run(s), {runner.splits} split(s), {runner.file_runs} file run(s)")
    for e in missing:
        print(f"  missing: {e[0]}:{e[1]} {e[2]}")
    for r in extra:
        print(f"  unexpected: {r}")
    return 0 if not missing and not extra and runner.splits > 0 else 1


def main():
    parser = argparse.ArgumentParser(prog="scripts/static-checks.sh")
    parser.add_argument("tool", choices=("tidy", "clazy"))
    parser.add_argument("build")
    parser.add_argument("rooms", nargs="*")
    parser.add_argument("--self-test", action="store_true")
    args = parser.parse_args()
    root = os.path.realpath(os.path.join(os.path.dirname(__file__), ".."))
    if not os.path.isfile(os.path.join(args.build, "compile_commands.json")):
        fail(f"no {args.build}/compile_commands.json (configure with a preset: cmake --preset ci)", 2)
    build = os.path.realpath(args.build)
    for r in args.rooms:
        if r not in ROOMS:
            fail(f"unknown room '{r}' (ROOM: {' '.join(ROOMS)})", 2)
    if not args.rooms and not args.self_test:
        fail("expected at least one room", 2)
    tool = Tool(args.tool, root, build)
    jobs = int(os.environ.get("STATIC_JOBS", os.cpu_count() or 1))
    work = tempfile.mkdtemp(prefix="static-checks.", dir=os.environ.get("TMPDIR", "/tmp"))
    try:
        runner = Runner(tool, build, root, work, jobs)
        if args.self_test:
            return self_test(tool, runner, room_sources(build, root, ("core",)), root)
        entries = room_sources(build, root, args.rooms)
        if not entries:
            fail(f"{build} compiles no source of: {' '.join(args.rooms)} (wrong build or source directory?)")
        # A file run alone gets the same flags as in a chunk, the build's own minus its
        # precompiled headers (compile_flags), not the build's compile database itself.
        runner.build = runner._database([{"directory": d, "file": p, "arguments": flags + ["-c", p]}
                                         for p, (flags, d) in entries.items()])
        chunks = chunks_of(entries, int(os.environ.get("STATIC_CHUNK_FILES", CHUNK_FILES)))
        start = time.monotonic()
        results = []
        with concurrent.futures.ThreadPoolExecutor(max_workers=jobs) as pool:
            for result in pool.map(runner.run_chunk, chunks):
                results.append(result)
        wall = time.monotonic() - start
        text = "\n".join(r[0] for r in results if r[0])
        bad = [b for r in results for b in r[1]]
        crashed = bad.count("crash")
        lines, count = findings_of(text, root)
        if lines:
            print("\n".join(lines))
        for r in results:
            if "crash" in r[1]:
                print(r[0], file=sys.stderr)
        print(f"static-checks: {args.tool} over {len(entries)} files of {' '.join(args.rooms)} in {wall:.0f}s wall "
              f"with {jobs} jobs ({len(chunks)} chunks; {runner.chunk_runs} chunk runs, {runner.splits} splits, "
              f"{runner.file_runs} single-file runs; {runner.cpu_seconds:.0f} s of tool time): "
              f"{count} finding(s)" + (f", {crashed} failure(s)" if crashed else ""))
        return 0 if count == 0 and crashed == 0 else 1
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
