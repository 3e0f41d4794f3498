#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
# SPDX-FileCopyrightText: Redrive authors
"""The shipped alerting rules and Grafana dashboard name only what redrived exposes.

Runs promtool over the rules and their unit tests, then starts the real redrived of this build
(SQLite in a temporary directory, loopback only), gives it one webhook, one refused webhook, a
dead letter and an unauthenticated admin request so that every series the files use exists,
reads GET /metrics from its admin listener, and checks that every metric name and every label
an expression selects or groups by is one the receiver exposes. A renamed metric or label fails
here, before an operator's alert silently stops firing.

usage: check_monitoring.py BUILD_DIR
"""
import hashlib
import hmac
import json
import os
import re
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request

import yaml

SOURCE = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
RULES = os.path.join(SOURCE, "packaging/prometheus/redrive-alerts.yml")
RULE_TESTS = os.path.join(SOURCE, "packaging/prometheus/redrive-alerts.test.yml")
DASHBOARD = os.path.join(SOURCE, "packaging/grafana/redrive-dashboard.json")
# Labels Prometheus adds when it scrapes, and the histogram bucket bound.
SCRAPE_LABELS = {"instance", "job", "le"}
PROMQL_WORDS = {"by", "without", "on", "ignoring", "group_left", "group_right", "bool", "offset"}


def fail(message):
    print("FAIL: " + message)
    sys.exit(1)


def free_ports(n):
    socks = []
    for _ in range(n):
        s = socket.socket()
        s.bind(("127.0.0.1", 0))
        socks.append(s)
    ports = [s.getsockname()[1] for s in socks]
    for s in socks:
        s.close()
    return ports


def get(url, headers=None, data=None):
    request = urllib.request.Request(url, data=data, headers=headers or {})
    try:
        with urllib.request.urlopen(request, timeout=5) as answer:
            return answer.status, answer.read()
    except urllib.error.HTTPError as e:
        return e.code, e.read()


def expressions():
    """(where, expr) for every expression of the rules and the dashboard."""
    out = []
    with open(RULES) as f:
        for group in yaml.safe_load(f)["groups"]:
            for rule in group["rules"]:
                out.append(("rule " + rule.get("alert", rule.get("record", "?")), rule["expr"]))
    with open(DASHBOARD) as f:
        for panel in json.load(f)["panels"]:
            for target in panel.get("targets", []):
                out.append(("panel " + panel["title"], target["expr"]))
    return out


def exposed(text):
    """{family: set(label names)} from the exposition text; histogram series under their family."""
    families = {}
    kinds = {}
    for line in text.splitlines():
        if line.startswith("# TYPE "):
            _, _, name, kind = line.split()
            families.setdefault(name, set())
            kinds[name] = kind
        elif line and not line.startswith("#"):
            m = re.match(r"([a-zA-Z_:][a-zA-Z0-9_:]*)(\{([^}]*)\})?\s", line)
            if not m:
                continue
            name = m.group(1)
            base = re.sub(r"_(bucket|sum|count)$", "", name)
            family = base if kinds.get(base) == "histogram" else name
            labels = set(re.findall(r'([a-zA-Z_][a-zA-Z0-9_]*)="', m.group(3) or ""))
            families.setdefault(family, set()).update(labels)
    return families


def used(expr):
    """(metric names, label names) an expression selects or groups by."""
    names = set(re.findall(r"\b(redrive_[a-z0-9_]+)", expr))
    labels = set()
    for selector in re.findall(r"\{([^}]*)\}", expr):
        labels.update(re.findall(r"([a-zA-Z_][a-zA-Z0-9_]*)\s*(?:=~|!~|!=|=)", selector))
    for grouping in re.findall(r"\b(?:by|without)\s*\(([^)]*)\)", expr):
        labels.update(l.strip() for l in grouping.split(",") if l.strip())
    return names, labels - PROMQL_WORDS


