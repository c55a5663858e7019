// BrowserTransport: rwd::transport::Transport for a browser tab, one WebSocket to a rewind server
// (PROTOCOL.md, "Transport (WebSocket)") over Emscripten's WebSocket API.
#pragma once

#include <rewind/transport/transport.hpp>

#include "transport/rate_window.hpp"

#include <cstddef>
#include <cstdint>
#include <deque>
#include <optional>
#include <span>
#include <string>
#include <vector>

namespace web {

/// How the browser transport connects and what it accepts.
struct BrowserTransportConfig {
    /// The whole URL to open (ws:// or wss://); empty: ws://HOST:PORT/rewind from the address given to
    /// connect().
    std::string url;
    /// A connection without the accept (`02 01`) this long after connect() is given up as timed_out.
    rwd::Micros connect_timeout{10'000'000};
    std::size_t max_message_size = 1172;        ///< largest unreliable payload, each way (as on ENet)
    std::size_t max_reliable_size = 64 * 1024;  ///< largest reliable payload, each way
    /// While the browser holds more than this unsent, an unreliable message is not handed to the socket: it
    /// replaces the one held back, written once the socket drained (newest input wins, never a queue).
    std::size_t max_backlog_bytes = 4096;
    rwd::Micros rate_window{1'000'000};  ///< the kbps figures cover this much of `now`
};

/// What the transport refused or held back, since it was made.
struct BrowserTransportCounters {
    std::uint64_t messages_refused =
        0;  ///< frames that closed the connection (text, empty, bad class, too big)
    std::uint64_t unreliable_replaced = 0;  ///< unreliable messages replaced by a newer one while backed up
    std::uint64_t send_failures = 0;        ///< sends the browser's socket refused
};

/// The client end of the rewind WebSocket transport: one server connection at a time (a new connect()
/// closes the previous one). The browser's callbacks only queue; update() and poll() hand events out, so
/// nothing re-enters the session. Close codes: 4000 + DisconnectReason; 4004 before the accept is `refused`.
class BrowserTransport final : public rwd::transport::Transport {
public:
    /// A transport that opens nothing until connect(). Invalid sizes are a programmer error.
    explicit BrowserTransport(BrowserTransportConfig config = {});
    ~BrowserTransport() override;
    BrowserTransport(const BrowserTransport&) = delete;
    BrowserTransport& operator=(const BrowserTransport&) = delete;

    [[nodiscard]] rwd::Result<rwd::transport::PeerId> connect(const rwd::transport::Address& to) override;
    void disconnect(rwd::transport::PeerId peer, rwd::transport::DisconnectReason reason) override;
    [[nodiscard]] rwd::Status send(rwd::transport::PeerId peer, rwd::transport::Delivery delivery,
                                   std::span<const std::uint8_t> data) override;
    void update(rwd::Micros now) override;
    [[nodiscard]] bool poll(rwd::transport::TransportEvent& out) override;
    [[nodiscard]] rwd::transport::PeerStats stats(rwd::transport::PeerId peer) const override;
    [[nodiscard]] std::size_t max_message_size() const override { return config_.max_message_size; }
    /// The class byte, a 2-byte frame header (4 up to 64 KiB) and the client's 4-byte mask.
    [[nodiscard]] std::size_t header_bytes() const override { return 7; }

    /// The URL connect() opened last (empty before).
    [[nodiscard]] const std::string& url() const { return url_; }
    /// What was refused or held back.
    [[nodiscard]] const BrowserTransportCounters& counters() const { return counters_; }
    /// The close code of the last connection that ended (0 while none ended; 1006 for an abnormal close).
    [[nodiscard]] int last_close_code() const { return last_close_code_; }

    // The browser's callbacks (Emscripten's C callbacks forward here; not for the app).
    /// The socket opened: nothing is connected until the server's accept.
    void on_open(int socket);
    /// A whole message arrived.
    void on_message(int socket, const std::uint8_t* data, std::size_t size, bool text);
    /// The socket closed with `code`.
    void on_close(int socket, int code);

private:
    void refuse(int close_code);
    void end(rwd::transport::DisconnectReason reason);
    void push_event(rwd::transport::TransportEvent::Type type,
                    rwd::transport::DisconnectReason reason = rwd::transport::DisconnectReason::none);
    bool write(std::span<const std::uint8_t> frame);
    [[nodiscard]] std::size_t backlog() const;

    BrowserTransportConfig config_;
    std::string url_;
    int socket_ = 0;  // Emscripten's socket id, 0 for none
    rwd::transport::PeerId peer_ = rwd::transport::kInvalidPeer;
    rwd::transport::PeerId next_peer_ = 1;
    bool accepted_ = false;
    bool open_ = false;
    bool connect_started_ = false;  // the connect deadline is set from the first update() after connect()
    rwd::Micros connect_deadline_{};
    rwd::Micros now_{};
    std::deque<rwd::transport::TransportEvent> events_;
    std::optional<std::vector<std::uint8_t>> held_;  // the newest unreliable frame, held while backed up
    rwd::transport::PeerStats stats_{};
    rwd::transport::RateWindow rate_;
    BrowserTransportCounters counters_{};
    int last_close_code_ = 0;
};

}  // namespace web
