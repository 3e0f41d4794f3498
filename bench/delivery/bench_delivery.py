#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
# SPDX-FileCopyrightText: Redrive authors
"""Delivery benchmark (issue 3).

drain mode (default): ingest runs closed-loop at its maximum while the delivery engine sends every
event to a fast loopback sink (nginx). The database is sampled every second; the drain ratio is
deliveries succeeded / events ingested over the measurement window, and the backlog (pending +
retrying + in_flight) must not grow. Also reported: the ingest maximum of the same build with
delivery switched off (measured in the same run), the drain rate alone once the load stops, the
time to drain, and receive->first attempt p50/p99 from the database. Afterwards every
acknowledged event must have exactly one succeeded delivery, and the sink must have seen each
delivery's Idempotency-Key exactly once.

soak mode (--soak): the destination answers 500, ingest runs open-loop at a moderate rate, a short
retry schedule makes retries and dead letters churn; redrived's RSS is sampled every 10 s.
"""

import argparse
import json
import os
import shutil
import signal
import sqlite3
import subprocess
import sys
import tempfile
import threading
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import benchlib as bl  # noqa: E402

# A fixed Standard Webhooks key (32 bytes, base64) so every attempt is signed as in production.
SIGNING_SECRET = "whsec_AQIDBAUGBwgJCgsMDQ4PEBESExQVFhcYGRobHB0eHyA="

CONFIG = bl.RECEIVER_CONFIG + """
[delivery]
enabled = {delivery}
max_in_flight = {max_in_flight}

[[destinations]]
name = "sink"
url = "http://127.0.0.1:{sink_port}{sink_path}"
timeout_ms = 10000
concurrency = {concurrency}
max_attempts = {max_attempts}
{schedule}
allow_private = true
success_ref = "json:/id"
signing_secret = "{signing}"

[[routes]]
source = "bench"
destinations = ["sink"]
"""


class Sink(bl.Nginx):
    """nginx as the destination: /ok answers 200 with a JSON id (exercises success_ref) and logs
    each request's Idempotency-Key (buffered), /fail answers 500. stop() keeps the hit log for
    hit_counts(); remove() deletes it."""

    def __init__(self, workers=1, keepalive=True):
        def server(directory):
            return f"""location = /ok {{
      access_log {directory}/hits.log hits buffer=256k flush=1s;
      default_type application/json;
      return 200 '{{"id":"ref-$request_id"}}';
    }}
    location = /fail {{ default_type application/json; return 500 '{{"error":"bench"}}'; }}
    location / {{ return 200 "ok"; }}"""
        super().__init__(workers=workers, keepalive=keepalive, http="log_format hits '$http_idempotency_key';",
                         server=server, prefix="sink")
        self.hits = os.path.join(self.dir, "hits.log")

    def hit_counts(self):
        counts = {}
        if os.path.exists(self.hits):
            with open(self.hits) as f:
                for line in f:
                    key = line.strip()
                    if key:
                        counts[key] = counts.get(key, 0) + 1
        return counts

    def stop(self, remove=False):
        super().stop(remove=remove)


class Sql:
    """Small read-only queries against the benchmark database from outside redrived: sqlite3 on the
    WAL file, or one long-lived psql process for PostgreSQL (no per-sample process start)."""

    def __init__(self, engine, url):
        self.engine = engine
        self.lock = threading.Lock()  # the sampler thread and the main thread share it
        if engine == "sqlite":
            self.db = sqlite3.connect(f"file:{url[len('sqlite://'):]}?mode=ro", uri=True, timeout=30,
                                      check_same_thread=False)
        else:
            self.url = url
            self.proc = subprocess.Popen(["psql", "-qtAX", "-F", "|", url], stdin=subprocess.PIPE,
                                         stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True, bufsize=1)

    def rows(self, sql):
        with self.lock:
            return self._rows(sql)

    def _rows(self, sql):
        if self.engine == "sqlite":
            return [tuple(r) for r in self.db.execute(sql).fetchall()]
        self.proc.stdin.write(sql.rstrip(";") + ";\n\\echo __end__\n")
        self.proc.stdin.flush()
        out = []
        for line in self.proc.stdout:
            line = line.rstrip("\n")
            if line == "__end__":
                break
            if line:
                out.append(tuple(int(v) if v.lstrip("-").isdigit() else v for v in line.split("|")))
        return out

    def dump(self, sql):
        """Many rows, one integer column (for percentiles)."""
        if self.engine == "sqlite":
            return [r[0] for r in self.db.execute(sql)]
        out = subprocess.run(["psql", "-qtAX", self.url, "-c", sql], capture_output=True, text=True, check=True)
        return [int(v) for v in out.stdout.split()]

    def close(self):
        if self.engine == "sqlite":
            self.db.close()
        else:
            self.proc.stdin.close()
            self.proc.wait(10)


