// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#include "connectionpool.h"

#include <cerrno>
#include <sys/socket.h>

namespace redrive::delivery {

using Steady = std::chrono::steady_clock;

boost::asio::ip::tcp::socket &Connection::socket()
{
    return tls ? boost::beast::get_lowest_layer(*tls).socket() : plain->socket();
}

void Connection::close()
{
    boost::system::error_code ignored;
    socket().shutdown(boost::asio::ip::tcp::socket::shutdown_both, ignored);
    socket().close(ignored);
}

bool Connection::stillUsable()
{
    if (!socket().is_open())
        return false;
    char byte = 0;
    const ssize_t n = ::recv(socket().native_handle(), &byte, 1, MSG_PEEK | MSG_DONTWAIT);
    return n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK);
}

ConnectionPool::ConnectionPool(boost::asio::io_context &io)
    : m_idleTimer(io)
{ }

std::unique_ptr<Connection> ConnectionPool::checkout(const std::string &key)
{
    auto it = m_idle.find(key);
    if (it == m_idle.end())
        return nullptr;
    const auto now = Steady::now();
    std::unique_ptr<Connection> found;
    while (!it->second.empty() && !found) {
        std::unique_ptr<Connection> c = std::move(it->second.back());
        it->second.pop_back();
        if (now - c->idleSince <= kIdleMax && c->stillUsable())
            found = std::move(c);
        else
            c->close();
    }
    if (it->second.empty())
        m_idle.erase(it);
    return found;
}

void ConnectionPool::checkin(const std::string &key, std::unique_ptr<Connection> connection)
{
    if (m_closing) {
        connection->close();
        return;
    }
    connection->idleSince = Steady::now();
    auto &list = m_idle[key];
    if (list.size() >= kIdlePerOrigin) {
        list.front()->close();
        list.pop_front();
    }
    list.push_back(std::move(connection));
    if (!m_timerRunning)
        armIdleTimer();
}

void ConnectionPool::armIdleTimer()
{
    m_timerRunning = true;
    m_idleTimer.expires_after(std::chrono::seconds(1));
    m_idleTimer.async_wait([this](const boost::system::error_code &ec) {
        m_timerRunning = false;
        if (ec || m_closing)
            return;
        const auto now = Steady::now();
        for (auto it = m_idle.begin(); it != m_idle.end();) {
            auto &list = it->second;
            while (!list.empty() && now - list.front()->idleSince > kIdleMax) {
                list.front()->close();
                list.pop_front();
            }
            it = list.empty() ? m_idle.erase(it) : std::next(it);
        }
        if (!m_idle.empty())
            armIdleTimer();
    });
}

void ConnectionPool::closeAll()
{
    m_closing = true;
    m_idleTimer.cancel();
    for (auto &[key, list] : m_idle) {
        for (auto &c : list)
            c->close();
    }
    m_idle.clear();
}

} // namespace redrive::delivery
