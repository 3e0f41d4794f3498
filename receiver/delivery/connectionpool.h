// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#pragma once

// Asio's scheduler trips GCC's -Wnull-dereference inside its own headers.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wnull-dereference"
#include <boost/asio/io_context.hpp>
#include <boost/asio/ssl.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/ssl.hpp>
#pragma GCC diagnostic pop

#include <chrono>
#include <deque>
#include <map>
#include <memory>
#include <string>

// The delivery HTTP client's keep-alive connections. A connection is kept only after a whole,
// in-time answer (the client decides) and is keyed by everything that decided how it was
// opened: scheme, host, port, the address policy (allow_private) and the CA bundle. Its peer
// address passed the SSRF guard when it was connected, so reusing it is as safe as that connect
// was; a different allow_private or ca_file never shares it.
//
// Idle connections live at most kIdleMax — below the 5 s keep-alive timeout of common servers
// (Node.js), so a peer rarely closes one just as a request goes out — and one the peer already
// closed is noticed before use. I/O thread only.
namespace redrive::delivery {

// One TCP (or TLS over TCP) connection. It outlives its exchange when it goes back to the pool.
struct Connection {
    std::unique_ptr<boost::beast::tcp_stream> plain;
    std::unique_ptr<boost::beast::ssl_stream<boost::beast::tcp_stream>> tls;
    std::shared_ptr<boost::asio::ssl::context> tlsContext; // the TLS stream refers to it
    std::chrono::steady_clock::time_point idleSince;

    boost::asio::ip::tcp::socket &socket();
    void close();
    // False when the peer closed the idle connection (EOF), reset it, or sent unsolicited bytes
    // (for TLS typically a close_notify): it cannot carry a request.
    bool stillUsable();
};

class ConnectionPool final {
public:
    static constexpr auto kIdleMax = std::chrono::seconds(4);
    static constexpr std::size_t kIdlePerOrigin = 512; // a burst's surplus is closed

    explicit ConnectionPool(boost::asio::io_context &io);
    ConnectionPool(const ConnectionPool &) = delete;
    ConnectionPool &operator=(const ConnectionPool &) = delete;

    // The most recently used live connection for `key`, or nullptr.
    std::unique_ptr<Connection> checkout(const std::string &key);
    void checkin(const std::string &key, std::unique_ptr<Connection> connection);
    // Closes every idle connection and keeps none from now on (shutdown).
    void closeAll();

private:
    void armIdleTimer();

    std::map<std::string, std::deque<std::unique_ptr<Connection>>> m_idle; // oldest first
    boost::asio::steady_timer m_idleTimer;
    bool m_timerRunning = false;
    bool m_closing = false;
};

} // namespace redrive::delivery
