// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#pragma once

// One HTTP/1.1 connection (plain or TLS), private to the http room. A session handles one
// request at a time: pipelined requests wait in the socket buffer and are answered in order.
//
//   Idle ──first byte──▶ Reading (header, then body; one read_timeout for the whole request)
//     ▲                     │ onHead / edge errors answer early and close
//     │                     ▼
//     └── keep-alive ── Writing ◀── response ── Handling (handler owns the Responder)
//
// Every asynchronous operation holds a shared_ptr to the session; while the handler works no
// operation is pending, so the session keeps itself alive (m_self) until the response arrives or
// the server force-closes it. Responders only hold a weak_ptr: a response for a dead connection
// is dropped.

#include "bytearraybody.h"
#include "responderstate.h"
#include "server.h"

#include <QLoggingCategory>

#include <boost/asio/io_context.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/strand.hpp>
#include <boost/asio/write.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <boost/beast/ssl.hpp>

#include <array>
#include <atomic>
#include <charconv>
#include <chrono>
#include <iterator>
#include <memory>
#include <optional>

namespace redrive::http::detail {

Q_DECLARE_LOGGING_CATEGORY(lcHttp)

namespace beast = boost::beast;
namespace net = boost::asio;
namespace bhttp = boost::beast::http;
using tcp = net::ip::tcp;

// Each connection runs on its own strand. The stream is typed with that strand rather than
// Beast's default any_io_executor: copying a strand inside any_io_executor allocates, and every
// asynchronous operation copies its executor several times (about fifteen allocations per
// request).
using SessionExecutor = net::strand<net::io_context::executor_type>;
using SessionSocket = net::basic_stream_socket<tcp, SessionExecutor>;
using PlainStream = beast::basic_stream<tcp, SessionExecutor, beast::unlimited_rate_policy>;
using TlsStream = beast::ssl_stream<PlainStream>;
using SessionTimer = net::basic_waitable_timer<std::chrono::steady_clock,
    net::wait_traits<std::chrono::steady_clock>, SessionExecutor>;

// What a session needs from its server. Implemented by Server::Impl.
class SessionHost {
public:
    virtual ~SessionHost() = default;
    [[nodiscard]] virtual const ServerOptions &options() const = 0;
    [[nodiscard]] virtual const Handler &handler() const = 0;
    [[nodiscard]] virtual bool stopping() const = 0;
    virtual void sessionClosed(quint64 id) = 0;
    virtual void reportRejection(EdgeRejection &&rejection) = 0;
};

// The server's handle on a live session. Every action is posted onto the session's strand, so
// it never races the session's own I/O.
class SessionBase {
public:
    enum class Action {
        Start,
        RequestStop, // graceful: close now if idle, otherwise after the response in progress
        ForceClose, // hard: close the socket whatever the state
    };
    virtual ~SessionBase() = default;
    virtual void post(Action action) = 0;
};

inline void appendNumber(QByteArray &out, qint64 value)
{
    char digits[24];
    const auto result = std::to_chars(digits, digits + sizeof digits, value);
    out.append(digits, static_cast<qsizetype>(result.ptr - digits));
}

template<class Stream>
class Session final : public SessionBase, public std::enable_shared_from_this<Session<Stream>> {
public:
    static constexpr bool kTls = !std::is_same_v<Stream, PlainStream>;

    template<class... StreamArgs>
    Session(SessionHost &host, quint64 id, QString remoteAddress, StreamArgs &&...streamArgs)
        : m_host(host)
        , m_id(id)
        , m_remote(std::move(remoteAddress))
        , m_stream(std::forward<StreamArgs>(streamArgs)...)
        , m_replyTimer(m_stream.get_executor())
    { }

    ~Session() override { m_host.sessionClosed(m_id); }

    auto executor() { return m_stream.get_executor(); }

    void post(Action action) override
    {
        net::post(executor(), [self = this->shared_from_this(), action] {
            switch (action) {
            case Action::Start:
                self->start();
                break;
            case Action::RequestStop:
                self->requestStop();
                break;
            case Action::ForceClose:
                self->forceClose();
                break;
            }
        });
    }

