// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#include "httpclient.h"

#include "connectionpool.h"
#include "connector.h"
#include "deliveryrules/addresspolicy.h"

// Asio's scheduler trips GCC's -Wnull-dereference inside its own headers.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wnull-dereference"
#include <boost/asio/executor_work_guard.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/ssl.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <boost/beast/ssl.hpp>
#pragma GCC diagnostic pop

#include <openssl/ssl.h>
#include <openssl/x509.h>

#include <atomic>
#include <chrono>
#include <future>
#include <map>
#include <mutex>
#include <optional>
#include <set>
#include <thread>

namespace redrive::delivery {

namespace net = boost::asio;
namespace beast = boost::beast;
namespace http = beast::http;
namespace ssl = net::ssl;
using tcp = net::ip::tcp;
using Transport = AttemptOutcome::Transport;

namespace {

constexpr std::uint32_t kHeaderLimit = 32 * 1024;

bool isResetError(const boost::system::error_code &ec)
{
    return ec == net::error::connection_reset || ec == net::error::broken_pipe || ec == net::error::eof
        || ec == http::error::end_of_stream || ec == http::error::partial_message
        || ec == ssl::error::stream_truncated || ec == net::error::connection_aborted;
}

QString text(const boost::system::error_code &ec)
{
    return QString::fromStdString(ec.message());
}

} // namespace

class Exchange;

class HttpClient::Impl {
public:
    explicit Impl(std::shared_ptr<Connector> c)
        : work(net::make_work_guard(io))
        , connector(c ? std::move(c) : makeSystemConnector())
        , pool(io)
    {
        std::promise<void> finished;
        ioDone = finished.get_future();
        thread = std::thread([this, p = std::move(finished)]() mutable {
            io.run();
            p.set_value();
        });
    }

    ~Impl();

    // The TLS context for a CA bundle (empty = system roots only), built once.
    std::shared_ptr<ssl::context> tlsContext(const QString &caFile, QString *error)
    {
        std::lock_guard lock(mutex);
        auto it = contexts.find(caFile);
        if (it != contexts.end())
            return it->second;
        auto ctx = std::make_shared<ssl::context>(ssl::context::tls_client);
        boost::system::error_code ec;
        ctx->set_default_verify_paths(ec);
        if (!caFile.isEmpty()) {
            ctx->load_verify_file(caFile.toStdString(), ec);
            if (ec) {
                *error = QStringLiteral("cannot load ca_file %1: %2").arg(caFile, text(ec));
                return nullptr;
            }
        }
        SSL_CTX_set_min_proto_version(ctx->native_handle(), TLS1_2_VERSION);
        ctx->set_verify_mode(ssl::verify_peer);
        contexts.emplace(caFile, ctx);
        return ctx;
    }

    net::io_context io;
    net::executor_work_guard<net::io_context::executor_type> work;
    std::shared_ptr<Connector> connector;
    std::thread thread;
    std::future<void> ioDone;
    std::mutex mutex;
    std::map<QString, std::shared_ptr<ssl::context>> contexts;
    std::set<std::shared_ptr<Exchange>> live; // I/O thread only
    ConnectionPool pool; // I/O thread only
    std::atomic<quint64> opened { 0 };
    std::atomic<quint64> reused { 0 };
    std::atomic<quint64> staleRetries { 0 };
};

class Exchange final : public std::enable_shared_from_this<Exchange> {
public:
    Exchange(HttpClient::Impl &impl, HttpRequest request, HttpClient::Done done)
        : m_impl(impl)
        , m_request(std::move(request))
        , m_done(std::move(done))
        , m_timer(impl.io)
    { }

    void start()
    {
        const QString scheme = m_request.url.scheme().toLower();
        m_host = m_request.url.host(QUrl::FullyEncoded).toStdString();
        if (!m_request.url.isValid() || (scheme != u"http" && scheme != u"https") || m_host.empty()) {
            fail(Transport::InvalidUrl,
                QStringLiteral("%1 is not an absolute http or https URL")
                    .arg(m_request.url.toDisplayString(QUrl::RemoveUserInfo | QUrl::RemoveQuery)));
            return;
        }
        m_https = scheme == u"https";
        m_port = static_cast<unsigned short>(m_request.url.port(m_https ? 443 : 80));
        QString target = m_request.url.path(QUrl::FullyEncoded);
        if (target.isEmpty())
            target = QStringLiteral("/");
        if (m_request.url.hasQuery())
            target += u'?' + m_request.url.query(QUrl::FullyEncoded);
        m_target = target.toStdString();
        const bool defaultPort = m_port == (m_https ? 443 : 80);
        const std::string hostForHeader = m_host.find(':') != std::string::npos ? '[' + m_host + ']' : m_host;
        m_hostHeader = defaultPort ? hostForHeader : hostForHeader + ':' + std::to_string(m_port);
        m_poolKey = (m_https ? "https://" : "http://") + m_host + ':' + std::to_string(m_port)
            + (m_request.allowPrivate ? "|private|" : "|public|") + m_request.caFile.toStdString();

        m_timer.expires_after(std::chrono::milliseconds(m_request.timeoutMs));
        m_timer.async_wait([self = shared_from_this()](const boost::system::error_code &ec) {
            if (!ec)
                self->onDeadline();
        });

        if (auto pooled = m_impl.pool.checkout(m_poolKey)) {
            m_conn = std::move(pooled);
            m_reused = true;
            ++m_impl.reused;
            sendOnConnection();
            return;
        }
        openConnection();
    }

