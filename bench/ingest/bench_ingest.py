#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
# SPDX-FileCopyrightText: Redrive authors
"""Ingest benchmark (issue 2): durable acknowledged events/s against nginx and against a raw
append+fdatasync loop, duplicates against new events, the share of the receiver's CPU spent on
signature verification, and open-loop latency at half of the measured maximum — all measured
in one run, interleaved, with every acknowledged event checked in the database afterwards.

Each round also measures the storage ceiling: redrived's own group-commit writer driven
in-process by redrive-writerbench (same configuration, a database of its own, no HTTP). No
receiver on this storage can beat it, so "ceiling × nginx" is the most the engine leaves room
for on this machine, and "redrived ÷ ceiling" is what the HTTP edge and verification cost."""

import argparse
import json
import os
import sqlite3
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import benchlib as bl  # noqa: E402

CONFIG = bl.INGEST_CONFIG  # the receiver of both the end-to-end and the ceiling runs

# Source address allowlists (issue 30): GitHub's and Stripe's published hook ranges and a few
# dozen more, so the check walks a realistic list; the load generator's 127.0.0.1 matches only
# the last range, the most work a request that is let in costs.
ALLOWED_IPS = (["192.30.252.0/22", "185.199.108.0/22", "140.82.112.0/20", "143.55.64.0/20",
                "2a0a:a440::/29", "2606:50c0::/32", "3.18.12.63/32", "3.130.192.231/32",
                "13.235.14.237/32", "13.235.122.149/32", "18.211.135.69/32", "35.154.171.200/32",
                "52.15.183.38/32", "54.88.130.119/32", "54.88.130.237/32", "54.187.174.169/32",
                "54.187.205.235/32", "54.187.216.72/32"]
               + [f"198.51.{i}.0/24" for i in range(20)] + [f"2001:db8:{i:x}::/48" for i in range(10)]
               + ["::1/128", "127.0.0.0/8"])


def with_allowlist(config_text):
    ranges = ", ".join(f'"{r}"' for r in ALLOWED_IPS)
    return config_text.replace('secrets = ["bench-secret"]\n',
                               f'secrets = ["bench-secret"]\nallowed_ips = [{ranges}]\n')


def with_schema(config_text):
    # Schema validation (issue 30): bench_schema.py's schema (required fields at two levels, an
    # enum, types, a minLength and a pattern, all of which the load generator's body passes) on
    # every event of the source.
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    from bench_schema import SCHEMA  # noqa: E402
    path = os.path.join(tempfile.gettempdir(), f"redrive-bench-schema-{os.getpid()}.json")
    with open(path, "w") as f:
        json.dump(SCHEMA, f)
    rule = f'[[sources.schemas]]\nevent_types = ["*"]\nschema = "{path}"\n'
    return config_text.replace('secrets = ["bench-secret"]\n', 'secrets = ["bench-secret"]\n' + rule)


# Named overlays of the receiver's configuration that --variants measures against the plain one.
# Each takes the plain config text and returns the variant's; add one here to benchmark a feature.
# "schema_allowlist" is issue 30's target: both on every event, >= 0.9x the plain receiver.
VARIANTS = {
    "allowlist": with_allowlist,
    "schema": with_schema,
    "schema_allowlist": lambda text: with_allowlist(with_schema(text)),
}


def check_ledger(engine, url, ack_logs):
    ids = []
    for path in ack_logs:
        with open(path) as f:
            ids.extend(line.strip() for line in f if line.strip())
    unique = sorted(set(ids))
    if engine == "sqlite":
        db = sqlite3.connect(url[len("sqlite://"):])
        db.execute("CREATE TEMP TABLE acked (id TEXT PRIMARY KEY)")
        db.executemany("INSERT INTO acked VALUES (?)", ((i,) for i in unique))
        missing = db.execute("SELECT COUNT(*) FROM acked a WHERE NOT EXISTS (SELECT 1 FROM events e "
                             "WHERE e.source = 'bench' AND e.provider_event_id = a.id)").fetchone()[0]
        integrity = db.execute("PRAGMA integrity_check").fetchone()[0]
        db.close()
    else:
        with tempfile.NamedTemporaryFile("w", suffix=".txt", delete=False) as f:
            f.write("\n".join(unique) + "\n")
            listing = f.name
        script = ("CREATE TEMP TABLE acked (id TEXT PRIMARY KEY);\n"
                  f"\\copy acked FROM '{listing}'\n"
                  "SELECT COUNT(*) FROM acked a WHERE NOT EXISTS (SELECT 1 FROM events e "
                  "WHERE e.source = 'bench' AND e.provider_event_id = a.id);\n")
        out = subprocess.run(["psql", "-qtA", url], input=script, capture_output=True, text=True, check=True)
        missing = int(out.stdout.strip().splitlines()[-1])
        integrity = "n/a"
        os.unlink(listing)
    return {"acknowledged": len(unique), "missing": missing, "integrity_check": integrity}


