// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#pragma once

#include "domain/consolelink.h"

#include <QObject>
#include <QString>

class QLocalServer;
class QLocalSocket;

namespace redrive::ui {

// The running console's end of redrive:// links: it listens on a local socket of its user's, and
// `redrive LINK` started while it runs hands the link over instead of starting a second console.
// One link per connection: the client writes the link and a newline, the console answers "ok" or
// "error: <why>" and hangs up. Only a well-formed link of at most kMaxLinkBytes is taken; a
// connection that says nothing is dropped after kTimeoutMs.
class LinkServer final : public QObject {
    Q_OBJECT
public:
    static constexpr int kMaxLinkBytes = 4096;
    static constexpr int kTimeoutMs = 3000;

    // REDRIVE_LINK_SOCKET when set (tests use a private name); else "redrive-links" in the user's
    // runtime directory ($XDG_RUNTIME_DIR), or a per-user name in the temporary directory.
    static QString socketName();

    enum class Listen {
        Listening,
        OtherConsole, // another console of this user's listens already and takes the links
        Failed,
    };

    explicit LinkServer(QObject *parent = nullptr);
    ~LinkServer() override;

    // Listens on `name`. A socket left behind by a console that crashed is removed first; one a
    // live console answers on is left alone (OtherConsole). `error` says why on Failed.
    Listen listen(const QString &name, QString *error = nullptr);
    [[nodiscard]] bool isListening() const;
    [[nodiscard]] QString fullServerName() const;

Q_SIGNALS:
    void linkReceived(const redrive::ConsoleLink &link);

private:
    void serve(QLocalSocket *socket);
    void readLink(QLocalSocket *socket);

    QLocalServer *m_server;
};

// What handing a link to a running console came to.
struct HandOver {
    enum class Outcome {
        Delivered, // the running console took it
        NoConsole, // none listens (no socket, or one left by a crashed console)
        Refused, // the console said why not (`message`)
        NoAnswer, // a console is there but did not answer in time
    };
    Outcome outcome = Outcome::NoConsole;
    QString message;
};

// The client: connects to `name`, sends `link` and waits for the answer, each step bounded by
// `timeoutMs`. Blocking; for `redrive LINK` before its event loop runs.
HandOver handLinkToRunningConsole(
    const QString &name, const QString &link, int timeoutMs = LinkServer::kTimeoutMs);

} // namespace redrive::ui