    void onResponse(quint64 seq, Response &&response)
    {
        if (m_state != State::Handling || seq != m_seq)
            return; // the connection died or was force-closed meanwhile
        auto keep = std::move(m_self); // released when this handler returns
        m_replyTimer.cancel();
        writeResponse(std::move(response), false);
    }

private:
    enum class State { Handshake, Idle, Reading, Handling, Writing, Lingering, Closed };
    static constexpr std::size_t kFirstRead = 4096;
    static constexpr std::size_t kLingerMaxBytes = std::size_t(4) * 1024 * 1024;

    void start()
    {
        if constexpr (kTls) {
            m_state = State::Handshake;
            lowest().expires_after(ms(options().readTimeoutMs));
            m_stream.async_handshake(
                net::ssl::stream_base::server, [self = this->shared_from_this()](beast::error_code ec) {
                    if (ec) {
                        self->close();
                        return;
                    }
                    self->waitForRequest();
                });
        } else {
            waitForRequest();
        }
    }

    void requestStop()
    {
        m_stopRequested = true;
        if (m_state == State::Idle)
            close(); // the pending read completes with operation_aborted
    }

    void forceClose()
    {
        close();
        m_self.reset();
    }

    static std::chrono::milliseconds ms(int v) { return std::chrono::milliseconds(v); }
    const ServerOptions &options() const { return m_host.options(); }
    PlainStream &lowest() { return beast::get_lowest_layer(m_stream); }
    bool stopWanted() const { return m_stopRequested || m_host.stopping(); }

    // Between requests. The first request on a fresh connection must start within read_timeout;
    // later ones within idle_timeout. Reading the first bytes ourselves tells "idle" from "a
    // request is arriving", so the whole-request deadline starts with the request.
    void waitForRequest()
    {
        if (stopWanted()) {
            close();
            return;
        }
        if (m_buffer.size() > 0) { // pipelined request already buffered
            readHeader();
            return;
        }
        m_state = State::Idle;
        lowest().expires_after(ms(m_firstRequest ? options().readTimeoutMs : options().idleTimeoutMs));
        m_stream.async_read_some(m_buffer.prepare(kFirstRead),
            [self = this->shared_from_this()](beast::error_code ec, std::size_t n) {
                if (ec) {
                    self->close(); // idle timeout, peer closed, or stopping
                    return;
                }
                self->m_buffer.commit(n);
                self->readHeader();
            });
    }

    void readHeader()
    {
        m_state = State::Reading;
        m_firstRequest = false;
        lowest().expires_after(ms(options().readTimeoutMs));
        m_parser.emplace();
        m_parser->header_limit(static_cast<std::uint32_t>(options().maxHeaderBytes));
        // Checked against Content-Length when the header completes (before any body byte is
        // buffered) and against the running total of a chunked body.
        m_parser->body_limit(static_cast<std::uint64_t>(options().maxBodyBytes));
        beast::error_code parsed;
        if (parseBuffered(false, parsed)) {
            onHeader(parsed);
            return;
        }
        bhttp::async_read_header(m_stream, m_buffer, *m_parser,
            [self = this->shared_from_this()](beast::error_code ec, std::size_t) { self->onHeader(ec); });
    }

    void onHeader(beast::error_code ec)
    {
        const bool headerParsed = ec == bhttp::error::body_limit || !ec;
        if (headerParsed)
            captureHead();
        if (ec) {
            readFailed(ec, headerParsed);
            return;
        }
        if (const char *problem = framingProblem(m_parser->get())) {
            // RFC 9112 §6.1: a request whose framing two parsers could read differently is the
            // raw material of request smuggling behind a proxy; answer and close, never guess.
            reject(400, QStringLiteral("bad_framing"), QString::fromLatin1(problem), true);
            return;
        }
        if (options().onHead) {
            std::optional<Response> early;
            try {
                early = options().onHead(m_head);
            } catch (const std::exception &e) {
                qCWarning(lcHttp, "%s: onHead threw: %s", qUtf8Printable(options().name), e.what());
                early = Response::error(500, QStringLiteral("internal"), QStringLiteral("internal error"));
            }
            if (early) {
                // A body that was announced and not read leaves the stream unusable.
                writeResponse(std::move(*early), !m_parser->is_done());
                return;
            }
        }
        if (m_parser->is_done()) {
            dispatch();
            return;
        }
        const auto expect = m_parser->get()[bhttp::field::expect];
        if (beast::iequals(expect, "100-continue")) {
            static constexpr std::string_view kContinue = "HTTP/1.1 100 Continue\r\n\r\n";
            net::async_write(m_stream, net::buffer(kContinue.data(), kContinue.size()),
                [self = this->shared_from_this()](beast::error_code wec, std::size_t) {
                    if (wec) {
                        self->close();
                        return;
                    }
                    self->readBody();
                });
            return;
        }
        readBody();
    }

