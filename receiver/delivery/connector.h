// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#pragma once

// Asio's scheduler trips GCC's -Wnull-dereference inside its own headers.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wnull-dereference"
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/address.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/system/error_code.hpp>
#pragma GCC diagnostic pop

#include <QHostAddress>

#include <functional>
#include <memory>
#include <string>
#include <vector>

// The seam between the HTTP client and the network: name resolution and the TCP connect. The
// SSRF guard is NOT part of it: the client filters every resolved address through
// addressVerdict() between the two steps, whatever Connector is plugged in, so tests can swap
// the resolver (a name whose answer changes between attempts) and watch every connect() call
// without ever sending traffic to a refused address.
namespace redrive::delivery {

class Connector {
public:
    virtual ~Connector() = default;

    using ResolveHandler
        = std::function<void(boost::system::error_code, std::vector<boost::asio::ip::address>)>;
    using ConnectHandler = std::function<void(boost::system::error_code)>;

    // Resolves `host` (never an IP literal: the client handles those itself). The handler runs
    // on `io`'s thread.
    virtual void asyncResolve(
        boost::asio::io_context &io, const std::string &host, unsigned short port, ResolveHandler handler)
        = 0;
    // Connects `socket` to an endpoint the guard has allowed. The handler runs on the socket's
    // executor.
    virtual void asyncConnect(boost::asio::ip::tcp::socket &socket,
        const boost::asio::ip::tcp::endpoint &endpoint, ConnectHandler handler)
        = 0;
};

// The system resolver (getaddrinfo through Asio) and a plain TCP connect.
std::shared_ptr<Connector> makeSystemConnector();

QHostAddress toQHostAddress(const boost::asio::ip::address &address);

} // namespace redrive::delivery
