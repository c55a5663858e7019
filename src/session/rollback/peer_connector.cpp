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
constexpr std::uint8_t kIntroVersion = 2;  // 2: the waiting side answers with its own
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

PeerConnector::PeerConnector(PeerConnector&& other) noexcept { *this = std::move(other); }

PeerConnector& PeerConnector::operator=(PeerConnector&& other) noexcept {
    if (this == &other) return *this;
    transport_ = other.transport_;
    config_ = std::move(other.config_);
    slot_machine_ = std::move(other.slot_machine_);
    local_slots_ = std::move(other.local_slots_);
    local_mask_ = other.local_mask_;
    machines_ = std::move(other.machines_);
    waiting_ = std::move(other.waiting_);
    state_ = other.state_;
    error_ = other.error_;
    stats_ = other.stats_;
    started_ = other.started_;
    deadline_ = other.deadline_;
    now_ = other.now_;
    other.transport_ = nullptr;  // a moved-from connector drives nothing
    other.state_ = ConnectorState::failed;
    other.error_ = Error{Errc::invalid_argument, "moved from"};
    return *this;
}

void PeerConnector::update(Micros now) {
    if (state_ != ConnectorState::connecting || transport_ == nullptr) return;
    if (!started_) started_ = true, deadline_ = now + config_.timeout;
    now_ = now;
    for (Machine& m : machines_) {
        if (!m.we_connect || m.peer != transport::kInvalidPeer || now < m.next_attempt) continue;
        auto c = transport_->connect(m.address);
        ++stats_.attempts;
        m.next_attempt = now + config_.retry_interval;
        if (c.ok()) {
            m.peer = c.value();
        } else if (c.code() != Errc::too_many_peers && c.code() != Errc::already_exists) {
            state_ = ConnectorState::failed;  // a host that does not resolve, a closed endpoint
            error_ = c.error();
            return;
        }  // else: no room on the endpoint yet (strangers hold it until their deadline): later
    }
    transport_->update(now);
    transport::TransportEvent e;
    while (state_ == ConnectorState::connecting && transport_->poll(e)) {
        if (e.type == transport::TransportEvent::Type::connected) on_connected(e.peer);
        if (e.type == transport::TransportEvent::Type::disconnected) on_disconnected(e.peer);
        if (e.type == transport::TransportEvent::Type::message) on_message(e.peer, e.data);
        if (std::all_of(machines_.begin(), machines_.end(), [](const Machine& m) { return m.bound; }))
            state_ = ConnectorState::ready;
    }
    // A connection that never introduces itself gives its place back.
    for (std::size_t i = 0; state_ == ConnectorState::connecting && i < waiting_.size();) {
        if (now - waiting_[i].since < config_.retry_interval * 4) {
            ++i;
            continue;
        }
        ++stats_.intros_missing;
        transport_->disconnect(waiting_[i].peer, transport::DisconnectReason::refused);
        waiting_.erase(waiting_.begin() + static_cast<std::ptrdiff_t>(i));
    }
    if (state_ == ConnectorState::connecting && now >= deadline_) {
        state_ = ConnectorState::failed;
        error_ = Error{Errc::timed_out, "not every player's machine was found in time"};
    }
}

void PeerConnector::on_connected(transport::PeerId peer) {
    if (Machine* m = machine_of(peer); m && m->we_connect) {
        send_intro(m->peer);  // bound when its answer (its own introduction) arrives
        return;
    }
    waiting_.push_back(Waiting{peer, now_});  // someone connected to us: its introduction says who
}

void PeerConnector::on_disconnected(transport::PeerId peer) {
    std::erase_if(waiting_, [peer](const Waiting& w) { return w.peer == peer; });
    Machine* m = machine_of(peer);
    if (!m) return;
    if (m->bound) ++stats_.peers_lost;
    m->peer = transport::kInvalidPeer;
    m->bound = false;
    if (m->we_connect) m->next_attempt = now_ + config_.retry_interval;
}

bool PeerConnector::valid_intro(const std::vector<std::uint8_t>& data, std::uint8_t mask) const {
    if (data.size() != kIntroBytes) return false;
    const auto expected = intro_bytes(config_.session_tag, num_players(), mask);
    return std::equal(expected.begin(), expected.end(), data.begin());
}

void PeerConnector::on_message(transport::PeerId peer, const std::vector<std::uint8_t>& data) {
    const bool intro =
        data.size() >= kIntroMagic.size() && std::equal(kIntroMagic.begin(), kIntroMagic.end(), data.begin());
    Machine* ours = machine_of(peer);
    if (intro && ours && ours->we_connect && !ours->bound) {  // the answer to our introduction
        if (valid_intro(data, ours->slot_mask)) {
            ours->bound = true;
            ++stats_.intros_accepted;
            return;
        }
        ++stats_.intros_refused;
        transport_->disconnect(peer, transport::DisconnectReason::refused);
        return;  // on_disconnected() follows: a retry after retry_interval
    }
    const auto w =
        std::find_if(waiting_.begin(), waiting_.end(), [peer](const Waiting& x) { return x.peer == peer; });
    if (w == waiting_.end() || !intro) {
        ++stats_.messages_dropped;  // early handshakes (resent) or a bound peer's traffic
        return;
    }
    waiting_.erase(w);
    Machine* match = nullptr;
    if (data.size() == kIntroBytes)
        for (Machine& m : machines_)
            if (!m.we_connect && !m.bound && valid_intro(data, m.slot_mask)) match = &m;
    if (!match) {
        ++stats_.intros_refused;
        transport_->disconnect(peer, transport::DisconnectReason::refused);
        return;
    }
    send_intro(peer);  // the answer: now the other side binds too
    ++stats_.intros_accepted;
    match->peer = peer;
    match->bound = true;
}

void PeerConnector::send_intro(transport::PeerId peer) {
    const auto b = intro_bytes(config_.session_tag, num_players(), local_mask_);
    if (transport_->send(peer, transport::Delivery::reliable_ordered, std::span<const std::uint8_t>(b)).ok())
        ++stats_.intros_sent;
}

}  // namespace rwd::rollback