    void readBody()
    {
        beast::error_code parsed;
        if (parseBuffered(true, parsed)) {
            if (parsed)
                readFailed(parsed, true);
            else
                dispatch();
            return;
        }
        bhttp::async_read(m_stream, m_buffer, *m_parser,
            [self = this->shared_from_this()](beast::error_code ec, std::size_t) {
                if (ec) {
                    self->readFailed(ec, true);
                    return;
                }
                self->dispatch();
            });
    }

    // Feeds what is already buffered to the parser, as Beast's read operations do first, but
    // without their asynchronous round: a webhook usually arrives whole with the first read, and
    // each async_read_header/async_read on a buffered request cost a posted completion and a
    // timer re-arm. True when the header (or, with `wholeMessage`, the message) is complete or
    // the parser failed; false when more bytes are needed (the asynchronous read then continues
    // with the same parser state).
    bool parseBuffered(bool wholeMessage, beast::error_code &ec)
    {
        m_parser->eager(wholeMessage);
        while (m_buffer.size() > 0) {
            const std::size_t used = m_parser->put(m_buffer.data(), ec);
            m_buffer.consume(used);
            if (ec == bhttp::error::need_more) {
                ec = {};
                return false;
            }
            if (ec || (wholeMessage ? m_parser->is_done() : m_parser->is_header_done()))
                return true;
            if (used == 0)
                return false;
        }
        return false;
    }

    void captureHead()
    {
        const auto &msg = m_parser->get();
        const auto method = msg.method_string();
        const auto target = msg.target();
        m_head.method = QByteArray(method.data(), static_cast<qsizetype>(method.size()));
        m_target = QByteArray(target.data(), static_cast<qsizetype>(target.size()));
        const qsizetype q = m_target.indexOf('?');
        const QByteArray rawPath = q < 0 ? m_target : m_target.first(q);
        m_query = q < 0 ? QByteArray() : m_target.sliced(q + 1);
        m_head.path = rawPath.contains('%') ? QByteArray::fromPercentEncoding(rawPath) : rawPath;
        Headers headers;
        headers.reserve(static_cast<qsizetype>(std::distance(msg.begin(), msg.end())));
        for (const auto &field : msg) {
            const auto name = field.name_string();
            const auto value = field.value();
            headers.add(QByteArray(name.data(), static_cast<qsizetype>(name.size())),
                QByteArray(value.data(), static_cast<qsizetype>(value.size())));
        }
        m_head.headers = std::move(headers);
        const auto length = m_parser->content_length();
        m_head.contentLength = length ? std::optional<qint64>(static_cast<qint64>(*length)) : std::nullopt;
        m_head.remoteAddress = m_remote;
        m_keepAlive = m_parser->keep_alive();
        m_http10 = msg.version() == 10;
        m_headRequest = msg.method() == bhttp::verb::head;
    }

    // Transfer-Encoding must be exactly one "chunked" and never come with Content-Length; any
    // other coding (gzip, "chunked, gzip", a repeated header) leaves the body's end unknowable.
    static const char *framingProblem(const bhttp::request_header<> &msg)
    {
        int encodings = 0;
        bool chunked = false;
        for (const auto &field : msg) {
            if (field.name() != bhttp::field::transfer_encoding)
                continue;
            ++encodings;
            std::string_view v = field.value();
            while (!v.empty() && (v.front() == ' ' || v.front() == '\t'))
                v.remove_prefix(1);
            while (!v.empty() && (v.back() == ' ' || v.back() == '\t'))
                v.remove_suffix(1);
            chunked = beast::iequals(v, "chunked");
        }
        if (encodings == 0)
            return nullptr;
        if (encodings > 1 || !chunked)
            return "Transfer-Encoding must be exactly \"chunked\"";
        if (msg.count(bhttp::field::content_length) > 0)
            return "a request must not carry both Transfer-Encoding and Content-Length";
        return nullptr;
    }