SAMPLE_SQL = ("SELECT (SELECT COALESCE(MAX(id), 0) FROM events), (SELECT COALESCE(MAX(id), 0) FROM deliveries), "
              "(SELECT COUNT(*) FROM deliveries WHERE status IN ('pending', 'retrying', 'in_flight')), "
              "(SELECT COUNT(*) FROM deliveries WHERE status = 'dead')")


class Sampler(threading.Thread):
    """Every `interval` s: events ingested, deliveries created, backlog, dead (ids are dense in a
    benchmark run: no duplicates, no rollbacks), plus redrived's RSS."""

    def __init__(self, sql, pid, interval=1.0):
        super().__init__(daemon=True)
        self.sql, self.pid, self.interval = sql, pid, interval
        self.samples = []
        self.stopping = threading.Event()

    def sample(self):
        events, created, backlog, dead = self.sql.rows(SAMPLE_SQL)[0]
        s = {"t": time.monotonic(), "events": events, "created": created, "backlog": backlog, "dead": dead,
             "succeeded": created - backlog - dead, "rss_kib": bl.proc_rss_kib(self.pid)}
        self.samples.append(s)
        return s

    def run(self):
        next_at = time.monotonic()
        while not self.stopping.is_set():
            self.sample()
            next_at += self.interval
            self.stopping.wait(max(0.0, next_at - time.monotonic()))

    def stop(self):
        self.stopping.set()
        self.join()


# Servers started by this run, stopped on any exit (also SIGTERM), newest first.
RUNNING = []


def started(server):
    RUNNING.append(server)
    return server


def stopped(server):
    server.stop()
    if server in RUNNING:
        RUNNING.remove(server)


def stop_all():
    while RUNNING:
        server = RUNNING.pop()
        try:
            server.stop()
        except Exception as e:  # noqa: BLE001 - keep stopping the others
            print(f"bench_delivery: stopping {server!r} failed: {e}", file=sys.stderr)


def percentile(sorted_values, p):
    if not sorted_values:
        return float("nan")
    return sorted_values[min(len(sorted_values) - 1, int(p * len(sorted_values)))]


def slope(points):
    """Least-squares slope of (t, v) points."""
    if len(points) < 2:
        return 0.0
    n = len(points)
    mt = sum(t for t, _ in points) / n
    mv = sum(v for _, v in points) / n
    den = sum((t - mt) ** 2 for t, _ in points)
    return sum((t - mt) * (v - mv) for t, v in points) / den if den else 0.0


def config_text(args, port, url, sink, delivery=True, path="/ok", max_attempts=8, schedule=""):
    text = CONFIG.format(port=port, url=url, delivery="true" if delivery else "false", sink_port=sink.port,
                         sink_path=path, concurrency=args.concurrency, max_in_flight=args.max_in_flight,
                         max_attempts=max_attempts, schedule=schedule, signing=SIGNING_SECRET)
    if args.writer_connections and not url.startswith("sqlite:"):
        text = text.replace("batch_max = 512\n",
                            f"batch_max = 512\nwriter_connections = {args.writer_connections}\n", 1)
    return text


def fresh_url(engine, work, pg, name):
    if engine == "sqlite":
        return "sqlite://" + os.path.join(work, f"{name}.db")
    return pg.fresh_database(name)


def ingest_only(engine, args, binaries, sink, pg):
    """The ingest maximum of this build with delivery switched off, for comparison."""
    work = tempfile.mkdtemp(prefix=f"redrive-bench-delivery-ingest-{engine}-")
    port = bl.free_port()
    url = fresh_url(engine, work, pg, "bench_delivery_ingest")
    server = started(bl.Redrived(binaries["redrived"], config_text(args, port, url, sink, delivery=False), work))
    server.wait_ready(port)
    r = bl.loadgen(binaries["loadgen"], port, args.seconds, connections=args.connections,
                   id_prefix=f"{engine}-alone-")
    stopped(server)
    shutil.rmtree(work, ignore_errors=True)
    return r["ok_per_second"]