    void cancel()
    {
        if (m_finished)
            return;
        m_cancelled = true;
        if (m_phase == Phase::Resolve) {
            fail(Transport::Cancelled, {});
            return;
        }
        closeSocket();
    }

private:
    enum class Phase { Resolve, Connect, Tls, Write, Read };

    // A fresh connection: resolve (unless the host is an address literal), filter every address
    // through the SSRF guard, connect, TLS.
    void openConnection()
    {
        auto conn = std::make_unique<Connection>();
        if (m_https) {
            QString error;
            auto ctx = m_impl.tlsContext(m_request.caFile, &error);
            if (!ctx) {
                fail(Transport::Tls, error);
                return;
            }
            conn->tlsContext = ctx;
            conn->tls = std::make_unique<beast::ssl_stream<beast::tcp_stream>>(m_impl.io, *ctx);
        } else {
            conn->plain = std::make_unique<beast::tcp_stream>(m_impl.io);
        }
        m_conn = std::move(conn);

        if (const auto literal = parseAddressLiteral(QString::fromStdString(m_host))) {
            std::vector<net::ip::address> one;
            if (literal->protocol() == QAbstractSocket::IPv4Protocol) {
                one.push_back(net::ip::address_v4(literal->toIPv4Address()));
            } else {
                const Q_IPV6ADDR raw = literal->toIPv6Address();
                net::ip::address_v6::bytes_type bytes {};
                for (std::size_t i = 0; i < 16; ++i)
                    bytes[i] = raw[static_cast<int>(i)];
                one.push_back(net::ip::address_v6(bytes));
            }
            m_literalHost = true;
            filterAndConnect(one);
            return;
        }
        m_phase = Phase::Resolve;
        m_impl.connector->asyncResolve(m_impl.io, m_host, m_port,
            [self = shared_from_this()](boost::system::error_code ec,
                const std::vector<net::ip::address> &addresses) { self->onResolved(ec, addresses); });
    }

    tcp::socket &socket() { return m_conn->socket(); }

    void closeSocket()
    {
        if (m_conn)
            m_conn->close();
    }

    void onDeadline()
    {
        if (m_finished)
            return;
        m_timedOut = true;
        if (m_phase == Phase::Resolve) {
            fail(Transport::ConnectTimeout, {});
            return;
        }
        closeSocket(); // the pending operation completes with an error and reports the timeout
    }

    // Common handling of an error that ended an operation in `m_phase`.
    bool interrupted()
    {
        if (m_timedOut) {
            fail(m_phase == Phase::Connect || m_phase == Phase::Tls ? Transport::ConnectTimeout
                                                                    : Transport::Timeout,
                {});
            return true;
        }
        if (m_cancelled) {
            fail(Transport::Cancelled, {});
            return true;
        }
        return false;
    }

    // A reused connection that the peer had already closed fails before any byte of an answer
    // arrives. The request is then sent once more on a fresh connection — what HTTP clients do
    // for requests that carry an Idempotency-Key (every delivery does). Never after a timeout:
    // interrupted() has reported those.
    bool retryOnFreshConnection(const boost::system::error_code &ec)
    {
        if (!m_reused || !isResetError(ec) || m_parser->got_some())
            return false;
        m_reused = false;
        closeSocket();
        m_conn.reset();
        m_written = false;
        m_buffer.clear();
        m_parser.emplace();
        ++m_impl.staleRetries;
        openConnection();
        return true;
    }

    void onResolved(boost::system::error_code ec, const std::vector<net::ip::address> &addresses)
    {
        if (m_finished)
            return;
        if (ec || addresses.empty()) {
            fail(Transport::Dns,
                QStringLiteral("%1: %2").arg(
                    QString::fromStdString(m_host), ec ? text(ec) : QStringLiteral("no addresses")));
            return;
        }
        filterAndConnect(addresses);
    }

