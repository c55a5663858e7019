// ws::Connection: one WebSocket connection of a WebSocketTransport: its handshake, read loop, write queue and
// the backlog that holds unreliable messages back.
#pragma once

#include "transport/websocket/ws_impl.hpp"
#include "transport/websocket/ws_socket.hpp"

#include <boost/asio/steady_timer.hpp>

namespace rwd::transport::ws {

/// One connection; lives as long as the transport knows it or an Asio handler holds it.
class Connection : public std::enable_shared_from_this<Connection> {
public:
    Connection(WebSocketTransport::Impl& owner, tcp::socket socket, bool outgoing);

    /// Server: reads the HTTP upgrade request, checks it and answers it.
    void start_server();
    /// Client: connects to one of `endpoints`, then asks for ws://host/rewind with the subprotocol.
    void start_client(const tcp::resolver::results_type& endpoints, std::string host);

    /// Queues one framed message (written in order, one write at a time).
    void queue(std::vector<std::uint8_t> bytes);
    /// Holds an unreliable message while backed up; true when it replaced one held before.
    bool hold(std::vector<std::uint8_t> bytes);
    /// Writes the held message when the backlog has drained; starts the next write.
    void flush();
    /// Bytes not yet acknowledged by the peer: queued here, plus what the socket holds (Linux).
    [[nodiscard]] std::size_t backlog() const;
    /// Bytes queued here (the write in flight included).
    [[nodiscard]] std::size_t queued_bytes() const { return queued_bytes_; }
    /// Closes with `code` once what is queued is written; nothing more is reported for it.
    void close(std::uint16_t code);
    /// Closes the socket at once (no close frame).
    void abort();

    /// Round-trip time and variance from TCP_INFO, and retransmissions since the last call (Linux; else 0).
    struct TcpSample {
        Micros rtt{};
        Micros jitter{};
        std::uint64_t retransmitted = 0;
    };
    [[nodiscard]] TcpSample tcp_sample() const;

    PeerId id = kInvalidPeer;
    ConnState state = ConnState::http_request;
    bool outgoing = false;
    bool accepted = false;  // seated (server) or accept read (client)
    std::uint64_t bytes_in = 0;
    std::uint64_t bytes_out = 0;
    std::uint64_t messages_in = 0;
    std::uint64_t messages_out = 0;
    std::uint64_t frames_at_last_loss = 0;
    std::uint64_t retrans_at_last_loss = 0;
    double loss = 0.0;
    RateWindow rate;

private:
    void on_request(beast::error_code ec);
    void answer_http(http::status status);
    void on_server_handshake(beast::error_code ec);
    void on_client_handshake(beast::error_code ec);
    void read();
    void on_read(beast::error_code ec, std::size_t bytes);
    void write_next();
    void on_write(beast::error_code ec);
    void refuse(Refusal r);
    void fail(beast::error_code ec);
    void set_timeouts();
    void arm_deadline();

    WebSocketTransport::Impl& owner_;
    websocket::stream<Socket> ws_;
    asio::steady_timer deadline_;  // the HTTP request and TCP connect phases (then the stream's own timers)
    beast::flat_buffer buffer_;
    http::request<http::string_body> request_;
    std::deque<std::vector<std::uint8_t>> out_;
    std::size_t queued_bytes_ = 0;
    std::optional<std::vector<std::uint8_t>> held_;
    std::optional<std::uint16_t> close_code_;  // set: close once out_ is written
    bool writing_ = false;
    bool closing_sent_ = false;
};

}  // namespace rwd::transport::ws