def check_ledger(sql, ack_log, sink_hits):
    with open(ack_log) as f:
        acked = sorted({line.strip() for line in f if line.strip()})
    rows = sql.rows("SELECT e.provider_event_id, d.status, d.idempotency_key, "
                    "(SELECT COUNT(*) FROM attempts a WHERE a.delivery_id = d.id AND a.status_code = 200), "
                    "COALESCE(d.downstream_ref, '') "
                    "FROM events e LEFT JOIN deliveries d ON d.event_id = e.id WHERE e.source = 'bench'")
    by_event = {}
    for provider_id, status, key, ok_attempts, ref in rows:
        by_event.setdefault(provider_id, []).append((status, key, ok_attempts, ref))
    missing = not_succeeded = double_success = no_ref = sink_missing = sink_duplicate = 0
    for i in acked:
        ds = by_event.get(i)
        if not ds:
            missing += 1
            continue
        succeeded = [d for d in ds if d[0] == "succeeded"]
        if len(succeeded) != 1 or len(ds) != 1:
            not_succeeded += 1
            continue
        _, key, ok_attempts, ref = succeeded[0]
        if ok_attempts != 1:
            double_success += 1
        if not str(ref).startswith("ref-"):
            no_ref += 1
        hits = sink_hits.get(key, 0)
        if hits == 0:
            sink_missing += 1
        elif hits > 1:
            sink_duplicate += 1
    return {"acknowledged": len(acked), "events_in_db": len(by_event), "missing": missing,
            "without_one_succeeded_delivery": not_succeeded, "succeeded_attempts_not_one": double_success,
            "without_downstream_ref": no_ref, "sink_never_saw": sink_missing, "sink_saw_twice": sink_duplicate,
            "sink_requests": sum(sink_hits.values())}


