/// Errc and Result<T>: errors a caller must handle, with readable names; no exceptions on the hot path.
#pragma once

#include <cassert>
#include <string_view>
#include <utility>
#include <variant>

namespace rwd {

/// Every error rewind reports. Append only: the numeric values appear in logs and reports.
enum class Errc : int {
    ok = 0,
    invalid_argument,    ///< a caller passed a value outside its documented range
    invalid_config,      ///< a config struct failed validate()
    out_of_space,        ///< a buffer or queue is full
    end_of_data,         ///< a reader ran past the end of its data
    value_out_of_range,  ///< a decoded value lies outside its declared range
    length_too_long,     ///< a decoded length exceeds its declared maximum
    malformed,           ///< a message does not parse as its type
    unknown_message,     ///< a message type this version does not know
    not_connected,       ///< no such peer, or the peer is gone
    already_exists,      ///< the thing to create exists already
    too_many_peers,      ///< the endpoint is at its peer limit
    timed_out,           ///< nothing heard for longer than the timeout
    rejected,            ///< the other side refused
    io_error,            ///< the operating system refused an operation
    desync,              ///< peers disagree on the simulated state
};

/// The readable name of an error code, e.g. "end_of_data".
constexpr std::string_view error_name(Errc e) {
    switch (e) {
        case Errc::ok:
            return "ok";
        case Errc::invalid_argument:
            return "invalid_argument";
        case Errc::invalid_config:
            return "invalid_config";
        case Errc::out_of_space:
            return "out_of_space";
        case Errc::end_of_data:
            return "end_of_data";
        case Errc::value_out_of_range:
            return "value_out_of_range";
        case Errc::length_too_long:
            return "length_too_long";
        case Errc::malformed:
            return "malformed";
        case Errc::unknown_message:
            return "unknown_message";
        case Errc::not_connected:
            return "not_connected";
        case Errc::already_exists:
            return "already_exists";
        case Errc::too_many_peers:
            return "too_many_peers";
        case Errc::timed_out:
            return "timed_out";
        case Errc::rejected:
            return "rejected";
        case Errc::io_error:
            return "io_error";
        case Errc::desync:
            return "desync";
    }
    return "unknown_error";
}

/// An error code with an optional static description of what exactly went wrong.
struct Error {
    Errc code = Errc::ok;
    std::string_view detail{};  ///< must point at static storage (a string literal)
};

/// Either a T or an Error. Check ok() before value(); reading the wrong side is a programmer error.
template <class T>
class [[nodiscard]] Result {
public:
    Result(T value) : v_(std::move(value)) {}  // NOLINT(google-explicit-constructor): returned implicitly
    Result(Error e) : v_(e) {}                 // NOLINT(google-explicit-constructor)
    Result(Errc c) : v_(Error{c, {}}) {}       // NOLINT(google-explicit-constructor)

    [[nodiscard]] bool ok() const { return v_.index() == 0; }
    explicit operator bool() const { return ok(); }

    T& value() & {
        assert(ok());
        return std::get<0>(v_);
    }
    const T& value() const& {
        assert(ok());
        return std::get<0>(v_);
    }
    T&& value() && {
        assert(ok());
        return std::get<0>(std::move(v_));
    }
    T* operator->() { return &value(); }
    const T* operator->() const { return &value(); }
    T& operator*() & { return value(); }
    const T& operator*() const& { return value(); }

    [[nodiscard]] Error error() const { return ok() ? Error{} : std::get<1>(v_); }
    [[nodiscard]] Errc code() const { return error().code; }

private:
    std::variant<T, Error> v_;
};

/// Success or an Error, for calls that return nothing else.
class [[nodiscard]] Status {
public:
    Status() = default;
    Status(Error e) : e_(e) {}            // NOLINT(google-explicit-constructor)
    Status(Errc c) : e_(Error{c, {}}) {}  // NOLINT(google-explicit-constructor)
    [[nodiscard]] bool ok() const { return e_.code == Errc::ok; }
    explicit operator bool() const { return ok(); }
    [[nodiscard]] Error error() const { return e_; }
    [[nodiscard]] Errc code() const { return e_.code; }

private:
    Error e_{};
};

}  // namespace rwd
