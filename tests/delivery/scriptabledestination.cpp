// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#include "scriptabledestination.h"

#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wnull-dereference"
#include <boost/asio.hpp>
#include <boost/asio/ssl.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <boost/beast/ssl.hpp>
#pragma GCC diagnostic pop

#include <chrono>
#include <condition_variable>
#include <deque>
#include <mutex>
#include <optional>
#include <set>
#include <sstream>
#include <thread>

namespace redrive::test {

namespace net = boost::asio;
namespace beast = boost::beast;
namespace http = beast::http;
namespace ssl = net::ssl;
using tcp = net::ip::tcp;

class SessionBase {
public:
    virtual ~SessionBase() = default;
    virtual void close() = 0;
};

class ScriptableDestination::Impl {
public:
    net::io_context io;
    std::unique_ptr<tcp::acceptor> acceptor;
    std::thread thread;
    quint16 port = 0;
    bool ipv6 = false;
    mutable std::mutex mutex;
    mutable std::condition_variable cv;
    std::deque<Response> script;
    Response fallback;
    QList<Request> seen;
    int active = 0;
    int maxActive = 0;
    int connections = 0;
    std::set<std::shared_ptr<SessionBase>> sessions; // I/O thread only
    std::unique_ptr<ssl::context> tls;

    Response next()
    {
        std::lock_guard lock(mutex);
        if (script.empty())
            return fallback;
        Response r = script.front();
        script.pop_front();
        return r;
    }

    void record(Request r)
    {
        {
            std::lock_guard lock(mutex);
            r.arrivedMs = std::chrono::duration_cast<std::chrono::milliseconds>(
                std::chrono::steady_clock::now().time_since_epoch())
                              .count();
            seen.append(std::move(r));
            maxActive = std::max(maxActive, ++active);
        }
        cv.notify_all();
    }

    void accept();
};

template<typename Stream>
class Session final : public SessionBase, public std::enable_shared_from_this<Session<Stream>> {
public:
    template<typename... Args>
    Session(ScriptableDestination::Impl &impl, Args &&...args)
        : m_impl(impl)
        , m_socket(std::forward<Args>(args)...)
        , m_timer(impl.io)
    { }

    using std::enable_shared_from_this<Session<Stream>>::shared_from_this;

    void handshakeThenStart()
    {
        m_socket.async_handshake(ssl::stream_base::server, [self = shared_from_this()](beast::error_code ec) {
            if (ec)
                return self->close();
            self->start();
        });
    }

    void start()
    {
        m_parser.emplace();
        m_parser->body_limit(256ULL * 1024 * 1024);
        http::async_read_header(
            m_socket, m_buffer, *m_parser, [self = shared_from_this()](beast::error_code ec, std::size_t) {
                if (ec)
                    return self->close();
                self->m_response = self->m_impl.next();
                self->afterPause(self->m_response.delayBeforeBodyMs, [self] { self->readBody(); });
            });
    }

    void close() override
    {
        beast::error_code ignored;
        m_timer.cancel();
        if (m_counted) {
            m_counted = false;
            std::lock_guard lock(m_impl.mutex);
            --m_impl.active;
        }
        lowest().shutdown(tcp::socket::shutdown_both, ignored);
        lowest().close(ignored);
        m_impl.sessions.erase(shared_from_this());
    }

private:
    tcp::socket &lowest() { return beast::get_lowest_layer(m_socket); }

    template<typename F> void afterPause(int ms, F next)
    {
        if (ms <= 0) {
            next();
            return;
        }
        m_timer.expires_after(std::chrono::milliseconds(ms));
        m_timer.async_wait([self = shared_from_this(), next](beast::error_code ec) {
            if (!ec)
                next();
        });
    }

    void readBody()
    {
        http::async_read(
            m_socket, m_buffer, *m_parser, [self = shared_from_this()](beast::error_code ec, std::size_t) {
                if (ec)
                    return self->close();
                const auto &msg = self->m_parser->get();
                ScriptableDestination::Request r;
                r.method = QByteArray::fromStdString(std::string(msg.method_string()));
                r.target = QByteArray::fromStdString(std::string(msg.target()));
                for (const auto &field : msg)
                    r.headers.add(QByteArray::fromStdString(std::string(field.name_string())),
                        QByteArray::fromStdString(std::string(field.value())));
                r.body = QByteArray(msg.body().data(), static_cast<qsizetype>(msg.body().size()));
                self->m_impl.record(std::move(r));
                self->m_counted = true;
                self->afterPause(self->m_response.delayAfterReadMs, [self] { self->answer(); });
            });
    }

    void answer()
    {
        if (m_response.hang)
            return; // held until stop()
        if (m_response.reset) {
            beast::error_code ignored;
            lowest().set_option(net::socket_base::linger(true, 0), ignored);
            lowest().close(ignored);
            if (m_counted) {
                m_counted = false;
                std::lock_guard lock(m_impl.mutex);
                --m_impl.active;
            }
            m_impl.sessions.erase(shared_from_this());
            return;
        }
        http::response<http::string_body> res;
        res.version(11);
        res.result(static_cast<unsigned>(m_response.status));
        for (const auto &[name, value] : m_response.headers)
            res.set(std::string_view(name.constData(), static_cast<std::size_t>(name.size())),
                std::string_view(value.constData(), static_cast<std::size_t>(value.size())));
        if (m_response.connection == ScriptableDestination::Response::Connection::Close)
            res.set(http::field::connection, "close");
        res.body() = m_response.body.toStdString();
        res.prepare_payload();
        std::ostringstream out;
        out << res;
        m_wire = out.str();
        m_offset = 0;
        writeMore();
    }

