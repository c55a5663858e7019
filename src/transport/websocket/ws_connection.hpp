// ws::Connection: one WebSocket connection of a WebSocketTransport: its handshake, read loop, write queue and
// the rule that holds unreliable messages back while the connection is backed up.
#pragma once

#include "transport/websocket/ws_impl.hpp"
#include "transport/websocket/ws_socket.hpp"

#include <boost/asio/steady_timer.hpp>

namespace rwd::transport::ws {

/// Messages one connection may read in one update(); the rest wait for the next (bounds an update's work and
/// the events it queues, whatever a peer sends).
inline constexpr int kMaxReadsPerUpdate = 256;

/// One connection; lives as long as the transport knows it or an Asio handler holds it. The transport's
/// Impl reads and sets the public state; everything else is the connection's own.
class Connection : public std::enable_shared_from_this<Connection> {
public:
    Connection(WebSocketTransport::Impl& owner, tcp::socket socket, bool outgoing);

    /// Server: reads the HTTP upgrade request, checks it and answers it.
    void start_server();
    /// Client: connects to one of `endpoints`, then asks for ws://host/rewind with the subprotocol.
    void start_client(const tcp::resolver::results_type& endpoints, std::string host);

    /// Queues one framed message (written in order, one write at a time).
    void queue(std::vector<std::uint8_t> bytes);
    /// Holds an unreliable message; true when it replaced one held before (which is then dropped).
    bool hold(std::vector<std::uint8_t> bytes);
    /// Whether an unreliable message is held.
    [[nodiscard]] bool holding() const { return held_.has_value(); }
    /// Once per update(): writes the held message if no longer backed up, starts the next write, and reads
    /// again if the read budget paused reading.
    void service();
    /// Backed up: bytes not yet handed to the socket plus (Linux) bytes the kernel has not sent exceed
    /// max_backlog_bytes, or (Linux) the TCP connection is in its loss state after a retransmission timeout
    /// (an outage: nothing new leaves until the hole is filled).
    [[nodiscard]] bool backed_up();
    /// Bytes queued here and not yet written to the socket (the write in flight included).
    [[nodiscard]] std::size_t queued_bytes() const { return queued_bytes_; }
    /// Closes with `code` once what is queued is written (within handshake_timeout, else the socket is
    /// dropped); nothing more is reported for it.
    void close(std::uint16_t code);
    /// Closes the socket at once (no close frame).
    void abort();

    /// What TCP_INFO says of the connection (Linux; zero elsewhere).
    struct TcpSample {
        Micros rtt{};                     ///< smoothed round-trip time
        Micros jitter{};                  ///< its mean deviation
        std::uint64_t retransmitted = 0;  ///< segments retransmitted so far
        bool loss_state = false;          ///< after a retransmission timeout, the hole not yet filled
    };
    [[nodiscard]] TcpSample tcp_sample();

    PeerId id = kInvalidPeer;                   ///< the peer id, once seated (server) or from connect()
    ConnState state = ConnState::http_request;  ///< where the connection is
    bool outgoing = false;                      ///< this side connected
    bool accepted = false;                      ///< seated (server) or the accept read (client)
    std::uint64_t bytes_in = 0;                 ///< frame bytes read
    std::uint64_t bytes_out = 0;                ///< frame bytes written
    std::uint64_t messages_in = 0;              ///< messages delivered
    std::uint64_t messages_out = 0;             ///< messages written
    std::uint64_t messages_at_loss = 0;         ///< messages written at the last loss sample
    std::uint64_t retrans_at_loss = 0;          ///< TCP retransmissions at the last loss sample
    double loss = 0.0;  ///< retransmitted segments per message written since the last sample (Nagle is off)
    RateWindow rate;    ///< kbps over the rate window
    bool in_loss_state = false;  ///< TCP's loss state at the last update's sample (one syscall an update)

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
    /// Starts a timed phase: after handshake_timeout, unless another phase began, on_deadline() runs.
    void begin_phase();
    void on_deadline();
    /// Leaves the server's handshake count, once.
    void leave_handshake();

    WebSocketTransport::Impl& owner_;
    websocket::stream<Socket> ws_;
    asio::steady_timer deadline_;  // the phase's time limit (request, TCP connect, accept, closing)
    std::uint64_t phase_ = 0;      // bumped by every phase change: a stale deadline does nothing
    bool in_handshake_ = false;    // counted in the server's handshakes
    beast::flat_buffer buffer_;
    http::request<http::string_body> request_;
    std::deque<std::vector<std::uint8_t>> out_;
    std::size_t queued_bytes_ = 0;
    std::optional<std::vector<std::uint8_t>> held_;
    std::optional<std::uint16_t> close_code_;  // set: close once out_ is written
    bool writing_ = false;
    bool closing_sent_ = false;
    bool reading_ = false;      // an async_read is outstanding
    bool read_paused_ = false;  // the read budget ran out this update
    int reads_ = 0;             // messages read this update
};

}  // namespace rwd::transport::ws
