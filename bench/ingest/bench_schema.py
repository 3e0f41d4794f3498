#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
# SPDX-FileCopyrightText: Redrive authors
"""Schema validation at ingest (issue 30): acknowledged events/s of redrived with a JSON Schema
on every event against the same receiver without one, interleaved in one run (none, schema,
schema, none, …: every other round runs the schema first), a fresh database for every run, on
each engine of --engines. The schema checks what the load generator's body carries (action,
delivery id, repository, sender, with types, a pattern and nested required fields), so every
event is parsed and validated and passes. Besides events/s each run reports the receiver's CPU
time per acknowledged event (user + system, from /proc). The target (>= 0.9) is on the median of
the per-round ratios; the ratio of the medians is printed next to it."""

import argparse
import json
import os
import sqlite3
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import benchlib as bl  # noqa: E402

SCHEMA = {
    "type": "object",
    "required": ["action", "delivery", "repository", "sender"],
    "properties": {
        "action": {"enum": ["opened", "closed", "synchronize"]},
        "delivery": {"type": "string", "minLength": 1},
        "repository": {"type": "object", "required": ["id", "full_name"],
                       "properties": {"id": {"type": "integer"},
                                      "full_name": {"type": "string", "pattern": "^[^/]+/[^/]+$"}}},
        "sender": {"type": "object", "required": ["login"], "properties": {"login": {"type": "string"}}},
    },
}


def config(port, url, schema, work):
    text = bl.INGEST_CONFIG.format(port=port, url=url)
    if not schema:
        return text
    path = os.path.join(work, "pull_request.json")
    with open(path, "w") as f:
        json.dump(SCHEMA, f)
    rule = f'[[sources.schemas]]\nevent_types = ["*"]\nschema = "{path}"\n'
    return text.replace('secrets = ["bench-secret"]\n', 'secrets = ["bench-secret"]\n' + rule)


def counts(engine, url):
    sql = ("SELECT (SELECT COUNT(*) FROM events), "
           "(SELECT COUNT(*) FROM event_status WHERE status = 'invalid')")
    if engine == "sqlite":
        db = sqlite3.connect(url[len("sqlite://"):])
        row = db.execute(sql).fetchone()
        db.close()
        return row
    out = subprocess.run(["psql", "-qtA", url, "-c", sql], capture_output=True, text=True, check=True)
    return tuple(int(v) for v in out.stdout.strip().split("|"))


def run(args, engine, pg, schema, tag):
    work = tempfile.mkdtemp(prefix=f"redrive-bench-schema-{tag}-")
    port = bl.free_port()
    url = ("sqlite://" + os.path.join(work, "redrive.db")) if engine == "sqlite" else pg.fresh_database("bench_schema")
    server = bl.Redrived(os.path.join(args.build, "app/redrived/redrived"), config(port, url, schema, work), work)
    try:
        server.wait_ready(port)
        cpu0 = bl.proc_cpu_seconds(server.proc.pid)
        result = bl.loadgen(os.path.join(args.build, "bench/loadgen/redrive-loadgen"), port, args.seconds,
                            id_prefix=f"{tag}-")
        cpu = bl.proc_cpu_seconds(server.proc.pid) - cpu0
    finally:
        server.stop()
    events, invalid = counts(engine, url)
    if result["errors"] or invalid or events < result["ok"]:
        raise RuntimeError(f"{tag}: {result['errors']} errors, {invalid} invalid of {events} events")
    return result["ok_per_second"], 1e6 * cpu / max(1, result["ok"])


def main():
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--build", default=os.path.join(bl.ROOT, "build", "ci"))
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--seconds", type=float, default=8)
    ap.add_argument("--engines", default="sqlite,postgres")
    args = ap.parse_args()
    engines = [e for e in args.engines.split(",") if e]
    pg = bl.Postgres() if "postgres" in engines else None
    ok = True
    try:
        for engine in engines:
            rows = []
            for r in range(args.rounds):
                measured = {}
                for schema in ((False, True) if r % 2 == 0 else (True, False)):
                    measured[schema] = run(args, engine, pg, schema, f"{engine}-r{r}-{'schema' if schema else 'none'}")
                (none, none_cpu), (three, three_cpu) = measured[False], measured[True]
                rows.append({"engine": engine, "none": none, "schema": three, "ratio": three / none,
                             "cpu_us_per_event_none": round(none_cpu, 1), "cpu_us_per_event_schema": round(three_cpu, 1),
                             "cpu_ratio": three_cpu / none_cpu})
                print(json.dumps(rows[-1]), flush=True)
            summary = {"engine": engine, "rounds": rows, "median_ratio": bl.median([row["ratio"] for row in rows]),
                       "ratio_of_medians": bl.median([row["schema"] for row in rows])
                       / bl.median([row["none"] for row in rows]),
                       "median_cpu_ratio": bl.median([row["cpu_ratio"] for row in rows]),
                       "load_average": os.getloadavg()[0]}
            print(json.dumps(summary), flush=True)
            ok = ok and summary["median_ratio"] >= 0.9
    finally:
        if pg:
            pg.stop()
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
