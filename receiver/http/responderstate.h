// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#pragma once

// Private to the http room: the state behind one request's Responder (see session.h).

#include "server.h"

#include <boost/asio/post.hpp>

#include <atomic>
#include <memory>

namespace redrive::http::detail {

// Shared by every copy of one request's Responder. Delivers at most one response, and answers
// 500 when the handler dropped its responder without answering: a bug must not hang a client.
template<class S> class ResponderState final {
public:
    ResponderState(std::weak_ptr<S> session, quint64 seq)
        : m_session(std::move(session))
        , m_seq(seq)
    { }
    // Only allocation can throw here; running out of memory ends the process either way.
    ~ResponderState() // NOLINT(bugprone-exception-escape)
    {
        if (!m_done.load(std::memory_order_acquire))
            deliver(Response::error(
                500, QStringLiteral("internal"), QStringLiteral("the request was not answered")));
    }
    ResponderState(const ResponderState &) = delete;
    ResponderState &operator=(const ResponderState &) = delete;

    void deliver(Response &&response)
    {
        if (m_done.exchange(true, std::memory_order_acq_rel))
            return;
        if (auto session = m_session.lock()) {
            auto executor = session->executor();
            boost::asio::post(
                executor, [s = std::move(session), seq = m_seq, r = std::move(response)]() mutable {
                    s->onResponse(seq, std::move(r));
                });
        }
    }

private:
    std::weak_ptr<S> m_session;
    quint64 m_seq;
    std::atomic<bool> m_done { false };
};

} // namespace redrive::http::detail
