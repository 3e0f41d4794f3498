// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#include "server.h"

#include "session.h"
#include "util/worker.h"

#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/ssl/context.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/strand.hpp>

#include <condition_variable>
#include <future>
#include <mutex>
#include <string>
#include <unordered_map>
#include <vector>

namespace redrive::http {
namespace detail {
Q_LOGGING_CATEGORY(lcHttp, "redrive.http")
}

using namespace detail;

class Server::Impl final : public SessionHost {
public:
    Impl(ServerOptions options, Handler handler)
        : m_options(std::move(options))
        , m_handler(std::move(handler))
        , m_ioc(std::max(1, m_options.threads))
    { }

    // Only a thread that cannot be joined or a lock that fails throws here, and ending the
    // process (the noexcept destructor's std::terminate) is the right answer to either.
    ~Impl() override { stop(2'000); } // NOLINT(bugprone-exception-escape)

    [[nodiscard]] const ServerOptions &options() const override { return m_options; }
    [[nodiscard]] const Handler &handler() const override { return m_handler; }
    [[nodiscard]] bool stopping() const override { return m_stopping.load(std::memory_order_acquire); }

    void sessionClosed(quint64 id) override
    {
        std::lock_guard lock(m_mutex);
        m_sessions.erase(id);
        m_open.fetch_sub(1, std::memory_order_acq_rel);
        m_cv.notify_all();
    }

    void reportRejection(EdgeRejection &&rejection) override
    {
        if (!m_options.onRejected)
            return;
        try {
            m_options.onRejected(rejection);
        } catch (const std::exception &e) {
            qCWarning(lcHttp, "%s: onRejected threw: %s", qUtf8Printable(m_options.name), e.what());
        }
    }

    Result<> start();
    void stop(int graceMs);

    [[nodiscard]] quint16 port() const { return m_port; }
    [[nodiscard]] int openConnections() const { return m_open.load(std::memory_order_acquire); }

private:
    void accept();
    void onAccept(beast::error_code ec, SessionSocket socket);
    void refuseOverCapacity(SessionSocket &socket);
    void forEachSession(SessionBase::Action action);
    bool waitForSessions(std::chrono::milliseconds timeout);

    ServerOptions m_options;
    Handler m_handler;
    quint16 m_port = 0;
    std::atomic<bool> m_stopping { false };
    std::atomic<int> m_open { 0 };
    bool m_running = false;

    // Declared before the io_context: sessions still owned by pending handlers are destroyed
    // with the io_context and report to the registry on their way out.
    std::mutex m_mutex;
    std::condition_variable m_cv;
    std::unordered_map<quint64, std::weak_ptr<SessionBase>> m_sessions;
    quint64 m_nextId = 1;

    net::io_context m_ioc;
    std::optional<net::ssl::context> m_tls;
    std::optional<net::strand<net::io_context::executor_type>> m_acceptStrand;
    std::optional<tcp::acceptor> m_acceptor;
    std::optional<net::steady_timer> m_acceptRetry;
    std::optional<net::executor_work_guard<net::io_context::executor_type>> m_work;
    Worker m_io; // the I/O threads, each running m_ioc
};

Result<> Server::Impl::start()
{
    const QString where = m_options.listen.toString();
    if (!m_options.tlsCertFile.isEmpty() || !m_options.tlsKeyFile.isEmpty()) {
        if (m_options.tlsCertFile.isEmpty() || m_options.tlsKeyFile.isEmpty()) {
            return Failure(QStringLiteral("TLS needs both a certificate and a key file"));
        }
        try {
            m_tls.emplace(net::ssl::context::tls_server);
            m_tls->set_options(net::ssl::context::default_workarounds | net::ssl::context::no_sslv2
                | net::ssl::context::no_sslv3 | net::ssl::context::no_tlsv1 | net::ssl::context::no_tlsv1_1
                | net::ssl::context::single_dh_use);
            m_tls->use_certificate_chain_file(m_options.tlsCertFile.toStdString());
            m_tls->use_private_key_file(m_options.tlsKeyFile.toStdString(), net::ssl::context::pem);
        } catch (const boost::system::system_error &e) {
            // The message names the failing step, never key material.
            m_tls.reset();
            return Failure(QStringLiteral("cannot load TLS certificate %1 / key %2: %3")
                               .arg(m_options.tlsCertFile, m_options.tlsKeyFile,
                                   QString::fromStdString(e.code().message())));
        }
    }

    beast::error_code ec;
    QString host = m_options.listen.host;
    if (host.compare(QLatin1String("localhost"), Qt::CaseInsensitive) == 0)
        host = QStringLiteral("127.0.0.1");
    const auto address = net::ip::make_address(host.toStdString(), ec);
    if (ec) {
        return Failure(QStringLiteral("cannot listen on %1: invalid address").arg(where));
    }
    const tcp::endpoint endpoint(address, m_options.listen.port);
    m_acceptStrand.emplace(net::make_strand(m_ioc));
    m_acceptor.emplace(*m_acceptStrand);
    m_acceptRetry.emplace(*m_acceptStrand);
    auto fail = [&](const char *step) -> Result<> {
        m_acceptor.reset();
        return Failure(QStringLiteral("cannot listen on %1: %2 failed: %3")
                           .arg(where, QLatin1String(step), QString::fromStdString(ec.message())));
    };
    m_acceptor->open(endpoint.protocol(), ec);
    if (ec)
        return fail("open");
    // Lets a restarted receiver bind again while old connections sit in TIME_WAIT.
    m_acceptor->set_option(net::socket_base::reuse_address(true), ec);
    if (ec)
        return fail("setsockopt");
    m_acceptor->bind(endpoint, ec);
    if (ec)
        return fail("bind");
    m_acceptor->listen(net::socket_base::max_listen_connections, ec);
    if (ec)
        return fail("listen");
    m_port = m_acceptor->local_endpoint(ec).port();

    m_stopping.store(false);
    m_work.emplace(m_ioc.get_executor());
    net::post(*m_acceptStrand, [this] { accept(); });
    const int threads = std::max(1, m_options.threads);
    // A handler that throws must not take the receiver down: log and keep serving. (No opening
    // step, and stop() joined the last threads: this start cannot fail.)
    static_cast<void>(m_io.start(threads, [this](int) {
        for (;;) {
            try {
                m_ioc.run();
                return;
            } catch (const std::exception &e) {
                qCCritical(lcHttp, "%s: I/O handler failed: %s", qUtf8Printable(m_options.name), e.what());
            }
        }
    }));
    m_running = true;
    qCInfo(lcHttp, "%s: listening on %s%s (%d I/O threads)", qUtf8Printable(m_options.name),
        qUtf8Printable((Endpoint { m_options.listen.host, m_port }.toString())), m_tls ? " with TLS" : "",
        threads);
    return ok();
}

void Server::Impl::accept()
{
    if (!m_acceptor || !m_acceptor->is_open())
        return;
    m_acceptor->async_accept(net::make_strand(m_ioc),
        [this](beast::error_code ec, SessionSocket socket) { onAccept(ec, std::move(socket)); });
}

void Server::Impl::onAccept(beast::error_code ec, SessionSocket socket)
{
    if (ec == net::error::operation_aborted || !m_acceptor->is_open())
        return;
    if (ec) {
        // EMFILE/ENFILE and friends: back off briefly instead of spinning on a failing accept.
        qCWarning(lcHttp, "%s: accept failed: %s", qUtf8Printable(m_options.name), ec.message().c_str());
        m_acceptRetry->expires_after(std::chrono::milliseconds(50));
        m_acceptRetry->async_wait([this](beast::error_code wec) {
            if (!wec)
                accept();
        });
        return;
    }
    if (stopping()) {
        beast::error_code ignored;
        socket.close(ignored);
        return;
    }
    if (m_open.load(std::memory_order_acquire) >= m_options.maxConnections) {
        refuseOverCapacity(socket);
        accept();
        return;
    }
    beast::error_code optionError;
    socket.set_option(tcp::no_delay(true), optionError);
    const auto remote = socket.remote_endpoint(optionError);
    QString remoteAddress = optionError ? QString() : QString::fromStdString(remote.address().to_string());

    quint64 id = 0;
    {
        std::lock_guard lock(m_mutex);
        id = m_nextId++;
        m_open.fetch_add(1, std::memory_order_acq_rel);
    }
    std::shared_ptr<SessionBase> session;
    if (m_tls) {
        session = std::make_shared<Session<TlsStream>>(
            *this, id, std::move(remoteAddress), std::move(socket), *m_tls);
    } else {
        session
            = std::make_shared<Session<PlainStream>>(*this, id, std::move(remoteAddress), std::move(socket));
    }
    {
        std::lock_guard lock(m_mutex);
        m_sessions.emplace(id, session);
    }
    session->post(SessionBase::Action::Start);
    accept();
}

// Over the cap: a short 503 written without waiting (a fresh socket's send buffer takes it),
// then close. No session, no buffers, no timers for a connection we will not serve.
void Server::Impl::refuseOverCapacity(SessionSocket &socket)
{
    static const std::string kBusy = [] {
        const std::string body = R"({"error":"connection_limit","message":"too many open connections"})";
        return "HTTP/1.1 503 Service Unavailable\r\nContent-Type: application/json\r\nRetry-After: 1\r\n"
               "Connection: close\r\nContent-Length: "
            + std::to_string(body.size()) + "\r\n\r\n" + body;
    }();
    beast::error_code ec;
    socket.non_blocking(true, ec);
    socket.write_some(net::buffer(kBusy.data(), kBusy.size()), ec);
    socket.shutdown(tcp::socket::shutdown_both, ec);
    socket.close(ec);
    EdgeRejection rejection;
    rejection.status = 503;
    rejection.reason = QStringLiteral("connection_limit");
    reportRejection(std::move(rejection));
}

void Server::Impl::forEachSession(SessionBase::Action action)
{
    std::vector<std::shared_ptr<SessionBase>> live;
    {
        std::lock_guard lock(m_mutex);
        live.reserve(m_sessions.size());
        for (const auto &[id, weak] : m_sessions) {
            if (auto s = weak.lock())
                live.push_back(std::move(s));
        }
    }
    for (auto &s : live)
        s->post(action);
}

bool Server::Impl::waitForSessions(std::chrono::milliseconds timeout)
{
    std::unique_lock lock(m_mutex);
    return m_cv.wait_for(lock, timeout, [this] { return m_open.load(std::memory_order_acquire) == 0; });
}

void Server::Impl::stop(int graceMs)
{
    if (!m_running)
        return;
    m_running = false;
    m_stopping.store(true, std::memory_order_release);
    // 1. Stop accepting.
    std::promise<void> closed;
    auto closedFuture = closed.get_future();
    net::post(*m_acceptStrand, [this, &closed] {
        beast::error_code ec;
        m_acceptRetry->cancel();
        m_acceptor->close(ec);
        closed.set_value();
    });
    closedFuture.wait();
    // 2. Idle connections close now; busy ones after their response is written.
    forEachSession(SessionBase::Action::RequestStop);
    if (!waitForSessions(std::chrono::milliseconds(std::max(0, graceMs)))) {
        qCWarning(lcHttp, "%s: %d connection(s) still busy after %d ms; closing them",
            qUtf8Printable(m_options.name), openConnections(), graceMs);
        // 3. Whatever is left is cut off.
        forEachSession(SessionBase::Action::ForceClose);
        waitForSessions(std::chrono::milliseconds(2'000));
    }
    m_work.reset();
    m_ioc.stop();
    m_io.stop();
    qCInfo(lcHttp, "%s: stopped", qUtf8Printable(m_options.name));
}

Server::Server(ServerOptions options, Handler handler)
    : d(std::make_unique<Impl>(std::move(options), std::move(handler)))
{ }

Server::~Server() = default;

Result<> Server::start()
{
    return d->start();
}

quint16 Server::port() const
{
    return d->port();
}

void Server::stop(int graceMs)
{
    d->stop(graceMs);
}

int Server::openConnections() const
{
    return d->openConnections();
}

} // namespace redrive::http