def drain_run(engine, args, binaries, pg):
    sink = started(Sink(keepalive=not args.sink_close))
    alone = ingest_only(engine, args, binaries, sink, pg) if args.ingest_baseline else None
    if alone:
        print(f"  {engine}: ingest alone (delivery off) {alone:.0f}/s", flush=True)
    work = tempfile.mkdtemp(prefix=f"redrive-bench-delivery-{engine}-")
    port = bl.free_port()
    url = fresh_url(engine, work, pg, "bench_delivery")
    # --ingest-only: the receiver taking the traffic delivers nothing; the --extra-engines
    # receivers deliver what it commits (they hear of it by NOTIFY or at their poll).
    server = started(bl.Redrived(binaries["redrived"],
                                 config_text(args, port, url, sink, delivery=not args.ingest_only), work))
    server.wait_ready(port)
    # More redrived processes on the same database, taking no ingest traffic: their delivery
    # engines share the backlog (PostgreSQL SKIP LOCKED), as several receivers would.
    helpers = []
    for n in range(args.extra_engines):
        hdir = os.path.join(work, f"engine-{n + 1}")
        os.makedirs(hdir)
        hport = bl.free_port()
        helper = started(bl.Redrived(binaries["redrived"], config_text(args, hport, url, sink), hdir))
        helper.wait_ready(hport)
        helpers.append(helper)
    sql = Sql(engine, url)
    sampler = Sampler(sql, server.proc.pid)
    ack = os.path.join(work, "acked.txt")
    load0 = os.getloadavg()
    sampler.start()
    t_load0 = time.monotonic()
    gen = bl.loadgen(binaries["loadgen"], port, args.seconds, connections=args.connections, ack_log=ack,
                     id_prefix=f"{engine}-drain-", rate=args.rate)
    t_load1 = time.monotonic()
    load1 = os.getloadavg()
    # After the load: how long until the backlog is empty, and how fast the engine drains alone.
    drained_at = None
    deadline = time.monotonic() + args.drain_timeout
    while time.monotonic() < deadline:
        time.sleep(0.2)
        if sampler.samples and sampler.samples[-1]["t"] > t_load1 and sampler.samples[-1]["backlog"] == 0:
            drained_at = sampler.samples[-1]["t"]
            break
    sampler.stop()
    samples = sampler.samples

    window = [s for s in samples if t_load0 + args.warmup <= s["t"] <= t_load1]
    if len(window) < 2:
        window = [s for s in samples if s["t"] <= t_load1][-2:]
    w0, w1 = window[0], window[-1]
    span = w1["t"] - w0["t"]
    ingested = w1["events"] - w0["events"]
    delivered = w1["succeeded"] - w0["succeeded"]
    after = [s for s in samples if s["t"] > t_load1]
    alone_drain = None
    if len(after) >= 2 and after[0]["backlog"] > 0:
        end = next((s for s in after if s["backlog"] == 0), after[-1])
        if end["t"] > after[0]["t"]:
            alone_drain = (end["succeeded"] - after[0]["succeeded"]) / (end["t"] - after[0]["t"])

    # Receive -> first attempt, for events received inside the window (wall-clock ms in the DB).
    lat = sorted(sql.dump("SELECT a.started_at - e.received_at FROM attempts a JOIN deliveries d ON d.id = a.delivery_id "
                          "JOIN events e ON e.id = d.event_id WHERE a.number = 1 AND e.id > %d AND e.id <= %d"
                          % (w0["events"], w1["events"])))
    for helper in helpers:
        stopped(helper)
    stopped(server)
    stopped(sink)
    ledger = check_ledger(sql, ack, sink.hit_counts())
    sql.close()
    sink.remove()
    result = {
        "engine": engine,
        "seconds": args.seconds, "connections": args.connections, "concurrency": args.concurrency,
        "rate": args.rate,
        "redrived_processes": 1 + args.extra_engines, "sink_keepalive": not args.sink_close,
        "ingest_only": args.ingest_only,
        "ingest_alone_eps": alone,
        "loadgen": {"ok_per_second": gen["ok_per_second"], "p50_ms": gen["p50_ms"], "p99_ms": gen["p99_ms"],
                    "errors": gen["errors"], "statuses": gen["statuses"]},
        "window_s": span,
        "ingest_eps": ingested / span if span else float("nan"),
        "drain_dps": delivered / span if span else float("nan"),
        "drain_ratio": delivered / ingested if ingested else float("nan"),
        "backlog_start": w0["backlog"], "backlog_end": w1["backlog"],
        "backlog_max": max(s["backlog"] for s in window),
        "backlog_slope_per_s": slope([(s["t"], s["backlog"]) for s in window]),
        "drain_alone_dps": alone_drain,
        "time_to_drain_s": (drained_at - t_load1) if drained_at else None,
        "first_attempt_ms": {"p50": percentile(lat, 0.50), "p99": percentile(lat, 0.99),
                             "max": lat[-1] if lat else float("nan"), "n": len(lat)},
        "rss_kib": {"start": w0["rss_kib"], "end": w1["rss_kib"]},
        "loadavg": {"before": load0, "after": load1},
        "ledger": ledger,
        "samples": [{k: (round(v - t_load0, 2) if k == "t" else v) for k, v in s.items()} for s in samples],
    }
    print(f"  {engine}: ingest {result['ingest_eps']:.0f}/s, drain {result['drain_dps']:.0f}/s "
          f"(x{result['drain_ratio']:.3f}), backlog {w0['backlog']} -> {w1['backlog']} (max {result['backlog_max']}), "
          f"first attempt p50 {result['first_attempt_ms']['p50']} ms p99 {result['first_attempt_ms']['p99']} ms",
          flush=True)
    if not args.keep:
        shutil.rmtree(work, ignore_errors=True)
    return result


