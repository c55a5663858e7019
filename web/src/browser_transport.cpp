// BrowserTransport: Emscripten WebSocket callbacks queue events; class bytes, the accept, close codes, rates.
#include "browser_transport.hpp"

#include "transport/websocket/ws_message.hpp"

#include <emscripten/emscripten.h>
#include <emscripten/websocket.h>

#include <algorithm>
#include <cassert>
#include <cstdio>

namespace web {

namespace tr = rwd::transport;
using rwd::Micros;

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
        emscripten_websocket_close(socket_, tr::ws::close_code(tr::DisconnectReason::remote), nullptr);
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
    const std::string protocol(tr::ws::kSubprotocol);
    attrs.protocols = protocol.c_str();
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
    rate_ = {};
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
        emscripten_websocket_close(socket_, tr::ws::close_code(reason), nullptr);
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
    // Everything here is the server's word and untrusted: the native transport's rules check class, length
    // and turn before use.
    stats_.bytes_received += size + tr::ws::frame_overhead(size, false);  // server frames are not masked
    ++stats_.packets_received;
    const tr::ws::Limits limits{config_.max_message_size, config_.max_reliable_size};
    const tr::ws::Incoming in = tr::ws::classify({data, size}, text, limits, !accepted_);
    if (in.refusal != tr::ws::Refusal::none) return refuse(tr::ws::close_code_of(in.refusal));
    if (in.accept) {
        accepted_ = true;
        push_event(tr::TransportEvent::Type::connected);
        return;
    }
    tr::TransportEvent ev;
    ev.type = tr::TransportEvent::Type::message;
    ev.peer = peer_;
    ev.delivery = in.delivery;
    ev.data.assign(in.payload.begin(), in.payload.end());
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
    const tr::DisconnectReason reason = tr::ws::reason_of_close(static_cast<std::uint16_t>(code), accepted_);
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
    stats_.bytes_sent += frame.size() + tr::ws::frame_overhead(frame.size(), true);  // header and mask
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
    std::vector<std::uint8_t> frame = tr::ws::frame(delivery, data);
    if (unreliable && (held_ || backlog() > config_.max_backlog_bytes)) {
        // The socket is backed up: the newest unreliable message waits, alone, for it to drain (while one
        // waits, a newer one replaces it and never overtakes it).
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
    rate_.sample(now, stats_.bytes_sent, stats_.bytes_received, config_.rate_window);
    stats_.kbps_sent = rate_.kbps_sent();
    stats_.kbps_received = rate_.kbps_received();
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
