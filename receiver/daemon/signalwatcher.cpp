// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#include "signalwatcher.h"

#include <QSocketNotifier>

#include <cerrno>
#include <csignal>
#include <cstring>
#include <fcntl.h>
#include <sys/socket.h>
#include <unistd.h>

namespace redrive::daemon {
namespace {

int g_fds[2] = { -1, -1 };

extern "C" void onSignal(int signal)
{
    const int saved = errno;
    const auto byte = static_cast<unsigned char>(signal);
    [[maybe_unused]] const auto n = ::write(g_fds[0], &byte, 1);
    errno = saved;
}

} // namespace

SignalWatcher::SignalWatcher(QObject *parent)
    : QObject(parent)
{ }

SignalWatcher::~SignalWatcher()
{
    if (m_notifier) {
        struct sigaction restore = {};
        restore.sa_handler = SIG_DFL;
        ::sigaction(SIGTERM, &restore, nullptr);
        ::sigaction(SIGINT, &restore, nullptr);
        ::close(g_fds[0]);
        ::close(g_fds[1]);
        g_fds[0] = g_fds[1] = -1;
    }
}

Result<> SignalWatcher::install()
{
    if (::socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, g_fds) != 0)
        return Failure(QStringLiteral("socketpair: %1").arg(QString::fromLocal8Bit(std::strerror(errno))));
    ::fcntl(g_fds[0], F_SETFL, O_NONBLOCK);
    m_notifier = new QSocketNotifier(g_fds[1], QSocketNotifier::Read, this);
    connect(m_notifier, &QSocketNotifier::activated, this, &SignalWatcher::readSignal);
    struct sigaction action = {};
    action.sa_handler = onSignal;
    sigemptyset(&action.sa_mask);
    action.sa_flags = SA_RESTART;
    if (::sigaction(SIGTERM, &action, nullptr) != 0 || ::sigaction(SIGINT, &action, nullptr) != 0)
        return Failure(QStringLiteral("sigaction: %1").arg(QString::fromLocal8Bit(std::strerror(errno))));
    // A broken client connection must never kill the receiver.
    ::signal(SIGPIPE, SIG_IGN);
    return ok();
}

void SignalWatcher::readSignal()
{
    unsigned char byte = 0;
    if (::read(g_fds[1], &byte, 1) == 1)
        Q_EMIT terminationRequested(byte);
}

} // namespace redrive::daemon