def soak_run(engine, args, binaries, pg):
    sink = started(Sink())
    work = tempfile.mkdtemp(prefix=f"redrive-bench-soak-{engine}-")
    port = bl.free_port()
    url = fresh_url(engine, work, pg, "bench_delivery_soak")
    schedule = 'retry_schedule = ["1s", "2s", "4s"]'
    server = started(bl.Redrived(binaries["redrived"], config_text(args, port, url, sink, path="/fail",
                                                                    max_attempts=4, schedule=schedule), work))
    server.wait_ready(port)
    sql = Sql(engine, url)
    sampler = Sampler(sql, server.proc.pid, interval=10.0)
    cmd = [binaries["loadgen"], "--port", str(port), "--seconds", str(args.soak_seconds), "--connections", "16",
           "--path", "/hooks/bench", "--secret", "bench-secret", "--rate", str(args.soak_rate),
           "--id-prefix", f"{engine}-soak-"]
    load0 = os.getloadavg()
    gen = subprocess.Popen(cmd, stdout=subprocess.PIPE, text=True)
    t0 = time.monotonic()
    sampler.start()
    out, _ = gen.communicate()
    load1 = os.getloadavg()
    sampler.stop()
    last = sampler.sample()
    attempts = sql.rows("SELECT COUNT(*) FROM attempts")[0][0]
    stopped(server)
    stopped(sink)
    sql.close()
    sink.remove()
    g = json.loads(out.strip().splitlines()[-1])
    samples = sampler.samples
    warm = [s for s in samples if s["t"] - t0 >= args.soak_warmup] or samples
    result = {
        "engine": engine, "seconds": args.soak_seconds, "rate": args.soak_rate, "warmup_s": args.soak_warmup,
        "events": last["events"], "attempts": attempts, "dead": last["dead"], "backlog_end": last["backlog"],
        "ingest_ok": g["ok"], "ingest_errors": g["errors"],
        "rss_kib": {"start": warm[0]["rss_kib"], "end": warm[-1]["rss_kib"],
                    "max": max(s["rss_kib"] for s in warm), "min": min(s["rss_kib"] for s in warm)},
        "rss_slope_kib_per_min": 60 * slope([(s["t"], s["rss_kib"]) for s in warm]),
        "loadavg": {"before": load0, "after": load1},
        "samples": [{"t": round(s["t"] - t0, 1), "rss_kib": s["rss_kib"], "backlog": s["backlog"],
                     "dead": s["dead"], "events": s["events"]} for s in samples],
    }
    print(f"  {engine} soak: {result['events']} events, {attempts} attempts, {result['dead']} dead; RSS "
          f"{result['rss_kib']['start']} -> {result['rss_kib']['end']} KiB (max {result['rss_kib']['max']})", flush=True)
    if not args.keep:
        shutil.rmtree(work, ignore_errors=True)
    return result


class ExistingPostgres(bl.Postgres):
    """A PostgreSQL the caller runs; only the benchmark's own databases are touched."""

    def __init__(self, url):  # noqa: super().__init__ would start a cluster
        self.url = url

    def stop(self):
        pass


