// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#include "daemonprocess.h"

#include "rawhttp.h"

#include <QDeadlineTimer>
#include <QTcpServer>
#include <QThread>

#include <memory>
#include <vector>

namespace redrive::test {

QString redrivedPath()
{
    return qEnvironmentVariable("REDRIVE_BINARY_DIR") + QStringLiteral("/app/redrived/redrived");
}

quint16 freePort()
{
    const QList<quint16> ports = freePorts(1);
    return ports.isEmpty() ? 0 : ports.front();
}

QList<quint16> freePorts(int count)
{
    // Every probe stays bound until all are chosen, so the kernel cannot hand the same port out
    // twice; two ports taken one after the other could coincide.
    std::vector<std::unique_ptr<QTcpServer>> probes;
    QList<quint16> ports;
    for (int i = 0; i < count; ++i) {
        auto probe = std::make_unique<QTcpServer>();
        if (!probe->listen(QHostAddress::LocalHost, 0))
            return {};
        ports.append(probe->serverPort());
        probes.push_back(std::move(probe));
    }
    return ports;
}

int runRedrived(const QStringList &args, QByteArray *out, QByteArray *err, int timeoutMs)
{
    QProcess p;
    p.start(redrivedPath(), args);
    if (!p.waitForFinished(timeoutMs)) {
        p.kill();
        p.waitForFinished(5'000);
        return -1;
    }
    if (out)
        *out = p.readAllStandardOutput();
    if (err)
        *err = p.readAllStandardError();
    return p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1;
}

bool waitHealthy(QProcess &process, quint16 port, int timeoutMs)
{
    QDeadlineTimer deadline(timeoutMs);
    while (!deadline.hasExpired()) {
        if (process.state() == QProcess::NotRunning)
            return false;
        RawConnection c;
        if (c.connect(port, 500) && c.send(buildRequest("GET", "/healthz", {}, {}))) {
            if (auto r = c.readResponse(1'000); r && r->status == 200)
                return true;
        }
        process.waitForFinished(20); // a bounded pause that also notices an early exit
    }
    return false;
}

} // namespace redrive::test