def main():
    if len(sys.argv) != 2:
        fail("usage: check_monitoring.py BUILD_DIR")
    redrived = os.path.join(sys.argv[1], "app/redrived/redrived")
    for args in (["check", "rules", RULES], ["test", "rules", RULE_TESTS]):
        run = subprocess.run(["promtool"] + args, capture_output=True, text=True, cwd=os.path.dirname(RULES))
        if run.returncode != 0:
            fail("promtool %s:\n%s%s" % (" ".join(args), run.stdout, run.stderr))
        print("promtool %s: ok" % " ".join(args[:2]))

    with tempfile.TemporaryDirectory() as tmp:
        ingest, admin, stripe_api = free_ports(3)
        config = os.path.join(tmp, "redrived.toml")
        with open(config, "w") as f:
            f.write(f"""[server]
listen = "127.0.0.1:{ingest}"
admin_listen = "127.0.0.1:{admin}"
[storage]
url = "sqlite://{tmp}/redrive.db"
[[sources]]
name = "gh"
scheme = "github"
secrets = ["monitoring-secret"]
[[sources]]
name = "stripe"
scheme = "stripe"
secrets = ["whsec_monitoring"]
[sources.reconcile]
provider = "stripe"
api_url = "http://127.0.0.1:{stripe_api}"
credential = "sk_test_monitoring"
every = "0"
[[destinations]]
name = "sink"
url = "http://127.0.0.1:9/sink"
allow_private = true
max_attempts = 1
[[routes]]
source = "gh"
destinations = ["sink"]
""")
        os.chmod(config, 0o600)
        migrated = subprocess.run([redrived, "--config", config, "migrate"], capture_output=True, text=True)
        if migrated.returncode != 0:
            fail("redrived migrate: " + migrated.stderr)
        log = open(os.path.join(tmp, "redrived.log"), "w")
        daemon = subprocess.Popen([redrived, "--config", config], stdout=log, stderr=subprocess.STDOUT)
        try:
            deadline = time.monotonic() + 20
            while True:
                try:
                    if get(f"http://127.0.0.1:{ingest}/readyz")[0] == 200:
                        break
                except OSError:
                    pass
                if daemon.poll() is not None or time.monotonic() > deadline:
                    fail("redrived did not become ready:\n" + open(os.path.join(tmp, "redrived.log")).read())
                time.sleep(0.1)
            body = b'{"action":"opened"}'
            signature = "sha256=" + hmac.new(b"monitoring-secret", body, hashlib.sha256).hexdigest()
            for sig in (signature, "sha256=" + "0" * 64):  # one accepted, one refused
                get(f"http://127.0.0.1:{ingest}/hooks/gh", data=body, headers={
                    "Content-Type": "application/json", "X-GitHub-Event": "issues",
                    "X-GitHub-Delivery": "monitoring-1", "X-Hub-Signature-256": sig})
            get(f"http://127.0.0.1:{admin}/admin/v1/whoami")  # 401: an admin response code
            # The delivery to a port nothing listens on becomes a dead letter (max_attempts = 1).
            deadline = time.monotonic() + 30
            while True:
                status, text = get(f"http://127.0.0.1:{admin}/metrics")
                metrics = text.decode()
                if status == 200 and "redrive_deliveries_dead_total{" in metrics \
                        and "redrive_replays_pending_approval" in metrics:
                    break
                if time.monotonic() > deadline:
                    fail("no dead letter and approval gauge within 30 s:\n" + metrics)
                time.sleep(0.2)
        finally:
            daemon.terminate()
            daemon.wait(timeout=20)

    families = exposed(metrics)
    problems = []
    checked = 0
    for where, expr in expressions():
        names, labels = used(expr)
        if not names:
            problems.append(f"{where}: names no redrive_ metric: {expr}")
        for name in names:
            family = re.sub(r"_(bucket|sum|count)$", "", name) if name not in families else name
            if family not in families:
                problems.append(f"{where}: {name} is not a metric redrived exposes")
                continue
            checked += 1
        have = set().union(*(families.get(re.sub(r"_(bucket|sum|count)$", "", n), families.get(n, set()))
                             for n in names)) if names else set()
        for label in sorted(labels - SCRAPE_LABELS - have):
            problems.append(f"{where}: label {label} is not on {', '.join(sorted(names))}")
    if problems:
        fail("\n".join(problems))
    print(f"{checked} metric references in {len(expressions())} expressions, all exposed with their labels")


if __name__ == "__main__":
    main()