    void readFailed(beast::error_code ec, bool headerParsed)
    {
        if (ec == bhttp::error::header_limit) {
            reject(431, QStringLiteral("headers_too_large"),
                QStringLiteral("the header block exceeds %1 bytes").arg(options().maxHeaderBytes), false);
            return;
        }
        if (ec == bhttp::error::body_limit) {
            reject(413, QStringLiteral("too_large"),
                QStringLiteral("the body exceeds %1 bytes").arg(options().maxBodyBytes), headerParsed);
            return;
        }
        if (ec == beast::error::timeout) {
            // tcp_stream closed the socket when the deadline passed: nothing can be answered.
            report(408, QStringLiteral("read_timeout"), headerParsed);
            close();
            return;
        }
        if (ec == bhttp::error::end_of_stream || ec == bhttp::error::partial_message || ec == net::error::eof
            || ec == net::error::connection_reset || ec == net::error::operation_aborted
            || ec == net::error::broken_pipe || ec.category() == net::error::get_ssl_category()
            || ec == net::ssl::error::stream_truncated) {
            close(); // the client went away (a truncated request leaves nothing behind)
            return;
        }
        // Everything else is a protocol error from the parser.
        reject(400, QStringLiteral("malformed"),
            QStringLiteral("malformed HTTP request: %1").arg(QString::fromStdString(ec.message())),
            headerParsed);
    }

    void report(int status, const QString &reason, bool headerParsed)
    {
        EdgeRejection rejection;
        rejection.status = status;
        rejection.reason = reason;
        rejection.remoteAddress = m_remote;
        if (headerParsed) {
            rejection.path = m_head.path;
            rejection.headers = m_head.headers;
        }
        m_host.reportRejection(std::move(rejection));
    }

    void reject(int status, const QString &reason, const QString &message, bool headerParsed)
    {
        report(status, reason, headerParsed);
        writeResponse(Response::error(status, reason, message), true);
    }

    void dispatch()
    {
        auto &msg = m_parser->get();
        Request request;
        request.method = std::move(m_head.method);
        request.target = std::move(m_target);
        request.path = std::move(m_head.path);
        request.query = std::move(m_query);
        request.headers = std::move(m_head.headers);
        request.body = std::move(msg.body());
        request.remoteAddress = m_remote;

        m_state = State::Handling;
        lowest().expires_never();
        m_self = this->shared_from_this();
        const quint64 seq = ++m_seq;
        auto state = std::make_shared<ResponderState<Session>>(this->weak_from_this(), seq);
        armReplyTimer(state);
        try {
            m_host.handler()(std::move(request), [state](Response r) { state->deliver(std::move(r)); });
        } catch (const std::exception &e) {
            qCWarning(lcHttp, "%s: handler threw: %s", qUtf8Printable(options().name), e.what());
            state->deliver(
                Response::error(500, QStringLiteral("internal"), QStringLiteral("internal error")));
        }
    }

    // The reply deadline answers for a handler that is still waiting (a hung database): the
    // first of the two responses wins in ResponderState, the other is dropped.
    void armReplyTimer(const std::shared_ptr<ResponderState<Session>> &state)
    {
        if (options().replyTimeoutMs <= 0)
            return;
        m_replyTimer.expires_after(ms(options().replyTimeoutMs));
        m_replyTimer.async_wait(
            [self = this->shared_from_this(), weak = std::weak_ptr(state)](beast::error_code ec) {
                if (ec)
                    return; // answered in time, or the connection closed
                if (auto pending = weak.lock())
                    pending->deliver(self->replyTimeoutResponse());
            });
    }

    Response replyTimeoutResponse() const
    {
        if (options().onReplyTimeout)
            return options().onReplyTimeout();
        auto r = Response::error(503, QStringLiteral("reply_timeout"),
            QStringLiteral("the request was not answered within %1 ms; retry later")
                .arg(options().replyTimeoutMs));
        r.headers.append({ QByteArrayLiteral("Retry-After"), QByteArrayLiteral("1") });
        return r;
    }

