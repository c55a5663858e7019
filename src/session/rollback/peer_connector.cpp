// PeerConnector: one connection per pair of machines, bound to slots by a one-message introduction.
#include <rewind/session/rollback/peer_connector.hpp>
#include <rewind/transport/address_text.hpp>

#include <algorithm>
#include <array>
#include <span>

namespace rwd::rollback {

namespace {

// The introduction: "RWIN", version, session tag (little-endian), player count, the sender's slot mask.
constexpr std::array<std::uint8_t, 4> kIntroMagic{'R', 'W', 'I', 'N'};
constexpr std::uint8_t kIntroVersion = 1;
constexpr std::size_t kIntroBytes = 11;
constexpr int kMaxSlots = 8;

std::array<std::uint8_t, kIntroBytes> intro_bytes(std::uint32_t tag, int players, std::uint8_t mask) {
    std::array<std::uint8_t, kIntroBytes> b{};
    std::copy(kIntroMagic.begin(), kIntroMagic.end(), b.begin());
    b[4] = kIntroVersion;
    for (int i = 0; i < 4; ++i)
        b[5 + static_cast<std::size_t>(i)] = static_cast<std::uint8_t>(tag >> (8 * i));
    b[9] = static_cast<std::uint8_t>(players);
    b[10] = mask;
    return b;
}

bool is_local(const std::string& entry) { return entry == "local"; }

}  // namespace

Status ConnectorConfig::validate() const {
    if (players.size() < 2 || players.size() > static_cast<std::size_t>(kMaxSlots))
        return Error{Errc::invalid_config, "players: 2..8 slots"};
    bool any_local = false;
    for (const std::string& p : players) {
        if (is_local(p)) {
            any_local = true;
            continue;
        }
        if (!transport::parse_address(p).ok())
            return Error{Errc::invalid_config, "players: each entry is \"local\" or HOST:PORT"};
    }
    if (!any_local) return Error{Errc::invalid_config, "players: no \"local\" slot"};
    if (std::all_of(players.begin(), players.end(), is_local))
        return Error{Errc::invalid_config, "players: no remote slot"};
    if (retry_interval.count <= 0) return Error{Errc::invalid_config, "retry_interval must be > 0"};
    if (timeout.count <= 0) return Error{Errc::invalid_config, "timeout must be > 0"};
    return Status{};
}

Result<PeerConnector> PeerConnector::create(transport::Transport& transport, const ConnectorConfig& config) {
    if (Status s = config.validate(); !s.ok()) return s.error();
    return PeerConnector(transport, config);
}

PeerConnector::PeerConnector(transport::Transport& transport, const ConnectorConfig& config)
    : transport_(&transport), config_(config) {
    for (std::size_t slot = 0; slot < config_.players.size(); ++slot) {
        const std::string& entry = config_.players[slot];
        if (is_local(entry)) {
            slot_machine_.push_back(-1);
            local_slots_.push_back(static_cast<int>(slot));
            local_mask_ = static_cast<std::uint8_t>(local_mask_ | (1u << slot));
            continue;
        }
        const transport::Address a = transport::parse_address(entry).value();  // validated
        auto it = std::find_if(machines_.begin(), machines_.end(),
                               [&](const Machine& m) { return m.address == a; });
        if (it == machines_.end()) {
            Machine m;
            m.address = a;
            m.lowest_slot = static_cast<int>(slot);
            machines_.push_back(m);
            it = machines_.end() - 1;
        }
        it->slot_mask = static_cast<std::uint8_t>(it->slot_mask | (1u << slot));
        slot_machine_.push_back(static_cast<int>(it - machines_.begin()));
    }
    // The machine whose lowest slot is higher connects; the other waits.
    for (Machine& m : machines_) m.we_connect = local_slots_.front() > m.lowest_slot;
}

transport::PeerId PeerConnector::peer_of(int slot) const {
    if (state_ != ConnectorState::ready || slot < 0 || slot >= num_players()) return transport::kInvalidPeer;
    const int m = slot_machine_[static_cast<std::size_t>(slot)];
    return m < 0 ? transport::kInvalidPeer : machines_[static_cast<std::size_t>(m)].peer;
}

PeerConnector::Machine* PeerConnector::machine_of(transport::PeerId peer) {
    for (Machine& m : machines_)
        if (m.peer == peer) return &m;
    return nullptr;
}

void PeerConnector::update(Micros now) {
    if (state_ != ConnectorState::connecting) return;
    if (!started_) started_ = true, deadline_ = now + config_.timeout;
    for (Machine& m : machines_) {
        if (!m.we_connect || m.peer != transport::kInvalidPeer || now < m.next_attempt) continue;
        auto c = transport_->connect(m.address);
        ++stats_.attempts;
        if (!c.ok()) {
            state_ = ConnectorState::failed;
            error_ = c.error();
            return;
        }
        m.peer = c.value();
        m.next_attempt = now + config_.retry_interval;
    }
    transport_->update(now);
    now_ = now;
    transport::TransportEvent e;
    while (state_ == ConnectorState::connecting && transport_->poll(e)) {
        if (e.type == transport::TransportEvent::Type::connected) on_connected(e.peer);
        if (e.type == transport::TransportEvent::Type::disconnected) on_disconnected(e.peer);
        if (e.type == transport::TransportEvent::Type::message) on_message(e.peer, e.data);
        if (std::all_of(machines_.begin(), machines_.end(), [](const Machine& m) { return m.bound; }))
            state_ = ConnectorState::ready;
    }
    if (state_ == ConnectorState::connecting && now >= deadline_) {
        state_ = ConnectorState::failed;
        error_ = Error{Errc::timed_out, "not every player's machine was found in time"};
    }
}

void PeerConnector::on_connected(transport::PeerId peer) {
    if (Machine* m = machine_of(peer); m && m->we_connect) {
        send_intro(*m);
        m->bound = true;
        return;
    }
    waiting_.push_back(peer);  // someone connected to us: its introduction says who
}

void PeerConnector::on_disconnected(transport::PeerId peer) {
    std::erase(waiting_, peer);
    Machine* m = machine_of(peer);
    if (!m) return;
    if (m->bound) ++stats_.peers_lost;
    m->peer = transport::kInvalidPeer;
    m->bound = false;
    m->next_attempt = std::max(m->next_attempt, now_);
}

void PeerConnector::on_message(transport::PeerId peer, const std::vector<std::uint8_t>& data) {
    const bool waiting = std::find(waiting_.begin(), waiting_.end(), peer) != waiting_.end();
    const bool intro =
        data.size() >= kIntroMagic.size() && std::equal(kIntroMagic.begin(), kIntroMagic.end(), data.begin());
    if (!waiting || !intro) {
        ++stats_.messages_dropped;  // early handshakes (resent) or a bound peer's traffic
        return;
    }
    std::erase(waiting_, peer);
    Machine* match = nullptr;
    if (data.size() == kIntroBytes && data[4] == kIntroVersion) {
        const auto expected = intro_bytes(config_.session_tag, num_players(), data[10]);
        if (std::equal(expected.begin(), expected.end(), data.begin()))
            for (Machine& m : machines_)
                if (!m.we_connect && !m.bound && m.slot_mask == data[10]) match = &m;
    }
    if (!match) {
        ++stats_.intros_refused;
        transport_->disconnect(peer, transport::DisconnectReason::refused);
        return;
    }
    ++stats_.intros_accepted;
    match->peer = peer;
    match->bound = true;
}

void PeerConnector::send_intro(Machine& m) {
    const auto b = intro_bytes(config_.session_tag, num_players(), local_mask_);
    if (transport_->send(m.peer, transport::Delivery::reliable_ordered, std::span<const std::uint8_t>(b))
            .ok())
        ++stats_.intros_sent;
}

}  // namespace rwd::rollback