    void writeMore()
    {
        if (m_offset >= m_wire.size()) {
            if (m_response.connection != ScriptableDestination::Response::Connection::KeepAlive)
                return close();
            if (m_counted) {
                m_counted = false;
                std::lock_guard lock(m_impl.mutex);
                --m_impl.active;
            }
            return start(); // the next request on this connection
        }
        const std::size_t chunk = m_response.trickleIntervalMs > 0 ? 1 : m_wire.size() - m_offset;
        net::async_write(m_socket, net::buffer(m_wire.data() + m_offset, chunk),
            [self = shared_from_this(), chunk](beast::error_code ec, std::size_t) {
                if (ec)
                    return self->close();
                self->m_offset += chunk;
                self->afterPause(self->m_response.trickleIntervalMs, [self] { self->writeMore(); });
            });
    }

    ScriptableDestination::Impl &m_impl;
    Stream m_socket;
    net::steady_timer m_timer;
    beast::flat_buffer m_buffer;
    std::optional<http::request_parser<http::string_body>> m_parser; // one per request
    ScriptableDestination::Response m_response;
    std::string m_wire;
    std::size_t m_offset = 0;
    bool m_counted = false; // part of Impl::active
};

void ScriptableDestination::Impl::accept()
{
    acceptor->async_accept([this](beast::error_code ec, tcp::socket socket) {
        if (ec)
            return;
        {
            std::lock_guard lock(mutex);
            ++connections;
        }
        if (tls) {
            auto session
                = std::make_shared<Session<ssl::stream<tcp::socket>>>(*this, std::move(socket), *tls);
            sessions.insert(session);
            session->handshakeThenStart();
        } else {
            auto session = std::make_shared<Session<tcp::socket>>(*this, std::move(socket));
            sessions.insert(session);
            session->start();
        }
        accept();
    });
}

ScriptableDestination::ScriptableDestination()
    : d(std::make_unique<Impl>())
{ }

ScriptableDestination::~ScriptableDestination()
{
    stop();
}

bool ScriptableDestination::startTls(const QString &certPem, const QString &keyPem, QString *error)
{
    try {
        d->tls = std::make_unique<ssl::context>(ssl::context::tls_server);
        d->tls->use_certificate_chain_file(certPem.toStdString());
        d->tls->use_private_key_file(keyPem.toStdString(), ssl::context::pem);
    } catch (const std::exception &e) {
        *error = QString::fromUtf8(e.what());
        return false;
    }
    return start(error);
}

bool ScriptableDestination::start(QString *error, bool ipv6, int receiveBuffer)
{
    try {
        d->ipv6 = ipv6;
        const tcp::endpoint endpoint(ipv6 ? net::ip::address(net::ip::address_v6::loopback())
                                          : net::ip::address(net::ip::address_v4::loopback()),
            0);
        d->acceptor = std::make_unique<tcp::acceptor>(d->io);
        d->acceptor->open(endpoint.protocol());
        d->acceptor->set_option(net::socket_base::reuse_address(true));
        if (receiveBuffer > 0)
            d->acceptor->set_option(net::socket_base::receive_buffer_size(receiveBuffer));
        d->acceptor->bind(endpoint);
        d->acceptor->listen();
        d->port = d->acceptor->local_endpoint().port();
    } catch (const std::exception &e) {
        *error = QString::fromUtf8(e.what());
        return false;
    }
    d->accept();
    d->thread = std::thread([this] { d->io.run(); });
    return true;
}

void ScriptableDestination::stop()
{
    if (!d->thread.joinable())
        return;
    net::post(d->io, [impl = d.get()] {
        beast::error_code ignored;
        impl->acceptor->close(ignored);
        auto sessions = impl->sessions;
        for (const auto &s : sessions)
            s->close();
    });
    d->thread.join();
}

quint16 ScriptableDestination::port() const
{
    return d->port;
}

QUrl ScriptableDestination::url(const QString &path) const
{
    return QUrl(QStringLiteral("%1://%2:%3%4")
                    .arg(d->tls ? QStringLiteral("https") : QStringLiteral("http"))
                    .arg(d->ipv6 ? QStringLiteral("[::1]") : QStringLiteral("127.0.0.1"))
                    .arg(d->port)
                    .arg(path));
}

void ScriptableDestination::setDefault(const Response &response)
{
    std::lock_guard lock(d->mutex);
    d->fallback = response;
}

void ScriptableDestination::enqueue(const Response &response)
{
    std::lock_guard lock(d->mutex);
    d->script.push_back(response);
}

void ScriptableDestination::enqueue(int code, int times)
{
    for (int i = 0; i < times; ++i)
        enqueue(status(code));
}

QList<ScriptableDestination::Request> ScriptableDestination::requests() const
{
    std::lock_guard lock(d->mutex);
    return d->seen;
}

int ScriptableDestination::maxConcurrent() const
{
    std::lock_guard lock(d->mutex);
    return d->maxActive;
}

int ScriptableDestination::connectionCount() const
{
    std::lock_guard lock(d->mutex);
    return d->connections;
}

int ScriptableDestination::requestCount() const
{
    std::lock_guard lock(d->mutex);
    return static_cast<int>(d->seen.size());
}

bool ScriptableDestination::waitForRequests(int count, int timeoutMs) const
{
    std::unique_lock lock(d->mutex);
    return d->cv.wait_for(
        lock, std::chrono::milliseconds(timeoutMs), [&] { return d->seen.size() >= count; });
}

ScriptableDestination::Response ScriptableDestination::status(int code, QByteArray body)
{
    Response r;
    r.status = code;
    r.body = std::move(body);
    return r;
}

} // namespace redrive::test