    void writeResponse(Response &&response, bool mustClose)
    {
        const bool keepAlive = !mustClose && m_keepAlive && !response.closeConnection && !stopWanted();
        m_out.resize(0);
        m_out.append("HTTP/1.1 ");
        appendNumber(m_out, response.status);
        m_out.append(' ');
        const auto reason
            = bhttp::obsolete_reason(bhttp::int_to_status(static_cast<unsigned>(response.status)));
        m_out.append(reason.data(), static_cast<qsizetype>(reason.size()));
        m_out.append("\r\n");
        if (!response.contentType.isEmpty()) {
            m_out.append("Content-Type: ");
            m_out.append(response.contentType);
            m_out.append("\r\n");
        }
        m_out.append("Content-Length: ");
        appendNumber(m_out, response.body.size());
        m_out.append("\r\n");
        for (const auto &[name, value] : response.headers) {
            m_out.append(name);
            m_out.append(": ");
            m_out.append(value);
            m_out.append("\r\n");
        }
        if (!keepAlive)
            m_out.append("Connection: close\r\n");
        else if (m_http10)
            m_out.append("Connection: keep-alive\r\n");
        m_out.append("\r\n");
        m_outBody = std::move(response.body);
        if (m_headRequest)
            m_outBody.clear(); // same headers as GET, no body (RFC 9110 §9.3.2)
        m_closeAfterWrite = !keepAlive;

        m_state = State::Writing;
        lowest().expires_after(ms(options().readTimeoutMs));
        const std::array<net::const_buffer, 2> buffers { net::const_buffer(m_out.constData(),
                                                             static_cast<std::size_t>(m_out.size())),
            net::const_buffer(m_outBody.constData(), static_cast<std::size_t>(m_outBody.size())) };
        net::async_write(
            m_stream, buffers, [self = this->shared_from_this()](beast::error_code ec, std::size_t) {
                self->m_outBody = QByteArray();
                if (ec) {
                    self->close();
                    return;
                }
                if (self->m_closeAfterWrite)
                    self->lingerThenClose();
                else
                    self->waitForRequest();
            });
    }

    // After the last response: send FIN, then read and discard what the client still sends
    // (bounded in time and bytes) so that closing does not reset the connection before the
    // client has read our answer, e.g. a 413 while it is still uploading.
    void lingerThenClose()
    {
        m_state = State::Lingering;
        lowest().expires_after(std::chrono::seconds(2));
        if constexpr (kTls) {
            m_stream.async_shutdown([self = this->shared_from_this()](beast::error_code) { self->close(); });
        } else {
            beast::error_code ec;
            lowest().socket().shutdown(tcp::socket::shutdown_send, ec);
            if (ec) {
                close();
                return;
            }
            m_lingered = 0;
            m_buffer.consume(m_buffer.size());
            drain();
        }
    }

    void drain()
    {
        m_stream.async_read_some(m_buffer.prepare(std::size_t(16) * 1024),
            [self = this->shared_from_this()](beast::error_code ec, std::size_t n) {
                self->m_lingered += n;
                if (ec || self->m_lingered > kLingerMaxBytes || self->m_state != State::Lingering) {
                    self->close();
                    return;
                }
                self->drain();
            });
    }

    void close()
    {
        if (m_state == State::Closed)
            return;
        m_state = State::Closed;
        m_replyTimer.cancel();
        beast::error_code ec;
        lowest().socket().shutdown(tcp::socket::shutdown_both, ec);
        lowest().close();
    }

    SessionHost &m_host;
    const quint64 m_id;
    const QString m_remote;
    Stream m_stream;
    SessionTimer m_replyTimer;
    beast::flat_buffer m_buffer;
    std::optional<bhttp::request_parser<ByteArrayBody>> m_parser;
    RequestHead m_head;
    QByteArray m_target;
    QByteArray m_query;
    QByteArray m_out;
    QByteArray m_outBody;
    std::shared_ptr<Session> m_self;
    quint64 m_seq = 0;
    std::size_t m_lingered = 0;
    State m_state = State::Idle;
    bool m_firstRequest = true;
    bool m_keepAlive = true;
    bool m_http10 = false;
    bool m_headRequest = false;
    bool m_closeAfterWrite = false;
    bool m_stopRequested = false;
};

} // namespace redrive::http::detail
