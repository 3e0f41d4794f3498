#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
# SPDX-FileCopyrightText: Redrive authors
"""CTest smoke test of redrive-writerbench (the ingest benchmark's storage ceiling): bad flags and
a bad config are refused with exit 2 and a message; a one-second run on SQLite commits events,
reports no failure, and the database holds exactly the events it reported committed."""

import json
import os
import sqlite3
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import benchlib as bl  # noqa: E402


def run(binary, *args):
    return subprocess.run([binary, *args], capture_output=True, text=True, timeout=60)


def main():
    binary = sys.argv[1]
    failures = []

    def check(condition, what):
        if not condition:
            failures.append(what)

    with tempfile.TemporaryDirectory(prefix="redrive-writerbench-") as work:
        db = os.path.join(work, "ceiling.db")
        config = os.path.join(work, "ceiling.toml")
        bl.write_private(config, bl.INGEST_CONFIG.format(port=bl.free_port(), url="sqlite://" + db))

        for bad in (["--config", config, "--seconds", "1", "--inflight", "0"],
                    ["--config", config, "--seconds", "x"],
                    ["--config", config, "--seconds", "inf"],
                    ["--config", config, "--id-style", "sequential"],
                    ["--seconds", "1"],
                    ["--config", config, "--seconds"]):
            r = run(binary, *bad)
            check(r.returncode == 2 and "usage:" in r.stderr, f"{bad}: exit {r.returncode}, stderr {r.stderr!r}")
        r = run(binary, "--config", os.path.join(work, "missing.toml"), "--seconds", "1")
        check(r.returncode == 2 and "missing.toml" in r.stderr, f"missing config: exit {r.returncode}, {r.stderr!r}")
        check(not os.path.exists(db), "a refused run must not create the database")

        r = run(binary, "--config", config, "--seconds", "1", "--inflight", "16", "--id-style", "uuid")
        check(r.returncode == 0 and r.stdout.strip(), f"run: exit {r.returncode}, stderr {r.stderr!r}")
        if r.returncode == 0 and r.stdout.strip():
            result = json.loads(r.stdout.strip().splitlines()[-1])
            check(result["ok"] > 0 and result["failed"] == 0, f"result {result}")
            check(result["commits"] >= 1 and result["mean_batch"] <= 16, f"batches {result}")
            conn = sqlite3.connect(db)
            stored = conn.execute("SELECT COUNT(*) FROM events WHERE source = 'bench'").fetchone()[0]
            distinct = conn.execute("SELECT COUNT(DISTINCT provider_event_id) FROM events").fetchone()[0]
            integrity = conn.execute("PRAGMA integrity_check").fetchone()[0]
            conn.close()
            check(stored == result["ok"] == distinct, f"stored {stored}, distinct {distinct}, reported {result['ok']}")
            check(integrity == "ok", f"integrity_check: {integrity}")

    for f in failures:
        print("FAIL:", f)
    print(f"check_writerbench: {'FAILED' if failures else 'passed'}")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
