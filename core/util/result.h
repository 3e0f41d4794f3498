// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#pragma once

#include <QString>

#include <cassert>
#include <optional>
#include <type_traits>
#include <utility>
#include <variant>

// The one error contract of core/: a call that can fail returns Result<T> (Result<> when it has
// no value), holding either the value or the text of what went wrong. The text is for people
// (logs, HTTP bodies, dialogs) and never holds bound values, payloads or secrets. Shaped like
// C++23's std::expected so call sites read the same once the project moves to it:
//
//     Result<Checkpoint> cp = makeCheckpoint(db, key, now);
//     if (!cp)
//         return Failure(QStringLiteral("checkpoint: %1").arg(cp.error()));
//     use(*cp);
namespace redrive {

// What a failing call returns: `return Failure(text);` converts to any Result<T>.
struct Failure {
    explicit Failure(QString text)
        : message(std::move(text))
    { }
    QString message;
};

template<class T = void> class [[nodiscard]] Result {
public:
    using value_type = T;

    Result(T value) // NOLINT(google-explicit-constructor): `return value;` is the point
        : m_state(std::in_place_index<0>, std::move(value))
    { }
    template<class U>
    requires(
        std::is_constructible_v<T,
            U &&> && !std::is_same_v<std::remove_cvref_t<U>, Result> && !std::is_same_v<std::remove_cvref_t<U>, Failure>)
        // The constraint keeps Result and Failure out, which clang-tidy 14 does not see.
        // NOLINTNEXTLINE(google-explicit-constructor,bugprone-forwarding-reference-overload)
        Result(U &&value)
        : m_state(std::in_place_index<0>, T(std::forward<U>(value)))
    { }
    Result(Failure failure) // NOLINT(google-explicit-constructor)
        : m_state(std::in_place_index<1>, std::move(failure.message))
    { }

    [[nodiscard]] bool has_value() const noexcept { return m_state.index() == 0; }
    explicit operator bool() const noexcept { return has_value(); }

    [[nodiscard]] T &value() &
    {
        assert(has_value());
        return std::get<0>(m_state);
    }
    [[nodiscard]] const T &value() const &
    {
        assert(has_value());
        return std::get<0>(m_state);
    }
    [[nodiscard]] T &&value() &&
    {
        assert(has_value());
        return std::get<0>(std::move(m_state));
    }
    T &operator*() & { return value(); }
    const T &operator*() const & { return value(); }
    T &&operator*() && { return std::move(*this).value(); }
    T *operator->() { return &value(); }
    const T *operator->() const { return &value(); }

    template<class U> [[nodiscard]] T value_or(U &&fallback) const &
    {
        return has_value() ? std::get<0>(m_state) : static_cast<T>(std::forward<U>(fallback));
    }

    // The failure's text; empty when the call succeeded.
    [[nodiscard]] const QString &error() const
    {
        static const QString none;
        return has_value() ? none : std::get<1>(m_state);
    }

    // For callers that keep an optional (models, caches): the value, or nothing.
    [[nodiscard]] std::optional<T> toOptional() &&
    {
        if (!has_value())
            return std::nullopt;
        return std::get<0>(std::move(m_state));
    }

private:
    std::variant<T, QString> m_state;
};

template<> class [[nodiscard]] Result<void> {
public:
    using value_type = void;

    Result() = default;
    Result(Failure failure) // NOLINT(google-explicit-constructor)
        : m_error(std::move(failure.message))
        , m_failed(true)
    { }

    [[nodiscard]] bool has_value() const noexcept { return !m_failed; }
    explicit operator bool() const noexcept { return has_value(); }
    [[nodiscard]] const QString &error() const { return m_error; }

private:
    QString m_error;
    bool m_failed = false;
};

// Success for Result<>: `return ok();`.
inline Result<> ok()
{
    return {};
}

// For code outside core/ that still reports a failure as `false` plus a text: whether `result`
// succeeded, with its failure's text copied to `error` (when given) otherwise.
template<class T> bool succeeded(const Result<T> &result, QString *error)
{
    if (!result && error)
        *error = result.error();
    return result.has_value();
}

// The same for a call with a value: the value, or T() with the failure's text copied to `error`
// (when given), e.g. `m_db = takeValue(Db::open(url, name, options), error);`.
template<class T> T takeValue(Result<T> &&result, QString *error)
{
    if (!result) {
        if (error)
            *error = result.error();
        return T();
    }
    return std::move(result).value();
}

} // namespace redrive
