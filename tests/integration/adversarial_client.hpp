/// A hostile client for the adversarial tests: a raw SimNetwork endpoint (or a real one) that speaks the
/// client-server protocol through the real message encoders (and, where the encoders refuse, through its own
/// Input codec), plus raw datagrams injected on its simulated link. No hooks in the library: everything goes
/// over the transport.
#pragma once

#include <arena/arena_game.hpp>

#include <rewind/session/client_server/message_codec.hpp>
#include <rewind/session/client_server/packets.hpp>
#include <rewind/transport/sim_network.hpp>

#include <cstdint>
#include <vector>

namespace adversary {

namespace cs = rwd::client_server;
namespace tp = rwd::transport;
using rwd::Micros;
using rwd::Tick;

/// An arena Input as a cheater would send it: every field written raw at the wire's width, so values the
/// real encoder refuses (axis offset 255 = +128) go out anyway. Same layout as arena::serialize(Input).
struct RawInput {
    std::uint32_t move_x_bits = 127;  ///< 8-bit offset from -127 (127 = 0; 255 = +128: out of range)
    std::uint32_t move_y_bits = 127;  ///< likewise
    std::uint32_t buttons = 0;        ///< 4 bits
    std::uint32_t aim = 0;            ///< 16 bits
    std::uint32_t view_delay = 0;     ///< 6 bits
    std::uint32_t fraction = 0;       ///< 16 bits
};

/// Writes a RawInput exactly as the arena's Input codec lays it out (write only; a hostile client never
/// reads).
template <class Stream>
bool serialize(Stream& s, RawInput& in) {
    using rwd::wire::serialize_bits;
    return serialize_bits(s, in.move_x_bits, 8) && serialize_bits(s, in.move_y_bits, 8) &&
           serialize_bits(s, in.buttons, arena::kButtonBits) && serialize_bits(s, in.aim, 16) &&
           serialize_bits(s, in.view_delay, 6) && serialize_bits(s, in.fraction, 16);
}

/// One hostile connection.
class Attacker {
public:
    /// An endpoint at `self` in `net`, aimed at `server`.
    Attacker(tp::SimNetwork& net, tp::Address self, tp::Address server)
        : net_(&net), self_(std::move(self)), server_(std::move(server)) {
        ep_ = net_->create_endpoint(self_).value();
    }
    /// Any other endpoint (a real one: UDP, WebSocket), aimed at `server`; inject() is not available.
    Attacker(tp::Transport& endpoint, tp::Address server) : server_(std::move(server)), ep_(&endpoint) {}

    /// Opens the transport connection at `now`; with `hello` the ConnectRequest follows as soon as it is up.
    void connect(Micros now, bool hello = true) {
        // A new endpoint starts at the network's time, which only advance_to() moves; harnesses that update
        // each endpoint themselves leave it behind, and a connect made before the endpoint's first update
        // would time out at once. Bring this endpoint (only) to `now` first.
        ep_->update(now);
        auto r = ep_->connect(server_);
        if (r.ok()) peer_ = r.value();
        send_hello_ = hello;
    }
    /// Pumps the endpoint: hello on connect, notes the accept, a Disconnect's code and transport drops.
    void pump(Micros now) {
        ep_->update(now);
        tp::TransportEvent ev;
        while (ep_->poll(ev)) {
            if (ev.type == tp::TransportEvent::Type::connected && send_hello_) {
                cs::ConnectRequest req;
                send(tp::Delivery::reliable_ordered, req);
            } else if (ev.type == tp::TransportEvent::Type::disconnected) {
                transport_closed_ = true;
            } else if (ev.type == tp::TransportEvent::Type::message) {
                cs::ConnectAccept acc;
                cs::Disconnect bye;
                if (cs::decode_message(ev.data, acc).ok()) {
                    seated_ = true;
                    slot_ = acc.slot;
                    server_tick_ = acc.server_tick;
                } else if (cs::decode_message(ev.data, bye).ok()) {
                    told_ = bye.code;
                }
            }
        }
    }
    /// Sends an encoded message.
    template <class Msg>
    bool send(tp::Delivery d, Msg& m) {
        std::vector<std::uint8_t> bytes;
        if (!cs::encode_message(m, bytes).ok()) return false;
        return send_bytes(d, bytes);
    }
    /// Sends raw bytes as one message.
    bool send_bytes(tp::Delivery d, const std::vector<std::uint8_t>& bytes) {
        return peer_ != tp::kInvalidPeer && ep_->send(peer_, d, bytes).ok();
    }
    /// Puts a raw datagram on the link to the server, transport header and all (or none).
    void inject(Micros now, std::vector<std::uint8_t> datagram) {
        if (net_ != nullptr) net_->inject(now, self_, server_, std::move(datagram));
    }
    /// Input packet with `count` copies of `in` for ticks newest, newest-1, ...
    template <class In>
    bool send_inputs(Tick newest, const In& in, std::uint8_t count = 1) {
        cs::InputPacket<In> p;
        p.sequence = sequence_++;
        p.newest_tick = newest;
        p.count = count;
        p.inputs.fill(in);
        p.interpolation_delay_ms = interpolation_delay_ms_;
        return send(tp::Delivery::unreliable, p);
    }
    /// The interpolation delay its input packets claim from now on (ms; the server bounds it).
    void claim_interpolation_delay(std::uint16_t ms) { interpolation_delay_ms_ = ms; }

    /// Whether the server accepted the hello.
    [[nodiscard]] bool seated() const { return seated_; }
    /// The slot it was given.
    [[nodiscard]] int slot() const { return slot_; }
    /// The server's tick in the accept.
    [[nodiscard]] Tick server_tick() const { return server_tick_; }
    /// The code of the Disconnect the server sent, or none.
    [[nodiscard]] cs::DisconnectCode told() const { return told_; }
    /// Whether the transport connection is gone.
    [[nodiscard]] bool transport_closed() const { return transport_closed_; }

private:
    tp::SimNetwork* net_ = nullptr;  // null: a real endpoint, nothing to inject into
    tp::Address self_;
    tp::Address server_;
    tp::Transport* ep_ = nullptr;
    tp::PeerId peer_ = tp::kInvalidPeer;
    std::uint16_t interpolation_delay_ms_ = 0;
    bool send_hello_ = true;
    bool seated_ = false;
    bool transport_closed_ = false;
    int slot_ = -1;
    Tick server_tick_{};
    std::uint16_t sequence_ = 0;
    cs::DisconnectCode told_ = cs::DisconnectCode::none;
};

}  // namespace adversary