def count_events(engine, url, source):
    sql = f"SELECT COUNT(*) FROM events WHERE source = '{source}'"
    if engine == "sqlite":
        db = sqlite3.connect(url[len("sqlite://"):])
        n = db.execute(sql).fetchone()[0]
        db.close()
        return n
    out = subprocess.run(["psql", "-qtA", url, "-c", sql], capture_output=True, text=True, check=True)
    return int(out.stdout.strip())


def machine():
    model = "unknown"
    with open("/proc/cpuinfo") as f:
        for line in f:
            if line.startswith("model name"):
                model = line.split(":", 1)[1].strip()
                break
    return f"{os.cpu_count()} CPUs, {model}"


def run_engine(engine, args, binaries, nginx, pg):
    load_before = os.getloadavg()[0]
    work = tempfile.mkdtemp(prefix=f"redrive-bench-ingest-{engine}-")
    port = bl.free_port()
    url = ("sqlite://" + os.path.join(work, "redrive.db")) if engine == "sqlite" else pg.fresh_database("bench_ingest")
    server = bl.Redrived(binaries["redrived"], CONFIG.format(port=port, url=url), work, env=args.flush_env)
    ceiling_url = (("sqlite://" + os.path.join(work, "ceiling.db")) if engine == "sqlite"
                   else pg.fresh_database("bench_ceiling"))
    ceiling_config = os.path.join(work, "ceiling.toml")
    bl.write_private(ceiling_config, CONFIG.format(port=bl.free_port(), url=ceiling_url))
    ceiling_ok = 0
    server.wait_ready(port)
    variants = {}  # name → (server, port, url, work dir)
    for name in args.variants:
        vwork = os.path.join(work, name)
        os.mkdir(vwork)
        vport = bl.free_port()
        vurl = (("sqlite://" + os.path.join(vwork, "redrive.db")) if engine == "sqlite"
                else pg.fresh_database(f"bench_{name}"))
        vtext = VARIANTS[name](CONFIG.format(port=vport, url=vurl))
        if vtext == CONFIG.format(port=vport, url=vurl):
            sys.exit(f"bench_ingest: variant {name} changed nothing in the configuration")
        variants[name] = (bl.Redrived(binaries["redrived"], vtext, vwork, env=args.flush_env), vport, vurl)
        variants[name][0].wait_ready(vport)
    # The cost of one verification in isolation: the best of three runs, since other load on the
    # machine can only make a run slower.
    verify_us = min(json.loads(subprocess.run([binaries["verifybench"]], capture_output=True, text=True,
                                              check=True).stdout)["us_per_verify"] for _ in range(3))
    rounds = []
    ack_logs = []
    receivers = [server] + [v[0] for v in variants.values()]
    if variants:
        # Warm-up: every receiver takes the same short load once before anything is measured, so
        # none of them is measured while it still compiles statements, fills caches or grows its
        # pools (the first run of each was otherwise measured cold).
        ack_logs.append(os.path.join(work, "acked-warm.txt"))
        bl.loadgen(binaries["loadgen"], port, WARM_UP_SECONDS, ack_log=ack_logs[-1],
                   id_prefix=f"{engine}-warm-", id_style=args.id_style)
        for name, (_vserver, vport, _vurl) in variants.items():
            bl.loadgen(binaries["loadgen"], vport, WARM_UP_SECONDS, ack_log=variant_ack_log(work, name, "warm"),
                       id_prefix=f"{engine}-{name}-warm-", id_style=args.id_style)
    for r in range(args.rounds):
        ngx = bl.loadgen(binaries["loadgen"], nginx.port, args.seconds, path="/hooks/bench")
        ack = os.path.join(work, f"acked-{r}.txt")
        ack_logs.append(ack)
        # The plain receiver and the variants take turns: round r starts at configuration r of the
        # list and wraps, so each configuration runs in every position equally often across
        # len(variants) + 1 rounds (with one variant: plain first, then variant first, …). Before
        # each run every receiver is idle again (the previous run's checkpoint and flushes done),
        # so no run pays for the one before it.
        order = ["plain"] + list(variants)
        order = order[r % len(order):] + order[:r % len(order)]
        variant_eps = {}
        for name in order:
            settle(receivers, pg)
            if name == "plain":
                cpu0 = bl.proc_cpu_seconds(server.proc.pid)
                new = bl.loadgen(binaries["loadgen"], port, args.seconds, ack_log=ack,
                                 id_prefix=f"{engine}-r{r}-", id_style=args.id_style)
                cpu1 = bl.proc_cpu_seconds(server.proc.pid)
            else:
                variant_eps[name] = measure_variant(name, variants[name], engine, r, args, binaries, work)
        dup = bl.loadgen(binaries["loadgen"], port, args.seconds, mode="dup", id_prefix=f"{engine}-dup-")
        fsync = json.loads(subprocess.run([binaries["fsyncbench"], os.path.join(work, "fsync.tmp"), "3"],
                                          capture_output=True, text=True, check=True,
                                          env={**os.environ, **args.flush_env}).stdout)
        # The ceiling with the receiver's own writer_connections, then (PostgreSQL) with each
        # count of --ceiling-connections, so the rounds show what every extra connection buys.
        by_connections = {}
        for n in [0] + (args.ceiling_connections if engine == "postgres" else []):
            run = json.loads(subprocess.run(
                [binaries["writerbench"], "--config", ceiling_config, "--seconds", str(args.seconds),
                 "--inflight", str(args.ceiling_inflight), "--id-style", args.id_style,
                 "--id-prefix", f"{engine}-c{r}-w{n}-", "--source", "bench", "--connections", str(n)],
                capture_output=True, text=True, check=True, env={**os.environ, **args.flush_env}).stdout)
            ceiling_ok += run["ok"]
            if n == 0:
                ceiling = run
            else:
                by_connections[n] = run["ok_per_second"]
        cpu = cpu1 - cpu0
        rounds.append({
            "nginx_rps": ngx["ok_per_second"], "new_eps": new["ok_per_second"], "dup_eps": dup["ok_per_second"],
            "fsync_ops": fsync["ops_per_second"], "new_errors": new["errors"], "new_statuses": new["statuses"],
            "receiver_cpu_s": cpu, "new_ok": new["ok"], "ceiling_eps": ceiling["ok_per_second"],
            "ceiling_mean_batch": ceiling["mean_batch"], "ceiling_connections": ceiling.get("connections", 1),
            "ceiling_by_connections": by_connections,
            "ceiling_vs_nginx": ceiling["ok_per_second"] / ngx["ok_per_second"],
            "new_vs_ceiling": new["ok_per_second"] / ceiling["ok_per_second"],
            "ratio_vs_nginx": new["ok_per_second"] / ngx["ok_per_second"],
            "ratio_vs_fsync": new["ok_per_second"] / fsync["ops_per_second"],
            "dup_vs_new": dup["ok_per_second"] / new["ok_per_second"],
            "verify_share": (new["ok"] * verify_us / 1e6) / cpu if cpu > 0 else float("nan"),
            # The receiver's CPU time per acknowledged event (user + system) shows a variant's cost
            # even when the storage writer, not the CPU, bounds events/s.
            "variants": {n: {"eps": v, "vs_plain": v / new["ok_per_second"], "cpu_us_per_event": c,
                             "cpu_vs_plain": c / (1e6 * cpu / max(1, new["ok"])) if cpu > 0 else float("nan")}
                         for n, (v, c) in variant_eps.items()},
        })
        print(f"  {engine} round {r + 1}: nginx {ngx['ok_per_second']:.0f}/s, redrived {new['ok_per_second']:.0f}/s "
              f"(x{rounds[-1]['ratio_vs_nginx']:.2f}), dup {dup['ok_per_second']:.0f}/s, "
              f"fsync {fsync['ops_per_second']:.0f}/s, storage ceiling {ceiling['ok_per_second']:.0f}/s "
              f"(x{rounds[-1]['ceiling_vs_nginx']:.2f} nginx, {ceiling.get('connections', 1)} connection(s))"
              + "".join(f", ceiling with {n}: {v:.0f}/s" for n, v in by_connections.items())
              + "".join(f", {n} {v['eps']:.0f}/s (x{v['vs_plain']:.2f} plain, CPU/event x{v['cpu_vs_plain']:.2f})"
                        for n, v in rounds[-1]["variants"].items()), flush=True)
    max_rate = bl.median([r["new_eps"] for r in rounds])
    half = max(100, int(max_rate / 2))
    lat_r = bl.loadgen(binaries["loadgen"], port, args.seconds, rate=half, id_prefix=f"{engine}-lat-",
                       ack_log=os.path.join(work, "acked-lat.txt"), id_style=args.id_style)
    ack_logs.append(os.path.join(work, "acked-lat.txt"))
    lat_n = bl.loadgen(binaries["loadgen"], nginx.port, args.seconds, rate=half)
    server.stop()
    variant_ledgers = {}
    for name, (vserver, _vport, vurl) in variants.items():
        vserver.stop()
        variant_ledgers[name] = check_ledger(engine, vurl, [variant_ack_log(work, name, r)
                                                            for r in ["warm", *range(args.rounds)]])
    ledger = check_ledger(engine, url, ack_logs)
    ledger["ceiling_committed"] = ceiling_ok
    ledger["ceiling_missing"] = ceiling_ok - count_events(engine, ceiling_url, "bench")
    summary = {
        "engine": engine,
        "rounds": rounds,
        "median_ratio_vs_nginx": bl.median([r["ratio_vs_nginx"] for r in rounds]),
        "median_ratio_vs_fsync": bl.median([r["ratio_vs_fsync"] for r in rounds]),
        "median_dup_vs_new": bl.median([r["dup_vs_new"] for r in rounds]),
        "median_verify_share": bl.median([r["verify_share"] for r in rounds]),
        "verify_us": verify_us,
        "median_new_eps": max_rate,
        "median_nginx_rps": bl.median([r["nginx_rps"] for r in rounds]),
        "median_fsync_ops": bl.median([r["fsync_ops"] for r in rounds]),
        "median_ceiling_eps": bl.median([r["ceiling_eps"] for r in rounds]),
        "median_ceiling_vs_nginx": bl.median([r["ceiling_vs_nginx"] for r in rounds]),
        "median_new_vs_ceiling": bl.median([r["new_vs_ceiling"] for r in rounds]),
        "median_ceiling_by_connections": {n: bl.median([r["ceiling_by_connections"][n] for r in rounds])
                                          for n in (rounds[0]["ceiling_by_connections"] if rounds else {})},
        "latency_at_rate": half,
        "redrived_latency_ms": {"p50": lat_r["p50_ms"], "p99": lat_r["p99_ms"], "ok": lat_r["ok"], "sent": lat_r["sent"]},
        "nginx_latency_ms": {"p50": lat_n["p50_ms"], "p99": lat_n["p99_ms"]},
        "ledger": ledger,
        "load_average": [load_before, os.getloadavg()[0]],
        "flush_delay_ms": args.flush_delay_ms,
        "id_style": args.id_style,
        "ceiling_inflight": args.ceiling_inflight,
        "variants": {n: {"median_eps": bl.median([r["variants"][n]["eps"] for r in rounds]),
                         "median_vs_plain": bl.median([r["variants"][n]["vs_plain"] for r in rounds]),
                         "median_cpu_vs_plain": bl.median([r["variants"][n]["cpu_vs_plain"] for r in rounds]),
                         "ledger": variant_ledgers[n]} for n in variants},
    }
    return summary