    void filterAndConnect(const std::vector<net::ip::address> &addresses)
    {
        QStringList refused;
        m_allowed.clear();
        for (const auto &a : addresses) {
            const AddressVerdict v = addressVerdict(toQHostAddress(a), m_request.allowPrivate);
            if (v.allowed)
                m_allowed.emplace_back(a, m_port);
            else if (refused.size() < 4)
                refused.append(QStringLiteral("%1 (%2)").arg(QString::fromStdString(a.to_string()), v.rule));
        }
        if (m_allowed.empty()) {
            const QString what = m_literalHost
                ? QStringLiteral("%1").arg(refused.join(QLatin1String(", ")))
                : QStringLiteral("%1 resolved to %2")
                      .arg(QString::fromStdString(m_host), refused.join(QLatin1String(", ")));
            fail(Transport::Blocked, what);
            return;
        }
        connectNext(0);
    }

    void connectNext(std::size_t index)
    {
        if (index >= m_allowed.size()) {
            if (m_lastConnectError == net::error::connection_refused)
                fail(Transport::Refused, m_lastConnectDetail);
            else if (isResetError(m_lastConnectError))
                fail(Transport::Reset, m_lastConnectDetail);
            else
                fail(Transport::Network, m_lastConnectDetail);
            return;
        }
        m_phase = Phase::Connect;
        boost::system::error_code ignored;
        socket().close(ignored);
        const tcp::endpoint endpoint = m_allowed[index];
        m_impl.connector->asyncConnect(
            socket(), endpoint, [self = shared_from_this(), index, endpoint](boost::system::error_code ec) {
                self->onConnected(ec, index, endpoint);
            });
    }

    void onConnected(boost::system::error_code ec, std::size_t index, const tcp::endpoint &endpoint)
    {
        if (m_finished)
            return;
        if (ec) {
            if (interrupted())
                return;
            m_lastConnectError = ec;
            m_lastConnectDetail = QStringLiteral("%1 port %2: %3")
                                      .arg(QString::fromStdString(endpoint.address().to_string()))
                                      .arg(endpoint.port())
                                      .arg(text(ec));
            connectNext(index + 1);
            return;
        }
        ++m_impl.opened;
        if (m_conn->tls)
            handshake();
        else
            sendOnConnection();
    }

    void handshake()
    {
        m_phase = Phase::Tls;
        auto &tls = *m_conn->tls;
        if (!m_literalHost)
            SSL_ctrl(tls.native_handle(), SSL_CTRL_SET_TLSEXT_HOSTNAME, TLSEXT_NAMETYPE_host_name,
                const_cast<char *>(m_host.c_str()));
        tls.set_verify_mode(ssl::verify_peer);
        tls.set_verify_callback(ssl::host_name_verification(m_host));
        tls.async_handshake(
            ssl::stream_base::client, [self = shared_from_this()](boost::system::error_code ec) {
                if (self->m_finished)
                    return;
                if (ec) {
                    if (self->interrupted())
                        return;
                    QString detail = text(ec);
                    const long verify = SSL_get_verify_result(self->m_conn->tls->native_handle());
                    if (verify != X509_V_OK)
                        detail += QStringLiteral(" (%1)").arg(
                            QString::fromUtf8(X509_verify_cert_error_string(verify)));
                    self->fail(Transport::Tls, detail);
                    return;
                }
                self->sendOnConnection();
            });
    }

    void sendOnConnection()
    {
        if (m_conn->tls)
            write(*m_conn->tls);
        else
            write(*m_conn->plain);
    }

    template<typename Stream> void write(Stream &stream)
    {
        m_phase = Phase::Write;
        if (!m_messageReady) {
            m_message.method(
                m_request.method == HttpRequest::Method::Get ? http::verb::get : http::verb::post);
            m_message.target(m_target);
            m_message.version(11);
            m_message.set(http::field::host, m_hostHeader);
            for (const auto &[name, value] : m_request.headers.fields())
                m_message.insert(std::string_view(name.constData(), static_cast<std::size_t>(name.size())),
                    std::string_view(value.constData(), static_cast<std::size_t>(value.size())));
            m_message.body().assign(
                m_request.body.constData(), static_cast<std::size_t>(m_request.body.size()));
            if (m_request.method == HttpRequest::Method::Post || !m_request.body.isEmpty())
                m_message.prepare_payload(); // a GET without a body sends no Content-Length
            m_messageReady = true;
        }
        http::async_write(stream, m_message,
            [self = shared_from_this(), &stream](boost::system::error_code ec, std::size_t) {
                if (self->m_finished)
                    return;
                if (ec) {
                    if (self->interrupted() || self->retryOnFreshConnection(ec))
                        return;
                    self->fail(isResetError(ec) ? Transport::Reset : Transport::Network, text(ec));
                    return;
                }
                self->m_written = true;
                self->read(stream);
            });
    }

