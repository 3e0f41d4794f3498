// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#include "daemonprocess.h"

#include "rawhttp.h"

#include <QDeadlineTimer>
#include <QTcpServer>
#include <QThread>

namespace redrive::test {

QString redrivedPath()
{
    return qEnvironmentVariable("REDRIVE_BINARY_DIR") + QStringLiteral("/app/redrived/redrived");
}

quint16 freePort()
{
    QTcpServer probe;
    if (!probe.listen(QHostAddress::LocalHost, 0))
        return 0;
    return probe.serverPort();
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
