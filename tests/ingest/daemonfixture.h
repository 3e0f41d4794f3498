// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
// Kept out of the test sources: moc 6.4 does not tokenise raw string literals.
#pragma once

#include <QByteArray>
#include <QString>

namespace redrive::test {

inline const QByteArray kDaemonSecret = "daemon-fixture-secret";

// A runnable redrived configuration: one github source "gh" routed to one destination.
inline QByteArray daemonConfigToml(const QString &storageUrl, quint16 port)
{
    return QByteArray(R"([server]
listen = "127.0.0.1:)")
        + QByteArray::number(port) + R"("
read_timeout = "5s"

[storage]
url = ")"
        + storageUrl.toUtf8() + R"("

[delivery]
enabled = false

[[sources]]
name = "gh"
scheme = "github"
secrets = ["daemon-fixture-secret"]

[[destinations]]
name = "sink"
url = "http://127.0.0.1:9/sink"
allow_private = true

[[routes]]
source = "gh"
destinations = ["sink"]
)";
}

// Broken configurations and the key each error must name.
struct BrokenConfig {
    const char *name;
    const char *toml;
    const char *key;
};
inline const BrokenConfig kBrokenConfigs[] = {
    { "listen not host:port", "[server]\nlisten = \"nope\"\n[storage]\nurl = \"sqlite:///tmp/x.db\"\n",
        "server.listen" },
    { "storage url missing", "[server]\nlisten = \"127.0.0.1:1\"\n[storage]\n", "storage.url" },
    { "unknown key", "[server]\nbogus = 1\n[storage]\nurl = \"sqlite:///tmp/x.db\"\n", "server.bogus" },
    { "log format not text or json",
        "[server]\nlog_format = \"yaml\"\n[storage]\nurl = \"sqlite:///tmp/x.db\"\n", "server.log_format" },
    { "unknown scheme",
        "[storage]\nurl = \"sqlite:///tmp/x.db\"\n[[sources]]\nname = \"a\"\nscheme = \"sha1\"\nsecrets = [\"s\"]\n",
        "sources[0].scheme" },
    { "secret from an unset variable",
        "[storage]\nurl = \"sqlite:///tmp/x.db\"\n[[sources]]\nname = \"a\"\nscheme = \"github\"\n"
        "secrets = [\"env:REDRIVE_TEST_SURELY_UNSET_VARIABLE\"]\n",
        "sources[0].secrets[0]" },
    { "bad url scheme", "[storage]\nurl = \"mysql://x\"\n", "storage.url" },
    { "bad sqlite_synchronous", "[storage]\nurl = \"sqlite:///tmp/x.db\"\nsqlite_synchronous = \"off\"\n",
        "storage.sqlite_synchronous" },
    // A literal secret in a config that fails elsewhere: the message must not echo the secret.
    { "secret never echoed",
        "[storage]\nurl = \"sqlite:///tmp/x.db\"\n[[sources]]\nname = \"a\"\nscheme = \"github\"\n"
        "secrets = [\"TOPSECRET-literal-value\"]\ntolerance_seconds = -5\n",
        "sources[0].tolerance_seconds" },
    { "not TOML", "[server\nlisten = ", "" },
};

} // namespace redrive::test
