// WebSocketTransport::Impl: the state behind WebSocketTransport, shared by its files (ws_transport.cpp: the
// endpoint, events, sends and statistics; ws_connection.cpp: one connection's handshake, reads and writes).
#pragma once

#include <rewind/transport/websocket_transport.hpp>

#include "transport/rate_window.hpp"
#include "transport/websocket/ws_message.hpp"

#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/beast/core/flat_buffer.hpp>
#include <boost/beast/http/message.hpp>
#include <boost/beast/http/string_body.hpp>
#include <boost/beast/websocket/stream.hpp>

#include <deque>
#include <map>
#include <memory>
#include <optional>
#include <vector>

namespace rwd::transport {

namespace ws {

namespace asio = boost::asio;
namespace beast = boost::beast;
namespace http = boost::beast::http;
namespace websocket = boost::beast::websocket;
using tcp = boost::asio::ip::tcp;

/// Where one connection is.
enum class ConnState : std::uint8_t {
    http_request,     // server: reading the HTTP upgrade request
    handshaking,      // server: answering it; client: connecting and handshaking
    awaiting_accept,  // client: handshake done, the server's accept not yet read
    connected,        // seated: messages flow both ways
    closing,          // a close is queued or in flight; nothing more is reported
    closed,           // the socket is gone
};

class Connection;

}  // namespace ws

class WebSocketTransport::Impl {
public:
    explicit Impl(WebSocketConfig config) : config_(std::move(config)) {}
    ~Impl();
    Impl(const Impl&) = delete;
    Impl& operator=(const Impl&) = delete;

    Status open();
    Result<PeerId> connect(const Address& to);
    void disconnect(PeerId id, DisconnectReason reason);
    Status send(PeerId id, Delivery delivery, std::span<const std::uint8_t> data);
    void update(Micros now);
    bool poll(TransportEvent& out);
    [[nodiscard]] PeerStats stats(PeerId id) const;
    [[nodiscard]] Address local_address() const;

    // Called by connections.
    /// A server-side connection finished its handshake: seat it (accept) or refuse it (4004).
    void seat(const std::shared_ptr<ws::Connection>& c);
    /// A client-side connection got its accept.
    void accepted(const std::shared_ptr<ws::Connection>& c);
    /// A message arrived on a seated connection.
    void deliver(ws::Connection& c, Delivery delivery, std::span<const std::uint8_t> payload);
    /// A connection ended; reports `disconnected(reason)` if it had a peer id and was not closed locally.
    void ended(ws::Connection& c, DisconnectReason reason);
    /// A connection left the handshake phase (for the max_handshakes count).
    void handshake_done() { --handshakes_; }

    // The io_context is declared first so that it is destroyed last: pending handlers (holding connections)
    // are destroyed with it without running.
    ws::asio::io_context io_{1};
    WebSocketConfig config_;
    WebSocketCounters counters_;
    std::map<PeerId, std::shared_ptr<ws::Connection>> peers_;  // seated or connecting
    std::size_t handshakes_ = 0;  // connections in http_request / handshaking on the server side
    std::size_t seated_ = 0;      // incoming connections seated

private:
    void start_accept();
    std::optional<ws::tcp::acceptor> acceptor_;
    bool accept_again_ = false;  // an accept failed (no descriptors): try again at the next update()
    std::deque<TransportEvent> events_;
    PeerId next_id_ = 1;
};

}  // namespace rwd::transport
