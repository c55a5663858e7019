// EnetTransport::Impl: the state behind EnetTransport, shared by its files (enet_transport.cpp: peers,
// events, statistics; enet_challenge.cpp: the stateless challenge before ENet's CONNECT).
#pragma once

#include <rewind/transport/enet_transport.hpp>

#include "transport/enet/connect_cookie.hpp"
#include "transport/enet/enet_library.hpp"
#include "transport/enet/enet_wire.hpp"
#include "transport/rate_window.hpp"

#include <enet/enet.h>

#include <algorithm>
#include <deque>
#include <map>
#include <optional>
#include <span>
#include <vector>

namespace rwd::transport {

namespace enet {

/// Spare ENet peer slots beyond max_peers: a connect arriving when the endpoint is full still gets a slot, so
/// it can be told "refused" instead of being ignored by ENet until it times out.
inline constexpr std::size_t kSpareSlots = 4;
/// Reliable sends in ENet's current loss interval needed before its running ratio is reported as the loss.
inline constexpr enet_uint32 kMinLossSamples = 16;
/// A connecting side repeats its challenge request this often until it has a cookie (requests are lost too).
inline constexpr Micros kChallengeRetry{250'000};

}  // namespace enet

class EnetTransport::Impl {
public:
    enum class State : std::uint8_t { connecting, awaiting_accept, connected };

    struct Peer {
        PeerId id = kInvalidPeer;
        ENetPeer* enet = nullptr;  // null while an outgoing peer still waits for its cookie
        ENetAddress address{};
        bool outgoing = false;
        State state = State::connecting;
        // Outgoing, before ENet's CONNECT: the challenge this side sent and what came back.
        std::uint64_t nonce = 0;
        std::optional<std::uint32_t> cookie;
        std::optional<Micros> give_up;  // set by the first update() after connect(): its clock, not ours
        Micros next_request{};
        std::uint32_t last_in_total = 0;  // ENet's per-peer totals, reset by ENet every second
        std::uint32_t last_out_total = 0;
        std::uint64_t bytes_in = 0;
        std::uint64_t bytes_out = 0;
        std::uint64_t messages_in = 0;
        std::uint64_t messages_out = 0;
        RateWindow rate;
        std::vector<TransportEvent> held;  // messages that overtook the accept
    };

    Impl(EnetConfig config, enet::EnetLibrary library)
        : config_(std::move(config)), library_(std::move(library)) {}
    ~Impl();

    Status open();
    Result<PeerId> connect(const Address& to);
    void disconnect(PeerId id, DisconnectReason reason);
    Status send(PeerId id, Delivery delivery, std::span<const std::uint8_t> data);
    void update(Micros now);
    bool poll(TransportEvent& out);
    [[nodiscard]] PeerStats stats(PeerId id) const;
    [[nodiscard]] Address local_address() const;

    EnetConfig config_;
    EnetCounters counters_;
    std::map<PeerId, Peer> peers_;

private:
    static int ENET_CALLBACK intercept(ENetHost* host, ENetEvent* event);
    bool challenge_datagram(const ENetAddress& from, std::span<const std::uint8_t> d);
    void send_raw(const ENetAddress& to, std::span<const std::uint8_t> d);
    [[nodiscard]] std::size_t half_open(std::uint32_t host) const;
    void time_out_half_open();
    Peer* challenging(const ENetAddress& from, std::uint64_t nonce);
    void advance_challenges();

    Peer* find(PeerId id);
    Peer* find(const ENetPeer* p);
    void absorb_totals();
    void on_connect(const ENetEvent& ev);
    void on_receive(const ENetEvent& ev);
    void on_disconnect(const ENetEvent& ev);
    void refuse(ENetPeer* p, std::uint64_t& counter);
    void surface_connected(Peer& p);
    void push_disconnected(PeerId id, DisconnectReason reason);
    void apply_timeouts(ENetPeer* p) const;

    enet::EnetLibrary library_;
    enet::ConnectCookie cookies_;
    ENetHost* host_ = nullptr;
    PeerId next_id_ = 1;
    Micros now_{};
    std::deque<TransportEvent> events_;
};

/// The transport whose enet_host_service() call is running on this thread (ENet calls the intercept hook
/// with no user pointer): set by update() for the length of that call only.
EnetTransport::Impl*& servicing_transport();

}  // namespace rwd::transport