def variant_ack_log(work, name, r):
    return os.path.join(work, name, f"acked-{r}.txt")


WARM_UP_SECONDS = 2


def settle(receivers, pg, quiet_s=0.3, limit_s=10.0):
    """Waits until no receiver (and, with PostgreSQL, no server process) has used CPU for
    `quiet_s`, at most `limit_s`: the run before leaves WAL checkpoints, flushes and (PostgreSQL)
    autovacuum behind, which would otherwise be charged to whichever run comes next."""
    pids = [s.proc.pid for s in receivers] + (pg.server_pids() if pg else [])
    end = time.monotonic() + limit_s
    last = sum(cpu_or_zero(p) for p in pids)
    while time.monotonic() < end:
        time.sleep(quiet_s)
        now = sum(cpu_or_zero(p) for p in pids)
        if now - last < 0.02:  # under 20 ms of CPU in the interval: idle
            return
        last = now


def cpu_or_zero(pid):
    try:
        return bl.proc_cpu_seconds(pid)
    except OSError:
        return 0.0  # a PostgreSQL backend that has exited


def measure_variant(name, variant, engine, r, args, binaries, work):
    server, vport, _url = variant
    ack = variant_ack_log(work, name, r)
    cpu0 = bl.proc_cpu_seconds(server.proc.pid)
    run = bl.loadgen(binaries["loadgen"], vport, args.seconds, ack_log=ack,
                     id_prefix=f"{engine}-{name}-r{r}-", id_style=args.id_style)
    cpu = bl.proc_cpu_seconds(server.proc.pid) - cpu0
    if run["errors"]:
        sys.exit(f"bench_ingest: variant {name}: {run['errors']} errors, statuses {run['statuses']}")
    return run["ok_per_second"], 1e6 * cpu / max(1, run["ok"])