def machine():
    model = ""
    with open("/proc/cpuinfo") as f:
        for line in f:
            if line.startswith("model name"):
                model = line.split(":", 1)[1].strip()
                break
    return {"nproc": os.cpu_count(), "cpu": model}


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--build", default=os.path.join(bl.ROOT, "build", "ci"))
    ap.add_argument("--engines", default="sqlite,postgres")
    ap.add_argument("--seconds", type=float, default=20, help="closed-loop ingest time (drain mode)")
    ap.add_argument("--rate", type=float, default=None,
                    help="drive ingest open-loop at this many events/s instead of closed-loop at its maximum "
                         "(e.g. half the maximum, to measure receive -> first attempt without a backlog)")
    ap.add_argument("--warmup", type=float, default=3, help="seconds of load before the measurement window")
    ap.add_argument("--connections", type=int, default=64)
    ap.add_argument("--concurrency", type=int, default=64, help="the sink destination's concurrency")
    ap.add_argument("--max-in-flight", type=int, default=256)
    ap.add_argument("--drain-timeout", type=float, default=120)
    ap.add_argument("--sink-close", action="store_true",
                    help="the sink closes every connection (no keep-alive): measures the connection pool's worth")
    ap.add_argument("--extra-engines", type=int, default=0,
                    help="more redrived processes on the same database that only deliver (multi-process deployment)")
    ap.add_argument("--ingest-only", action="store_true",
                    help="the receiver taking the traffic does not deliver; the --extra-engines receivers do")
    ap.add_argument("--no-ingest-baseline", dest="ingest_baseline", action="store_false")
    ap.add_argument("--soak", action="store_true", help="memory soak against a failing destination")
    ap.add_argument("--soak-seconds", type=float, default=600)
    ap.add_argument("--soak-rate", type=float, default=200)
    ap.add_argument("--soak-warmup", type=float, default=30)
    ap.add_argument("--postgres-url", default=None,
                    help="use this running PostgreSQL (its databases bench_delivery* are dropped and recreated) "
                         "instead of a throwaway cluster")
    ap.add_argument("--writer-connections", type=int, default=0,
                    help="PostgreSQL receivers' [storage] writer_connections (default: the receiver's own)")
    ap.add_argument("--keep", action="store_true", help="keep the work directories (logs, SQLite files)")
    ap.add_argument("--out", default=None)
    args = ap.parse_args()
    binaries = {"redrived": os.path.join(args.build, "app/redrived/redrived"),
                "loadgen": os.path.join(args.build, "bench/loadgen/redrive-loadgen")}
    for name, path in binaries.items():
        if not os.access(path, os.X_OK):
            sys.exit(f"bench_delivery: {name} not built at {path}")
    if args.ingest_only and args.extra_engines < 1:
        sys.exit("bench_delivery: --ingest-only needs --extra-engines 1 or more")
    engines = [e for e in args.engines.split(",") if e]
    signal.signal(signal.SIGTERM, lambda *_: sys.exit("bench_delivery: terminated"))
    pg = None
    if "postgres" in engines:
        pg = ExistingPostgres(args.postgres_url) if args.postgres_url else bl.Postgres()
    results = []
    try:
        for engine in engines:
            results.append(soak_run(engine, args, binaries, pg) if args.soak else drain_run(engine, args, binaries, pg))
    finally:
        stop_all()
        if pg:
            pg.stop()
    report = {"machine": machine(), "mode": "soak" if args.soak else "drain", "results": results}
    ok = True
    if args.soak:
        print("\n| engine | seconds | rate/s | events | attempts | dead | RSS start (MiB) | RSS end | RSS max | "
              "slope KiB/min |")
        print("|---|---|---|---|---|---|---|---|---|---|")
        for s in results:
            r = s["rss_kib"]
            print(f"| {s['engine']} | {s['seconds']:.0f} | {s['rate']:.0f} | {s['events']} | {s['attempts']} | "
                  f"{s['dead']} | {r['start'] / 1024:.1f} | {r['end'] / 1024:.1f} | {r['max'] / 1024:.1f} | "
                  f"{s['rss_slope_kib_per_min']:.0f} |")
    else:
        print("\n| engine | ingest alone/s | ingest/s (with delivery) | drained/s | drain ÷ ingest (≥1.0) | "
              "backlog start → end (max) | drain alone/s | time to drain | receive→1st attempt p50 / p99 ms | "
              "acked / missing / not 1 success / sink dup |")
        print("|---|---|---|---|---|---|---|---|---|---|")
        for s in results:
            led = s["ledger"]
            alone = f"{s['ingest_alone_eps']:.0f}" if s["ingest_alone_eps"] else "–"
            dr = f"{s['drain_alone_dps']:.0f}" if s["drain_alone_dps"] else "–"
            ttd = f"{s['time_to_drain_s']:.1f} s" if s["time_to_drain_s"] is not None else "not drained"
            print(f"| {s['engine']} | {alone} | {s['ingest_eps']:.0f} | {s['drain_dps']:.0f} | "
                  f"{s['drain_ratio']:.3f} | {s['backlog_start']} → {s['backlog_end']} ({s['backlog_max']}) | {dr} | "
                  f"{ttd} | {s['first_attempt_ms']['p50']} / {s['first_attempt_ms']['p99']} | "
                  f"{led['acknowledged']} / {led['missing']} / {led['without_one_succeeded_delivery']} / "
                  f"{led['sink_saw_twice']} |")
            ok = ok and led["missing"] == 0 and led["without_one_succeeded_delivery"] == 0 \
                and led["sink_never_saw"] == 0 and led["sink_saw_twice"] == 0 and led["succeeded_attempts_not_one"] == 0
    print(f"\nmachine: {report['machine']['nproc']} × {report['machine']['cpu']}")
    if args.out:
        with open(args.out, "w") as f:
            json.dump(report, f, indent=2)
    if not ok:
        sys.exit("bench_delivery: an acknowledged event lacks exactly one succeeded delivery — the run is void")


if __name__ == "__main__":
    main()