    template<typename Stream> void read(Stream &stream)
    {
        m_phase = Phase::Read;
        m_parser->header_limit(kHeaderLimit);
        m_parser->body_limit(static_cast<std::uint64_t>(std::max<qint64>(0, m_request.maxResponseBytes)));
        http::async_read(stream, m_buffer, *m_parser,
            [self = shared_from_this()](boost::system::error_code ec, std::size_t) { self->onRead(ec); });
    }

    void onRead(boost::system::error_code ec)
    {
        if (m_finished)
            return;
        if (!ec || m_parser->is_header_done()) {
            AttemptOutcome o = base(Transport::Completed, {});
            const auto &msg = m_parser->get();
            o.statusCode = static_cast<int>(msg.result_int());
            for (const auto &field : msg) {
                const auto name = field.name_string();
                const auto value = field.value();
                o.responseHeaders.add(QByteArray(name.data(), static_cast<qsizetype>(name.size())),
                    QByteArray(value.data(), static_cast<qsizetype>(value.size())));
            }
            const std::string &body = msg.body();
            o.responseBody = QByteArray(body.data(), static_cast<qsizetype>(body.size()));
            o.responseComplete = !ec;
            if (ec)
                o.detail = m_timedOut ? QStringLiteral("response body timed out") : text(ec);
            // Only a whole, in-time answer that asks for nothing else leaves the connection in a
            // known state; anything else (errors, timeouts, Connection: close, HTTP/1.0 without
            // keep-alive, redirects, unread bytes) closes it.
            m_keep = !ec && !m_timedOut && !m_cancelled && msg.keep_alive()
                && (o.statusCode < 300 || o.statusCode >= 400) && m_buffer.size() == 0;
            finish(std::move(o));
            return;
        }
        if (interrupted() || retryOnFreshConnection(ec))
            return;
        fail(isResetError(ec) ? Transport::Reset : Transport::Network, text(ec));
    }

    AttemptOutcome base(Transport transport, const QString &detail) const
    {
        AttemptOutcome o;
        o.transport = transport;
        o.requestWritten = m_written;
        o.detail = detail;
        o.timeoutMs = m_request.timeoutMs;
        return o;
    }

    void fail(Transport transport, const QString &detail) { finish(base(transport, detail)); }

    void finish(AttemptOutcome outcome)
    {
        if (m_finished)
            return;
        m_finished = true;
        m_timer.cancel();
        if (m_keep && m_conn)
            m_impl.pool.checkin(m_poolKey, std::move(m_conn));
        else
            closeSocket();
        auto done = std::move(m_done);
        auto self = shared_from_this();
        m_impl.live.erase(self);
        if (done)
            done(std::move(outcome));
    }

    HttpClient::Impl &m_impl;
    HttpRequest m_request;
    HttpClient::Done m_done;
    net::steady_timer m_timer;
    std::unique_ptr<Connection> m_conn;
    std::string m_host;
    std::string m_hostHeader;
    std::string m_target;
    std::string m_poolKey;
    unsigned short m_port = 0;
    bool m_https = false;
    bool m_literalHost = false;
    std::vector<tcp::endpoint> m_allowed;
    boost::system::error_code m_lastConnectError;
    QString m_lastConnectDetail;
    http::request<http::string_body> m_message;
    bool m_messageReady = false;
    beast::flat_buffer m_buffer;
    std::optional<http::response_parser<http::string_body>> m_parser { std::in_place };
    Phase m_phase = Phase::Resolve;
    bool m_reused = false;
    bool m_keep = false;
    bool m_written = false;
    bool m_timedOut = false;
    bool m_cancelled = false;
    bool m_finished = false;
};

HttpClient::Impl::~Impl()
{
    net::post(io, [this] {
        pool.closeAll();
        auto running = live;
        for (const auto &ex : running)
            ex->cancel();
    });
    work.reset();
    // Cancelled exchanges finish at once; a resolver still inside getaddrinfo() may not.
    if (ioDone.wait_for(std::chrono::seconds(2)) != std::future_status::ready)
        io.stop();
    thread.join();
    live.clear();
}

HttpClient::HttpClient(std::shared_ptr<Connector> connector)
    : d(std::make_unique<Impl>(std::move(connector)))
{ }

HttpClient::~HttpClient() = default;

void HttpClient::send(HttpRequest request, Done done)
{
    auto exchange = std::make_shared<Exchange>(*d, std::move(request), std::move(done));
    net::post(d->io, [impl = d.get(), exchange] {
        impl->live.insert(exchange);
        exchange->start();
    });
}

HttpClient::Stats HttpClient::stats() const
{
    return { d->opened.load(), d->reused.load(), d->staleRetries.load() };
}

void HttpClient::cancelAll()
{
    net::post(d->io, [impl = d.get()] {
        auto running = impl->live;
        for (const auto &ex : running)
            ex->cancel();
    });
}

} // namespace redrive::delivery
