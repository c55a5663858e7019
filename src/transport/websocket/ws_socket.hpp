// ws::Socket: the TCP socket under a WebSocket stream, torn down at once when the WebSocket closes (no wait
// for the peer's FIN), so a peer that breaks the protocol and then stays silent is dropped now, with its
// error.
#pragma once

#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/post.hpp>
#include <boost/beast/core/error.hpp>
#include <boost/beast/core/role.hpp>

#include <utility>

namespace rwd::transport::ws {

/// A tcp::socket with the AsyncStream interface Beast's websocket::stream wants.
class Socket {
public:
    using executor_type = boost::asio::ip::tcp::socket::executor_type;
    using next_layer_type = boost::asio::ip::tcp::socket;
    using lowest_layer_type = boost::asio::ip::tcp::socket::lowest_layer_type;

    explicit Socket(boost::asio::ip::tcp::socket s) : socket_(std::move(s)) {}

    executor_type get_executor() noexcept { return socket_.get_executor(); }
    next_layer_type& next_layer() noexcept { return socket_; }
    const next_layer_type& next_layer() const noexcept { return socket_; }
    lowest_layer_type& lowest_layer() noexcept { return socket_.lowest_layer(); }

    template <class Buffers, class Handler>
    auto async_read_some(const Buffers& buffers, Handler&& handler) {
        return socket_.async_read_some(buffers, std::forward<Handler>(handler));
    }
    template <class Buffers, class Handler>
    auto async_write_some(const Buffers& buffers, Handler&& handler) {
        return socket_.async_write_some(buffers, std::forward<Handler>(handler));
    }

    /// Discards what has arrived unread (closing over unread data would reset the connection, and the peer
    /// could lose the close frame just sent), shuts the socket both ways and closes it; errors are ignored.
    void close() noexcept {
        boost::beast::error_code ignored;
        if (!socket_.is_open()) return;
        socket_.non_blocking(true, ignored);
        char sink[4096];
        for (int i = 0; i < 16 && socket_.available(ignored) > 0; ++i)
            (void)socket_.read_some(boost::asio::buffer(sink), ignored);
        socket_.shutdown(boost::asio::ip::tcp::socket::shutdown_both, ignored);
        socket_.close(ignored);
    }

private:
    boost::asio::ip::tcp::socket socket_;
};

/// Beast's teardown for ws::Socket (found by ADL): close now.
inline void teardown(boost::beast::role_type, Socket& s, boost::beast::error_code& ec) {
    s.close();
    ec = {};
}

/// Beast's asynchronous teardown for ws::Socket: close now, complete through the executor.
template <class Handler>
void async_teardown(boost::beast::role_type, Socket& s, Handler&& handler) {
    s.close();
    boost::asio::post(s.get_executor(),
                      [h = std::forward<Handler>(handler)]() mutable { h(boost::beast::error_code{}); });
}

}  // namespace rwd::transport::ws
