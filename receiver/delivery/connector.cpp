// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#include "connector.h"

namespace redrive::delivery {
namespace {

class SystemConnector final : public Connector {
public:
    void asyncResolve(boost::asio::io_context &io, const std::string &host, unsigned short port,
        ResolveHandler handler) override
    {
        auto resolver = std::make_shared<boost::asio::ip::tcp::resolver>(io);
        resolver->async_resolve(host, std::to_string(port),
            [resolver, handler = std::move(handler)](
                boost::system::error_code ec, const boost::asio::ip::tcp::resolver::results_type &results) {
                std::vector<boost::asio::ip::address> addresses;
                if (!ec) {
                    for (const auto &entry : results)
                        addresses.push_back(entry.endpoint().address());
                }
                handler(ec, std::move(addresses));
            });
    }

    void asyncConnect(boost::asio::ip::tcp::socket &socket, const boost::asio::ip::tcp::endpoint &endpoint,
        ConnectHandler handler) override
    {
        socket.async_connect(endpoint, std::move(handler));
    }
};

} // namespace

std::shared_ptr<Connector> makeSystemConnector()
{
    return std::make_shared<SystemConnector>();
}

QHostAddress toQHostAddress(const boost::asio::ip::address &address)
{
    if (address.is_v4())
        return QHostAddress(address.to_v4().to_uint());
    const auto bytes = address.to_v6().to_bytes();
    Q_IPV6ADDR raw;
    for (int i = 0; i < 16; ++i)
        raw[i] = bytes[static_cast<std::size_t>(i)];
    return QHostAddress(raw);
}

} // namespace redrive::delivery
