// BrowserTransport: Emscripten WebSocket callbacks queue events; class bytes, the accept, close codes, rates.
#include "browser_transport.hpp"

#include <emscripten/emscripten.h>
#include <emscripten/websocket.h>

#include <algorithm>
#include <cassert>
#include <cstdio>

namespace web {

namespace tr = rwd::transport;
using rwd::Micros;

namespace {

constexpr std::uint8_t kUnreliable = 0x00;
constexpr std::uint8_t kReliable = 0x01;
constexpr std::uint8_t kControl = 0x02;
constexpr std::uint8_t kAccept = 0x01;
constexpr int kRewindCloseBase = 4000;
constexpr int kRefusedCode = kRewindCloseBase + static_cast<int>(tr::DisconnectReason::refused);
// RFC 6455 codes this end closes with when the server breaks the rules.
constexpr int kCloseUnsupported = 1003;  // a text message
constexpr int kClosePolicy = 1008;       // empty, unknown class, a control message out of turn
constexpr int kCloseTooBig = 1009;       // over its class's limit

}  // namespace

// What `new WebSocket(url)` would throw on (a SyntaxError inside the wasm call), checked before it is called:
// a parseable ws: or wss: URL without a fragment.
// clang-format off
EM_JS(int, rwd_ws_url_ok, (const char* url), {
    try {
        const u = new URL(UTF8ToString(url));
        return (u.protocol == "ws:" || u.protocol == "wss:") && u.hash == "" ? 1 : 0;
    } catch (e) {
        return 0;
    }
});
// clang-format on

namespace {

BrowserTransport* owner(void* user) { return static_cast<BrowserTransport*>(user); }

EM_BOOL on_open_cb(int, const EmscriptenWebSocketOpenEvent* e, void* user) {
    owner(user)->on_open(e->socket);
    return EM_TRUE;
}

EM_BOOL on_message_cb(int, const EmscriptenWebSocketMessageEvent* e, void* user) {
    owner(user)->on_message(e->socket, e->data, e->numBytes, e->isText != 0);
    return EM_TRUE;
}

EM_BOOL on_error_cb(int, const EmscriptenWebSocketErrorEvent*, void*) {
    return EM_TRUE;  // a close event always follows an error; it carries what the transport needs
}

EM_BOOL on_close_cb(int, const EmscriptenWebSocketCloseEvent* e, void* user) {
    owner(user)->on_close(e->socket, e->code);
    return EM_TRUE;
}

}  // namespace

BrowserTransport::BrowserTransport(BrowserTransportConfig config) : config_(std::move(config)) {
    assert(config_.max_message_size > 0 && config_.max_reliable_size >= config_.max_message_size);
}

BrowserTransport::~BrowserTransport() {
    if (socket_ > 0) {
        // Destroying the transport closes the connection with 4002, as the native end does.
        emscripten_websocket_close(socket_, kRewindCloseBase + static_cast<int>(tr::DisconnectReason::remote),
                                   nullptr);
        emscripten_websocket_delete(socket_);
    }
}

rwd::Result<tr::PeerId> BrowserTransport::connect(const tr::Address& to) {
    if (socket_ > 0) end(tr::DisconnectReason::local);  // one server at a time
    url_ = config_.url;
    if (url_.empty()) {
        // An IPv6 literal needs its brackets in a URL.
        const bool v6 = to.host.find(':') != std::string::npos && to.host.front() != '[';
        url_ = "ws://" + (v6 ? "[" + to.host + "]" : to.host) + ":" + std::to_string(to.port) + "/rewind";
    }
    if (!emscripten_websocket_is_supported())
        return rwd::Error{rwd::Errc::io_error, "this browser has no WebSocket"};
    if (!rwd_ws_url_ok(url_.c_str()))
        return rwd::Error{rwd::Errc::invalid_argument, "not a ws:// or wss:// URL: " + url_};
    EmscriptenWebSocketCreateAttributes attrs;
    emscripten_websocket_init_create_attributes(&attrs);
    attrs.url = url_.c_str();
    attrs.protocols = "rewind.1";
    const EMSCRIPTEN_WEBSOCKET_T ws = emscripten_websocket_new(&attrs);
    if (ws <= 0) return rwd::Error{rwd::Errc::io_error, "the browser refused to open " + url_};
    socket_ = ws;
    emscripten_websocket_set_onopen_callback(ws, this, on_open_cb);
    emscripten_websocket_set_onmessage_callback(ws, this, on_message_cb);
    emscripten_websocket_set_onerror_callback(ws, this, on_error_cb);
    emscripten_websocket_set_onclose_callback(ws, this, on_close_cb);
    peer_ = next_peer_++;
    accepted_ = false;
    open_ = false;
    connect_started_ = false;
    held_.reset();
    stats_ = {};
    samples_.clear();
    return peer_;
}

void BrowserTransport::push_event(tr::TransportEvent::Type type, tr::DisconnectReason reason) {
    tr::TransportEvent ev;
    ev.type = type;
    ev.peer = peer_;
    ev.reason = reason;
    events_.push_back(std::move(ev));
}

void BrowserTransport::end(tr::DisconnectReason reason) {
    // Only a connection the session was told about (accepted) or is waiting for gets its disconnected event.
    if (socket_ > 0) {
        emscripten_websocket_close(
            socket_, static_cast<unsigned short>(kRewindCloseBase + static_cast<int>(reason)), nullptr);
        emscripten_websocket_delete(
            socket_);  // the close goes on in the browser; its callbacks are ours no more
    }
    socket_ = 0;
    open_ = false;
    accepted_ = false;
    held_.reset();
    push_event(tr::TransportEvent::Type::disconnected, reason);
}

void BrowserTransport::disconnect(tr::PeerId peer, tr::DisconnectReason reason) {
    if (peer != peer_ || socket_ <= 0) return;
    end(reason);
}

void BrowserTransport::refuse(int close_code) {
    // The server broke the wire rules: counted, closed, and to the session a lost connection.
    ++counters_.messages_refused;
    last_close_code_ = close_code;
    if (socket_ > 0) {
        emscripten_websocket_close(socket_, static_cast<unsigned short>(close_code), nullptr);
        emscripten_websocket_delete(socket_);
    }
    socket_ = 0;
    open_ = false;
    accepted_ = false;
    held_.reset();
    push_event(tr::TransportEvent::Type::disconnected, tr::DisconnectReason::timed_out);
}

void BrowserTransport::on_open(int socket) {
    if (socket != socket_) return;
    open_ = true;  // the handshake completed (the browser checked the subprotocol); the accept decides
}

void BrowserTransport::on_message(int socket, const std::uint8_t* data, std::size_t size, bool text) {
    if (socket != socket_) return;
    // Everything here is the server's word and untrusted: class, length and turn are checked before use.
    stats_.bytes_received += size + 2;  // the frame header, 2 bytes at least (server frames are not masked)
    ++stats_.packets_received;
    if (text) return refuse(kCloseUnsupported);
    if (size == 0) return refuse(kClosePolicy);
    const std::uint8_t cls = data[0];
    const std::size_t payload = size - 1;
    if (cls == kControl) {
        if (payload != 1 || data[1] != kAccept || accepted_) return refuse(kClosePolicy);
        accepted_ = true;
        push_event(tr::TransportEvent::Type::connected);
        return;
    }
    if (cls != kUnreliable && cls != kReliable) return refuse(kClosePolicy);
    if (!accepted_) return refuse(kClosePolicy);  // nothing but the accept comes first
    const std::size_t limit = cls == kUnreliable ? config_.max_message_size : config_.max_reliable_size;
    if (payload > limit) return refuse(kCloseTooBig);
    tr::TransportEvent ev;
    ev.type = tr::TransportEvent::Type::message;
    ev.peer = peer_;
    ev.delivery = cls == kUnreliable ? tr::Delivery::unreliable : tr::Delivery::reliable_ordered;
    ev.data.assign(data + 1, data + size);
    events_.push_back(std::move(ev));
}

void BrowserTransport::on_close(int socket, int code) {
    if (socket != socket_) return;
    last_close_code_ = code;
    emscripten_websocket_delete(socket_);
    socket_ = 0;
    open_ = false;
    held_.reset();
    // Before the accept only 4004 means something (refused); after it any rewind code (4000 + reason) is the
    // server closing on purpose. A reset, or a close without a rewind code, is a lost connection.
    tr::DisconnectReason reason = tr::DisconnectReason::timed_out;
    if (!accepted_ && code == kRefusedCode)
        reason = tr::DisconnectReason::refused;
    else if (accepted_ && code >= kRewindCloseBase && code < kRewindCloseBase + 1000)
        reason = tr::DisconnectReason::remote;
    accepted_ = false;
    push_event(tr::TransportEvent::Type::disconnected, reason);
}

std::size_t BrowserTransport::backlog() const {
    unsigned long long amount = 0;
    if (socket_ <= 0 ||
        emscripten_websocket_get_buffered_amount(socket_, &amount) != EMSCRIPTEN_RESULT_SUCCESS)
        return 0;
    return static_cast<std::size_t>(amount);
}

bool BrowserTransport::write(std::span<const std::uint8_t> frame) {
    // The browser's send() takes a non-const pointer but only reads it.
    if (emscripten_websocket_send_binary(socket_, const_cast<std::uint8_t*>(frame.data()),
                                         static_cast<std::uint32_t>(frame.size())) !=
        EMSCRIPTEN_RESULT_SUCCESS) {
        ++counters_.send_failures;
        return false;
    }
    // What goes on the wire: the frame header (2 bytes, 4 from 126 bytes) and the 4-byte mask.
    stats_.bytes_sent += frame.size() + (frame.size() < 126 ? 2 : 4) + 4;
    ++stats_.packets_sent;
    return true;
}

rwd::Status BrowserTransport::send(tr::PeerId peer, tr::Delivery delivery,
                                   std::span<const std::uint8_t> data) {
    if (peer != peer_ || socket_ <= 0 || !accepted_)
        return rwd::Error{rwd::Errc::not_connected, "no connection to that peer"};
    const bool unreliable = delivery == tr::Delivery::unreliable;
    if (data.size() > (unreliable ? config_.max_message_size : config_.max_reliable_size))
        return rwd::Error{rwd::Errc::length_too_long, "message over the transport's limit"};
    std::vector<std::uint8_t> frame;
    frame.reserve(data.size() + 1);
    frame.push_back(unreliable ? kUnreliable : kReliable);
    frame.insert(frame.end(), data.begin(), data.end());
    if (unreliable && backlog() > config_.max_backlog_bytes) {
        // The socket is backed up: the newest unreliable message waits, alone, for it to drain.
        if (held_) ++counters_.unreliable_replaced;
        held_ = std::move(frame);
        return {};
    }
    if (!write(frame)) return rwd::Error{rwd::Errc::io_error, "the browser refused the send"};
    return {};
}

void BrowserTransport::update(Micros now) {
    now_ = now;
    if (socket_ > 0 && !accepted_) {
        if (!connect_started_) {
            connect_started_ = true;
            connect_deadline_ = now + config_.connect_timeout;
        } else if (now >= connect_deadline_) {
            end(tr::DisconnectReason::timed_out);
        }
    }
    if (held_ && socket_ > 0 && backlog() <= config_.max_backlog_bytes) {
        (void)write(*held_);
        held_.reset();
    }
    // Rates over the last rate_window of `now`: one sample per update, the oldest inside the window kept.
    samples_.push_back(Sample{now, stats_.bytes_sent, stats_.bytes_received});
    while (samples_.size() > 2 && now - samples_[1].at >= config_.rate_window) samples_.pop_front();
    const Sample& first = samples_.front();
    const double span = (now - first.at).seconds();
    if (span > 0.0) {
        stats_.kbps_sent = static_cast<double>(stats_.bytes_sent - first.bytes_sent) * 8.0 / 1000.0 / span;
        stats_.kbps_received =
            static_cast<double>(stats_.bytes_received - first.bytes_received) * 8.0 / 1000.0 / span;
    }
}

bool BrowserTransport::poll(tr::TransportEvent& out) {
    if (events_.empty()) return false;
    out = std::move(events_.front());
    events_.pop_front();
    return true;
}

tr::PeerStats BrowserTransport::stats(tr::PeerId peer) const {
    // rtt, jitter and loss stay 0: a browser cannot see its TCP connection; the session measures RTT itself.
    return peer == peer_ ? stats_ : tr::PeerStats{};
}

}  // namespace web
