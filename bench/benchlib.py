# SPDX-License-Identifier: Apache-2.0
# SPDX-FileCopyrightText: Redrive authors
"""Shared plumbing for Redrive's benchmarks: free ports, nginx and PostgreSQL baselines,
starting redrived, running the load generator, and reading process CPU/RSS from /proc.

Every benchmark reports ratios against a baseline measured in the same run on the same machine;
absolute numbers on a shared 2-core VM mean little on their own."""

import json
import os
import shutil
import signal
import socket
import statistics
import subprocess
import tempfile
import time
import urllib.request

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

# The benchmarks' receiver: one GitHub-scheme source (format with port and url). The ingest
# benchmarks add delivery off; the delivery benchmark its sink, route and delivery settings.
RECEIVER_CONFIG = """
[server]
listen = "127.0.0.1:{port}"
max_connections = 4096
write_queue_capacity = 100000

[storage]
url = "{url}"
batch_max = 512

[[sources]]
name = "bench"
scheme = "github"
secrets = ["bench-secret"]
"""
INGEST_CONFIG = RECEIVER_CONFIG + """
[delivery]
enabled = false
"""


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_http(url, deadline_s=30.0, expect=200):
    end = time.monotonic() + deadline_s
    last = None
    while time.monotonic() < end:
        try:
            with urllib.request.urlopen(url, timeout=2) as r:
                if r.status == expect:
                    return
        except Exception as e:  # noqa: BLE001 - any failure means "not yet"
            last = e
        time.sleep(0.05)
    raise RuntimeError(f"{url} did not answer {expect} within {deadline_s}s: {last}")


def proc_cpu_seconds(pid):
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    ticks = os.sysconf("SC_CLK_TCK")
    return (int(fields[11]) + int(fields[12])) / ticks  # utime + stime


def proc_rss_kib(pid):
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    return 0


class Nginx:
    """nginx answering a static 200 to any request (it reads and discards POST bodies). `server`
    replaces the locations of its one server block (a string, or a function of nginx's working
    directory) and `http` adds directives to the http block (the delivery benchmark's sink uses
    both); `keepalive` off closes every connection."""

    def __init__(self, port=None, workers=2, keepalive=True, http="", server=None, prefix="nginx"):
        self.port = port or free_port()
        self.dir = tempfile.mkdtemp(prefix=f"redrive-bench-{prefix}-")
        server = server(self.dir) if callable(server) else server
        server = server or 'location / { return 200 "{\\"ok\\":true}"; }'
        conf = os.path.join(self.dir, "nginx.conf")
        with open(conf, "w") as f:
            f.write(f"""worker_processes {workers};
pid {self.dir}/nginx.pid;
error_log {self.dir}/error.log;
daemon off;
events {{ worker_connections 4096; }}
http {{
  access_log off;
  keepalive_requests 1000000;
  keepalive_timeout {"75s" if keepalive else "0"};
  client_body_temp_path {self.dir}/body;
  client_max_body_size 2m;
  client_body_buffer_size 64k;
  {http}
  server {{
    listen 127.0.0.1:{self.port};
    {server}
  }}
}}
""")
        self.proc = subprocess.Popen(["nginx", "-c", conf, "-p", self.dir], stdout=subprocess.DEVNULL,
                                     stderr=subprocess.DEVNULL)
        wait_http(f"http://127.0.0.1:{self.port}/")

    def stop(self, remove=True):
        self.proc.send_signal(signal.SIGQUIT)  # graceful: flushes buffered access logs
        try:
            self.proc.wait(10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
        if remove:
            self.remove()

    def remove(self):
        shutil.rmtree(self.dir, ignore_errors=True)


class Postgres:
    """A throwaway PostgreSQL 15 cluster from the test harness (real server, fsync on)."""

    def __init__(self):
        self.dir = tempfile.mkdtemp(prefix="redrive-bench-pg-")
        os.chmod(self.dir, 0o755)
        self.data = os.path.join(self.dir, "pg")
        subprocess.run(["bash", os.path.join(ROOT, "tests/support/pg-harness.sh"), "start", self.data],
                       check=True, stdout=subprocess.DEVNULL)
        with open(os.path.join(self.data, "url")) as f:
            self.url = f.read().strip()

    def fresh_database(self, name):
        subprocess.run(["psql", "-q", self.url, "-c", f"DROP DATABASE IF EXISTS {name} WITH (FORCE)"],
                       check=True, stdout=subprocess.DEVNULL)
        subprocess.run(["psql", "-q", self.url, "-c", f"CREATE DATABASE {name}"], check=True,
                       stdout=subprocess.DEVNULL)
        return self.url.rsplit("/", 1)[0] + "/" + name

    def server_pids(self):
        """The postmaster and its current children (backends, checkpointer, autovacuum, …)."""
        try:
            with open(os.path.join(self.data, "data", "postmaster.pid")) as f:
                postmaster = int(f.readline())
            with open(f"/proc/{postmaster}/task/{postmaster}/children") as f:
                return [postmaster] + [int(p) for p in f.read().split()]
        except (OSError, ValueError):
            return []

    def stop(self):
        subprocess.run(["bash", os.path.join(ROOT, "tests/support/pg-harness.sh"), "stop", self.data],
                       check=False, stdout=subprocess.DEVNULL)
        shutil.rmtree(self.dir, ignore_errors=True)


def write_private(path, text):
    """Writes a file only its owner can read: redrived refuses configs other users can read."""
    with open(path, "w", opener=lambda p, flags: os.open(p, flags, 0o600)) as f:
        f.write(text)


class Redrived:
    def __init__(self, binary, config_text, workdir, env=None):
        self.binary = binary
        self.config = os.path.join(workdir, "redrived.toml")
        write_private(self.config, config_text)
        self.log = open(os.path.join(workdir, "redrived.log"), "ab")
        environment = dict(os.environ)
        environment.update(env or {})
        subprocess.run([binary, "--config", self.config, "migrate"], check=True, stdout=self.log,
                       stderr=self.log, env=environment)
        self.proc = subprocess.Popen([binary, "--config", self.config], stdout=self.log, stderr=self.log,
                                     env=environment)

    def wait_ready(self, port):
        wait_http(f"http://127.0.0.1:{port}/readyz")

    def stop(self):
        self.proc.send_signal(signal.SIGTERM)
        try:
            self.proc.wait(60)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
        self.log.close()


def loadgen(binary, port, seconds, connections=64, rate=None, mode="new", path="/hooks/bench",
            secret="bench-secret", ack_log=None, id_prefix=None, body_size=1024, dup_ids=100,
            id_style="counter"):
    cmd = [binary, "--port", str(port), "--seconds", str(seconds), "--connections", str(connections),
           "--path", path, "--secret", secret, "--mode", mode, "--body-size", str(body_size),
           "--dup-ids", str(dup_ids), "--id-style", id_style]
    if rate:
        cmd += ["--rate", str(rate)]
    if ack_log:
        cmd += ["--ack-log", ack_log]
    if id_prefix:
        cmd += ["--id-prefix", id_prefix]
    out = subprocess.run(cmd, check=True, capture_output=True, text=True).stdout
    return json.loads(out.strip().splitlines()[-1])


def median(values):
    return statistics.median(values) if values else float("nan")
