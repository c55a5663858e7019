// WebSocketTransport: the endpoint (listening, connecting), peers and their events, sends with the backlog
// rule, statistics; one connection's I/O is in ws_connection.cpp.
#include <rewind/transport/websocket_transport.hpp>

#include "transport/websocket/ws_connection.hpp"

#include <boost/asio/ip/address.hpp>

#include <string>
#include <utility>

namespace rwd::transport {

using ws::Connection;
using ws::ConnState;

Status WebSocketConfig::validate() const {
    auto bad = [](const char* what) { return Error{Errc::invalid_config, what}; };
    if (max_peers < 1 || max_peers > 4096) return bad("WebSocketConfig.max_peers must be 1..4096");
    if (max_handshakes < 1 || max_handshakes > 4096)
        return bad("WebSocketConfig.max_handshakes must be 1..4096");
    if (max_message_size < 16 || max_message_size > 65536)
        return bad("WebSocketConfig.max_message_size must be 16..65536");
    if (max_reliable_size < max_message_size || max_reliable_size > (16u << 20))
        return bad("WebSocketConfig.max_reliable_size must be max_message_size..16 MiB");
    if (max_backlog_bytes > (16u << 20)) return bad("WebSocketConfig.max_backlog_bytes must be <= 16 MiB");
    if (max_reliable_backlog < max_reliable_size || max_reliable_backlog > (1u << 30))
        return bad("WebSocketConfig.max_reliable_backlog must be max_reliable_size..1 GiB");
    if (handshake_timeout < Micros{100'000} || handshake_timeout > Micros{60'000'000})
        return bad("WebSocketConfig.handshake_timeout must be 0.1..60 s");
    if (timeout < Micros{1'000'000} || timeout > Micros{600'000'000})
        return bad("WebSocketConfig.timeout must be 1..600 s");
    if (rate_window < Micros{10'000} || rate_window > Micros{60'000'000})
        return bad("WebSocketConfig.rate_window must be 0.01..60 s");
    return {};
}

WebSocketTransport::Impl::~Impl() {
    // Every open connection gets a goodbye (4002) as far as a few non-blocking rounds write it.
    if (acceptor_) {
        boost::system::error_code ignored;
        acceptor_->close(ignored);
    }
    for (auto& [id, c] : peers_)
        if (c->state == ConnState::connected || c->state == ConnState::awaiting_accept)
            c->close(ws::close_code(DisconnectReason::remote));
    for (int round = 0; round < 16; ++round) {
        io_.restart();
        if (io_.poll() == 0) break;
    }
    for (auto& [id, c] : peers_) c->abort();
}

Status WebSocketTransport::Impl::open() {
    if (auto s = config_.validate(); !s.ok()) return s;
    if (!config_.accept_incoming) return {};
    boost::system::error_code ec;
    const auto address = boost::asio::ip::make_address_v4(config_.bind_host, ec);
    if (ec) return Error{Errc::invalid_config, "WebSocketConfig.bind_host must be a numeric IPv4 address"};
    acceptor_.emplace(io_);
    const ws::tcp::endpoint at(address, config_.port);
    acceptor_->open(at.protocol(), ec);
    if (!ec) acceptor_->set_option(ws::tcp::acceptor::reuse_address(true), ec);
    if (!ec) acceptor_->bind(at, ec);
    if (!ec) acceptor_->listen(boost::asio::socket_base::max_listen_connections, ec);
    if (ec) return Error{Errc::io_error, "cannot listen for WebSocket connections: " + ec.message()};
    start_accept();
    return {};
}

void WebSocketTransport::Impl::start_accept() {
    acceptor_->async_accept([this](boost::system::error_code ec, ws::tcp::socket socket) {
        if (ec == boost::asio::error::operation_aborted || !acceptor_ || !acceptor_->is_open()) return;
        if (ec) {  // out of descriptors, or the like: try again at the next update(), not in a busy loop
            accept_again_ = true;
            return;
        }
        {
            if (handshakes_ >= config_.max_handshakes) {
                ++counters_.refused_full;
                boost::system::error_code ignored;
                socket.close(ignored);
            } else {
                ++handshakes_;
                std::make_shared<Connection>(*this, std::move(socket), false)->start_server();
            }
        }
        start_accept();
    });
}

Result<PeerId> WebSocketTransport::Impl::connect(const Address& to) {
    ws::tcp::resolver resolver(io_);
    boost::system::error_code ec;
    const auto endpoints = resolver.resolve(to.host, std::to_string(to.port), ec);
    if (ec || endpoints.empty()) return Error{Errc::io_error, "cannot resolve " + to.host};
    auto c = std::make_shared<Connection>(*this, ws::tcp::socket(io_), true);
    c->id = next_id_++;
    peers_[c->id] = c;
    c->start_client(endpoints, to.host + ":" + std::to_string(to.port));
    return c->id;
}

void WebSocketTransport::Impl::seat(const std::shared_ptr<Connection>& c) {
    if (seated_ >= config_.max_peers) {
        ++counters_.refused_full;
        c->close(ws::kCloseRefused);
        return;
    }
    c->id = next_id_++;
    c->state = ConnState::connected;
    c->accepted = true;
    ++seated_;
    ++counters_.connections_accepted;
    peers_[c->id] = c;
    c->queue(ws::accept_message());
    TransportEvent e;
    e.type = TransportEvent::Type::connected;
    e.peer = c->id;
    events_.push_back(std::move(e));
}

void WebSocketTransport::Impl::accepted(const std::shared_ptr<Connection>& c) {
    TransportEvent e;
    e.type = TransportEvent::Type::connected;
    e.peer = c->id;
    events_.push_back(std::move(e));
}

void WebSocketTransport::Impl::deliver(Connection& c, Delivery delivery,
                                       std::span<const std::uint8_t> payload) {
    TransportEvent e;
    e.type = TransportEvent::Type::message;
    e.peer = c.id;
    e.delivery = delivery;
    e.data.assign(payload.begin(), payload.end());
    events_.push_back(std::move(e));
}

void WebSocketTransport::Impl::ended(Connection& c, DisconnectReason reason) {
    if (c.id == kInvalidPeer || c.state == ConnState::closing || c.state == ConnState::closed) return;
    const auto it = peers_.find(c.id);
    if (it == peers_.end()) return;
    if (!c.outgoing) --seated_;
    TransportEvent e;
    e.type = TransportEvent::Type::disconnected;
    e.peer = c.id;
    e.reason = reason;
    events_.push_back(std::move(e));
    peers_.erase(it);  // the connection lives on in its handlers until its socket is gone
}

void WebSocketTransport::Impl::disconnect(PeerId id, DisconnectReason reason) {
    const auto it = peers_.find(id);
    if (it == peers_.end()) return;
    auto c = it->second;
    if (!c->outgoing) --seated_;
    peers_.erase(it);
    if (c->state == ConnState::handshaking)
        c->abort();
    else
        c->close(ws::close_code(reason));
    TransportEvent e;
    e.type = TransportEvent::Type::disconnected;
    e.peer = id;
    e.reason = reason;
    events_.push_back(std::move(e));
}

Status WebSocketTransport::Impl::send(PeerId id, Delivery delivery, std::span<const std::uint8_t> data) {
    const auto it = peers_.find(id);
    if (it == peers_.end() || it->second->state != ConnState::connected)
        return Error{Errc::not_connected, "no such WebSocket peer"};
    const bool reliable = delivery == Delivery::reliable_ordered;
    if (data.size() > (reliable ? config_.max_reliable_size : config_.max_message_size))
        return Error{Errc::length_too_long, "message larger than the WebSocket transport carries"};
    const std::shared_ptr<Connection> c = it->second;     // ended() below forgets it
    if (!reliable && (c->holding() || c->backed_up())) {  // held: a newer one replaces it, never overtakes it
        if (c->hold(ws::frame(delivery, data))) ++counters_.unreliable_replaced;
        return {};
    }
    c->queue(ws::frame(delivery, data));
    if (reliable && c->queued_bytes() > config_.max_reliable_backlog) {
        ++counters_.backlog_drops;
        ended(*c, DisconnectReason::timed_out);
        c->abort();
    }
    return {};
}

void WebSocketTransport::Impl::update(Micros now) {
    if (accept_again_ && acceptor_ && acceptor_->is_open()) {
        accept_again_ = false;
        start_accept();
    }
    io_.restart();
    io_.poll();
    // A copy: nothing below may change the map under the loop.
    std::vector<std::shared_ptr<Connection>> live;
    live.reserve(peers_.size());
    for (auto& [id, c] : peers_) live.push_back(c);
    for (auto& c : live) c->service();
    io_.restart();
    io_.poll();
    for (auto& [id, c] : peers_) {
        c->rate.sample(now, c->bytes_out, c->bytes_in, config_.rate_window);
        const auto sample = c->tcp_sample();
        c->in_loss_state = sample.loss_state;
        if (c->messages_out > c->messages_at_loss) {
            const auto retrans = sample.retransmitted - std::min(sample.retransmitted, c->retrans_at_loss);
            c->loss = std::min(1.0, static_cast<double>(retrans) /
                                        static_cast<double>(c->messages_out - c->messages_at_loss));
            c->messages_at_loss = c->messages_out;
            c->retrans_at_loss = sample.retransmitted;
        }
    }
}

bool WebSocketTransport::Impl::poll(TransportEvent& out) {
    if (events_.empty()) return false;
    out = std::move(events_.front());
    events_.pop_front();
    return true;
}

PeerStats WebSocketTransport::Impl::stats(PeerId id) const {
    PeerStats s;
    const auto it = peers_.find(id);
    if (it == peers_.end()) return s;
    Connection& c = *it->second;
    const auto sample = c.tcp_sample();
    s.rtt = sample.rtt;
    s.jitter = sample.jitter;
    s.loss = c.loss;
    s.bytes_sent = c.bytes_out;
    s.bytes_received = c.bytes_in;
    s.packets_sent = c.messages_out;
    s.packets_received = c.messages_in;
    s.kbps_sent = c.rate.kbps_sent();
    s.kbps_received = c.rate.kbps_received();
    return s;
}

Address WebSocketTransport::Impl::local_address() const {
    if (!acceptor_ || !acceptor_->is_open()) return {config_.bind_host, 0};
    boost::system::error_code ec;
    const auto at = acceptor_->local_endpoint(ec);
    return {config_.bind_host, ec ? std::uint16_t{0} : at.port()};
}

// The public face.

Result<std::unique_ptr<WebSocketTransport>> WebSocketTransport::create(const WebSocketConfig& config) {
    auto impl = std::make_unique<Impl>(config);
    if (auto s = impl->open(); !s.ok()) return s.error();
    return std::unique_ptr<WebSocketTransport>(new WebSocketTransport(std::move(impl)));
}
WebSocketTransport::WebSocketTransport(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
WebSocketTransport::~WebSocketTransport() = default;
Result<PeerId> WebSocketTransport::connect(const Address& to) { return impl_->connect(to); }
void WebSocketTransport::disconnect(PeerId peer, DisconnectReason reason) { impl_->disconnect(peer, reason); }
Status WebSocketTransport::send(PeerId peer, Delivery delivery, std::span<const std::uint8_t> data) {
    return impl_->send(peer, delivery, data);
}
void WebSocketTransport::update(Micros now) { impl_->update(now); }
bool WebSocketTransport::poll(TransportEvent& out) { return impl_->poll(out); }
PeerStats WebSocketTransport::stats(PeerId peer) const { return impl_->stats(peer); }
std::size_t WebSocketTransport::max_message_size() const { return impl_->config_.max_message_size; }
std::size_t WebSocketTransport::header_bytes() const {
    // A small message's frame header (2 bytes) and class byte; what a client sends is masked (4 more).
    return impl_->config_.accept_incoming ? 3 : 7;
}
Address WebSocketTransport::local_address() const { return impl_->local_address(); }
std::size_t WebSocketTransport::peer_count() const { return impl_->peers_.size(); }
WebSocketCounters WebSocketTransport::counters() const { return impl_->counters_; }
const WebSocketConfig& WebSocketTransport::config() const { return impl_->config_; }

}  // namespace rwd::transport
