// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#pragma once

// A Beast body that reads straight into a QByteArray, so a request body is copied once (socket
// buffer → QByteArray) and handed to the handler without a std::string detour. Private to the
// http room.

#include <QByteArray>

#include <boost/asio/buffer.hpp>
#include <boost/beast/http/error.hpp>
#include <boost/beast/http/message.hpp>
#include <boost/optional.hpp>

#include <cstdint>
#include <limits>

namespace redrive::http::detail {

struct ByteArrayBody {
    using value_type = QByteArray;

    static std::uint64_t size(const value_type &body) { return static_cast<std::uint64_t>(body.size()); }

    class reader {
    public:
        template<bool isRequest, class Fields>
        reader(boost::beast::http::header<isRequest, Fields> &, value_type &body)
            : m_body(body)
        { }

        void init(const boost::optional<std::uint64_t> &length, boost::beast::error_code &ec)
        {
            ec = {};
            if (!length)
                return;
            if (*length > static_cast<std::uint64_t>(std::numeric_limits<qsizetype>::max() / 2)) {
                ec = boost::beast::http::error::buffer_overflow;
                return;
            }
            // The parser has already checked the length against the body limit.
            m_body.reserve(static_cast<qsizetype>(*length));
        }

        template<class ConstBufferSequence>
        std::size_t put(const ConstBufferSequence &buffers, boost::beast::error_code &ec)
        {
            ec = {};
            std::size_t total = 0;
            for (auto it = boost::asio::buffer_sequence_begin(buffers);
                 it != boost::asio::buffer_sequence_end(buffers); ++it) {
                const boost::asio::const_buffer b = *it;
                m_body.append(static_cast<const char *>(b.data()), static_cast<qsizetype>(b.size()));
                total += b.size();
            }
            return total;
        }

        void finish(boost::beast::error_code &ec) { ec = {}; }

    private:
        value_type &m_body;
    };
};

} // namespace redrive::http::detail