def main():
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--build", default=os.path.join(bl.ROOT, "build", "ci"))
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--seconds", type=float, default=8)
    ap.add_argument("--engines", default="sqlite,postgres")
    ap.add_argument("--out", default=None)
    ap.add_argument("--id-style", choices=("uuid", "counter"), default="uuid",
                    help="provider event ids of new events: random UUIDs as GitHub sends them (default), "
                         "or a prefix and a counter (near-sequential index inserts; the figures before "
                         "2026-11-30 15:54 used it)")
    ap.add_argument("--flush-delay-ms", type=float, default=0,
                    help="add this much to every fsync/fdatasync of redrived and of the fsync loop "
                         "(LD_PRELOAD of redrive-slowflush): the group commit under a slow disk flush. "
                         "SQLite only — the PostgreSQL server's own flushes are not slowed")
    ap.add_argument("--ceiling-inflight", type=int, default=64,
                    help="events the storage-ceiling run keeps in flight (default 64, as many as the load "
                         "generator's connections; more shows the ceiling with larger group commits)")
    ap.add_argument("--ceiling-connections", default="1,2,4",
                    help="PostgreSQL: also measure the storage ceiling with each of these writer connection "
                         "counts every round (comma-separated; empty for none)")
    ap.add_argument("--variants", default="",
                    help="comma-separated configuration overlays to measure against the plain receiver in the "
                         "same run: " + ", ".join(VARIANTS))
    args = ap.parse_args()
    args.variants = [v for v in args.variants.split(",") if v]
    for v in args.variants:
        if v not in VARIANTS:
            ap.error(f"--variants: unknown variant {v!r} (known: {', '.join(VARIANTS)})")
    try:
        args.ceiling_connections = [int(n) for n in args.ceiling_connections.split(",") if n.strip()]
    except ValueError:
        ap.error("--ceiling-connections must be a comma-separated list of integers")
    if any(not 1 <= n <= 32 for n in args.ceiling_connections):
        ap.error("--ceiling-connections: each count must be between 1 and 32")
    if not 1 <= args.ceiling_inflight <= 100000:
        ap.error("--ceiling-inflight must be between 1 and 100000")
    binaries = {
        "redrived": os.path.join(args.build, "app/redrived/redrived"),
        "loadgen": os.path.join(args.build, "bench/loadgen/redrive-loadgen"),
        "fsyncbench": os.path.join(args.build, "bench/loadgen/redrive-fsyncbench"),
        "verifybench": os.path.join(args.build, "bench/loadgen/redrive-verifybench"),
        "writerbench": os.path.join(args.build, "bench/loadgen/redrive-writerbench"),
    }
    for name, path in binaries.items():
        if not os.access(path, os.X_OK):
            sys.exit(f"bench_ingest: {name} not built at {path}")
    engines = [e for e in args.engines.split(",") if e]
    args.flush_env = {}
    if args.flush_delay_ms > 0:
        if "postgres" in engines:
            sys.exit("bench_ingest: --flush-delay-ms slows redrived's own flushes; use it with --engines sqlite")
        shim = os.path.join(args.build, "bench/loadgen/libredrive-slowflush.so")
        if not os.access(shim, os.R_OK):
            sys.exit(f"bench_ingest: redrive-slowflush not built at {shim}")
        args.flush_env = {"LD_PRELOAD": shim, "REDRIVE_FLUSH_DELAY_US": str(int(args.flush_delay_ms * 1000))}
        print(f"flush delay: +{args.flush_delay_ms} ms on every fsync/fdatasync of redrived and the fsync loop")
    nginx = bl.Nginx()
    pg = bl.Postgres() if "postgres" in engines else None
    results = []
    try:
        for engine in engines:
            results.append(run_engine(engine, args, binaries, nginx, pg))
    finally:
        nginx.stop()
        if pg:
            pg.stop()
    ok = True
    print(f"\nmachine: {machine()}; 1-minute load average before/after each engine: "
          + ", ".join(f"{s['engine']} {s['load_average'][0]:.2f}/{s['load_average'][1]:.2f}" for s in results))
    print("\n| engine | events/s | nginx req/s | × nginx (≥0.30) | × fsync loop (≥4) | dup/new (≥1.0) | "
          "verify share (≤10%) | p50/p99 ms at rate | nginx p50/p99 | acked / missing |")
    print("|---|---|---|---|---|---|---|---|---|---|")
    for s in results:
        print(f"| {s['engine']} | {s['median_new_eps']:.0f} | {s['median_nginx_rps']:.0f} | "
              f"{s['median_ratio_vs_nginx']:.2f} | {s['median_ratio_vs_fsync']:.1f} | {s['median_dup_vs_new']:.2f} | "
              f"{100 * s['median_verify_share']:.1f}% | {s['redrived_latency_ms']['p50']:.2f}/"
              f"{s['redrived_latency_ms']['p99']:.2f} @ {s['latency_at_rate']}/s | "
              f"{s['nginx_latency_ms']['p50']:.2f}/{s['nginx_latency_ms']['p99']:.2f} | "
              f"{s['ledger']['acknowledged']} / {s['ledger']['missing']} |")
        ok = ok and s["ledger"]["missing"] == 0 and s["ledger"]["integrity_check"] in ("ok", "n/a")
        ok = ok and s["ledger"]["ceiling_missing"] == 0
    print("\n| engine | storage ceiling events/s | ceiling × nginx | redrived ÷ ceiling | ceiling committed / missing |")
    print("|---|---|---|---|---|")
    for s in results:
        print(f"| {s['engine']} | {s['median_ceiling_eps']:.0f} | {s['median_ceiling_vs_nginx']:.2f} | "
              f"{s['median_new_vs_ceiling']:.2f} | {s['ledger']['ceiling_committed']} / "
              f"{s['ledger']['ceiling_missing']} |")
    for s in results:
        if s["median_ceiling_by_connections"]:
            print(f"\n{s['engine']} storage ceiling by writer connections (median events/s): "
                  + ", ".join(f"{n}: {v:.0f} (x{v / s['median_nginx_rps']:.2f} nginx)"
                              for n, v in s["median_ceiling_by_connections"].items()))
    if args.variants:
        print("\n| engine | variant | events/s | plain events/s | variant ÷ plain, median of rounds (≥0.90) | "
              "rounds | CPU per event ÷ plain (median) | acked / missing |")
        print("|---|---|---|---|---|---|---|---|")
        for s in results:
            for n, v in s["variants"].items():
                print(f"| {s['engine']} | {n} | {v['median_eps']:.0f} | {s['median_new_eps']:.0f} | "
                      f"{v['median_vs_plain']:.2f} | "
                      + ", ".join(f"{r['variants'][n]['vs_plain']:.2f}" for r in s["rounds"])
                      + f" | {v['median_cpu_vs_plain']:.2f} | {v['ledger']['acknowledged']} / {v['ledger']['missing']} |")
                ok = ok and v["ledger"]["missing"] == 0
    if len(results) == 2:
        sq, pgs = results
        print(f"\npostgres ÷ sqlite (same run, median events/s): {pgs['median_new_eps'] / sq['median_new_eps']:.2f}")
    if args.out:
        with open(args.out, "w") as f:
            json.dump(results, f, indent=2)
    if not ok:
        sys.exit("bench_ingest: an acknowledged event is missing from the database — the run is void")


if __name__ == "__main__":
    main()
