/// SpectatorSession: follows a match from the confirmed inputs a host broadcasts; never rolls back.
#pragma once

#include <rewind/core/result.hpp>
#include <rewind/core/time.hpp>
#include <rewind/session/game.hpp>
#include <rewind/session/rollback/detail/input_queue.hpp>
#include <rewind/session/rollback/detail/peer_link.hpp>
#include <rewind/session/rollback/game_traits.hpp>
#include <rewind/session/rollback/types.hpp>
#include <rewind/transport/transport.hpp>

#include <algorithm>
#include <deque>
#include <limits>
#include <memory>
#include <vector>

namespace rwd::rollback {

/// The knobs of a SpectatorSession.
struct SpectatorConfig {
    int num_players = 2;         ///< must match the host's session
    int catchup_threshold = 6;   ///< frames behind the host before running faster
    int max_catchup_frames = 8;  ///< most frames simulated in one advance() while catching up
    int sync_roundtrips = 5;     ///< handshake round trips
    Micros sync_retry{200'000};  ///< handshake repeat interval (also while the host does not exist yet)
    Micros disconnect_notice{500'000};     ///< silence before `interrupted`
    Micros disconnect_timeout{2'000'000};  ///< silence before the host counts as gone
    Micros keepalive_interval{100'000};    ///< idle link keepalive
    Micros ack_interval{16'000};           ///< acknowledgements are sent at least this often
    Micros quality_interval{200'000};      ///< ping interval
    std::uint32_t session_tag = 0;         ///< must match the host's
    std::uint64_t seed = 1;                ///< seeds the handshake nonces
    bool drive_transport = true;           ///< call transport.update(now) inside update()

    /// invalid_config with a description of the first bad value.
    [[nodiscard]] Status validate() const {
        if (num_players < 1 || num_players > kMaxSessionPlayers)
            return Error{Errc::invalid_config, "num_players 1..8"};
        if (catchup_threshold < 0 || max_catchup_frames < 1 || max_catchup_frames > 1000) {
            return Error{Errc::invalid_config, "catchup_threshold >= 0, max_catchup_frames 1..1000"};
        }
        if (sync_roundtrips < 1 || disconnect_notice <= Micros{0} || disconnect_timeout < disconnect_notice ||
            sync_retry <= Micros{0} || keepalive_interval <= Micros{0} || ack_interval <= Micros{0} ||
            quality_interval <= Micros{0}) {
            return Error{Errc::invalid_config, "bad handshake or timeout values"};
        }
        return {};
    }
};

/// Watches a match: handshakes with a host (a P2PSession with max_spectators > 0), receives every confirmed
/// input from frame 0, and simulates them in order. It plays one frame per advance() while it is close behind
/// and up to max_catchup_frames per advance() when it falls further behind (joining late, after a hiccup).
/// It can start before the host exists (it keeps knocking) and leave at any time (close()); the players never
/// wait for a spectator.
template <DeterministicGame G>
class SpectatorSession {
public:
    using State = typename G::State;  ///< the game's state
    using Input = typename G::Input;  ///< one player's input

    /// A session, or invalid_config.
    [[nodiscard]] static Result<std::unique_ptr<SpectatorSession>> create(transport::Transport& transport,
                                                                          transport::PeerId host,
                                                                          const SpectatorConfig& config,
                                                                          const State& initial) {
        if (Status s = config.validate(); !s.ok()) return s.error();
        if (G::kMaxPlayers < config.num_players)
            return Error{Errc::invalid_config, "num_players > G::kMaxPlayers"};
        return std::unique_ptr<SpectatorSession>(new SpectatorSession(transport, host, config, initial));
    }

    /// Network only: receive inputs, acknowledge, keep the handshake and timers going.
    void update(Micros now) {
        if (closed_) return;
        if (!link_) start(now);
        if (cfg_.drive_transport) transport_.update(now);
        transport::TransportEvent ev;
        Message msg;
        while (transport_.poll(ev)) {
            if (ev.peer != host_) continue;
            if (ev.type == transport::TransportEvent::Type::disconnected) {
                if (link_->state() != detail::PeerLink::State::disconnected) {
                    leave_reason_ = LeaveReason::left;
                    link_->disconnect();
                    link_events_.push_back({detail::LinkEvent::Type::disconnected});
                }
                continue;
            }
            if (ev.type != transport::TransportEvent::Type::message) continue;
            if (!decode_message(ev.data, msg).ok()) {
                ++link_->malformed;
                continue;
            }
            link_->bytes_received += ev.data.size() + transport_.header_bytes();
            if (!link_->on_message(transport_, sender_, msg, now, link_events_)) {
                ++link_->malformed;
                continue;
            }
            if (msg.type == MsgType::goodbye && leave_reason_ == LeaveReason::none)
                leave_reason_ = msg.reason;
            if (msg.type == MsgType::input && link_->running()) handle_input(msg);
        }
        link_->poll(transport_, sender_, now, link_events_);
        translate_events();
        if (link_->running() &&
            (ack() != link_->last_acked_sent || now - link_->last_send() >= cfg_.ack_interval)) {
            Message m;
            m.type = MsgType::input;
            m.ack = ack();
            m.sender_frame = std::max(frame_ - 1, Frame{0});
            link_->last_acked_sent = m.ack;
            (void)link_->send(transport_, sender_, m, now);
        }
        link_->recv_rate.sample(now, link_->bytes_received);
        if (cfg_.drive_transport) transport_.update(now);
    }

    /// update(now), then simulates the frames due: one when close behind, up to max_catchup_frames when
    /// behind by more than catchup_threshold; none when the next frame's inputs have not arrived.
    AdvanceResult advance(Micros now) {
        update(now);
        AdvanceResult r;
        r.frame = frame_;
        if (!link_ || !link_->running()) {
            r.status = link_ && link_->state() == detail::PeerLink::State::disconnected
                           ? AdvanceStatus::finished
                           : AdvanceStatus::synchronizing;
            return r;
        }
        const Frame ready = ack() - frame_ + 1;  // frames whose inputs are all here
        if (ready <= 0) {
            r.status = AdvanceStatus::prediction_threshold;  // waiting for the host
            return r;
        }
        const int budget = ready > cfg_.catchup_threshold ? cfg_.max_catchup_frames : 1;
        const int n = static_cast<int>(std::min<Frame>(ready, budget));
        for (int i = 0; i < n; ++i) {
            for (int p = 0; p < G::kMaxPlayers; ++p) {
                inputs_[p] = p < cfg_.num_players ? queues_[p].input_or(frame_, Input{}) : Input{};
            }
            G::step(state_, std::span<const Input>(inputs_.data(), inputs_.size()), nullptr);
            checksums_[static_cast<std::size_t>(frame_) % checksums_.size()] = {frame_, G::checksum(state_)};
            r.frame = frame_;
            ++frame_;
        }
        r.frames_advanced = n;
        if (n > 1) ++catchups_;
        return r;
    }

    /// Says goodbye to the host; the host forgets this spectator at once.
    void close(Micros now) {
        if (closed_ || !link_) return;
        Message m;
        m.type = MsgType::goodbye;
        (void)link_->send(transport_, sender_, m, now);
        link_->disconnect();
        if (cfg_.drive_transport) transport_.update(now);
        closed_ = true;
    }

    /// The state at the start of current_frame().
    [[nodiscard]] const State& state() const { return state_; }
    /// The next frame to simulate.
    [[nodiscard]] Frame current_frame() const { return frame_; }
    /// Frames the host has confirmed beyond ours (estimate from its last message).
    [[nodiscard]] Frame frames_behind() const {
        return link_ ? std::max<Frame>(link_->remote_frame - frame_ + 1, 0) : 0;
    }
    /// Whether the handshake is done.
    [[nodiscard]] bool running() const { return link_ && link_->running(); }
    /// The checksum of the state after `frame` if it is among the last 1024 simulated; false otherwise.
    bool frame_checksum(Frame frame, std::uint64_t& out) const {
        if (frame < 0) return false;
        const auto& e = checksums_[static_cast<std::size_t>(frame) % checksums_.size()];
        if (e.first != frame) return false;
        out = e.second;
        return true;
    }
    /// Pops the oldest event; false when none.
    bool poll_event(SessionEvent& out) {
        if (events_.empty()) return false;
        out = events_.front();
        events_.pop_front();
        return true;
    }
    /// Why the host link ended (none while it lasts): too_far_behind when the host's input window had moved
    /// on.
    [[nodiscard]] LeaveReason leave_reason() const { return leave_reason_; }
    /// advance() calls that ran more than one frame to catch up.
    [[nodiscard]] std::uint64_t catchups() const { return catchups_; }
    /// Statistics of the link to the host.
    [[nodiscard]] PeerStatsRb host_stats() const {
        PeerStatsRb s;
        if (!link_) return s;
        s.peer = host_;
        s.synchronized = link_->state() != detail::PeerLink::State::syncing;
        s.connected = link_->state() != detail::PeerLink::State::disconnected;
        s.interrupted = link_->interrupted();
        s.ping = link_->ping();
        s.frames_behind = static_cast<double>(frames_behind());
        s.kbps_received = link_->recv_rate.kbps();
        s.kbps_sent = link_->send_rate.kbps();
        s.bytes_sent = link_->bytes_sent;
        s.bytes_received = link_->bytes_received;
        s.packets_sent = link_->packets_sent;
        s.packets_received = link_->packets_received;
        s.malformed = link_->malformed;
        s.last_received_frame = ack();
        return s;
    }

private:
    SpectatorSession(transport::Transport& transport, transport::PeerId host, const SpectatorConfig& config,
                     const State& initial)
        : transport_(transport),
          host_(host),
          cfg_(config),
          state_(initial),
          queues_(static_cast<std::size_t>(config.num_players)),
          inputs_(static_cast<std::size_t>(G::kMaxPlayers)),
          checksums_(1024, {kNullFrame, 0}) {}

    void start(Micros now) {
        Rng rng(cfg_.seed, 0x5bec);
        detail::LinkParams lp{cfg_.sync_roundtrips,    cfg_.sync_retry,
                              cfg_.disconnect_notice,  cfg_.disconnect_timeout,
                              cfg_.keepalive_interval, cfg_.quality_interval,
                              cfg_.session_tag,        static_cast<std::uint8_t>(cfg_.num_players),
                              Role::spectator,         0};
        const auto all = static_cast<std::uint8_t>((1u << cfg_.num_players) - 1u);
        link_ = std::make_unique<detail::PeerLink>(host_, Role::player, all, true, lp, rng.next_u32() | 1u,
                                                   rng.next_u64(), now);
    }

    /// The newest frame with every player's input here.
    [[nodiscard]] Frame ack() const {
        Frame a = std::numeric_limits<Frame>::max();
        for (const auto& q : queues_) a = std::min(a, q.last_confirmed());
        return a;
    }

    void handle_input(const Message& msg) {
        link_->remote_frame = std::max(link_->remote_frame, msg.sender_frame);
        Input in{};
        for (const InputStream& st : msg.streams) {
            if (st.player >= cfg_.num_players) {
                ++link_->malformed;
                return;
            }
            auto& q = queues_[st.player];
            for (std::size_t i = 0; i < st.inputs.size(); ++i) {
                const Frame f = st.start + static_cast<Frame>(i);
                if (f <= q.last_confirmed()) continue;
                if (!bits_to_input<G>(st.inputs[i], in)) {
                    ++link_->malformed;
                    break;
                }
                if (!q.push(f, in, frame_)) break;  // beyond our ring: it comes again after we catch up
            }
        }
    }

    void translate_events() {
        for (const detail::LinkEvent& le : link_events_) {
            SessionEvent e;
            e.peer = host_;
            switch (le.type) {
                case detail::LinkEvent::Type::synchronizing:
                    e.type = SessionEvent::Type::synchronizing;
                    e.count = le.count;
                    e.total = le.total;
                    break;
                case detail::LinkEvent::Type::synchronized:
                    events_.push_back(SessionEvent{SessionEvent::Type::synchronized, -1, host_});
                    e.type = SessionEvent::Type::running;
                    break;
                case detail::LinkEvent::Type::interrupted:
                    e.type = SessionEvent::Type::interrupted;
                    e.timeout_in = le.timeout_in;
                    break;
                case detail::LinkEvent::Type::resumed:
                    e.type = SessionEvent::Type::resumed;
                    break;
                case detail::LinkEvent::Type::disconnected:
                    e.type = SessionEvent::Type::disconnected;
                    if (leave_reason_ == LeaveReason::none) leave_reason_ = LeaveReason::left;  // went silent
                    e.reason = leave_reason_;
                    break;
            }
            events_.push_back(e);
        }
        link_events_.clear();
    }

    transport::Transport& transport_;
    transport::PeerId host_;
    SpectatorConfig cfg_;
    detail::Sender sender_;
    std::unique_ptr<detail::PeerLink> link_;
    std::vector<detail::LinkEvent> link_events_;
    std::deque<SessionEvent> events_;
    bool closed_ = false;
    State state_;
    Frame frame_ = 0;
    std::vector<detail::InputQueue<Input>> queues_;
    std::vector<Input> inputs_;
    std::vector<std::pair<Frame, std::uint64_t>> checksums_;
    std::uint64_t catchups_ = 0;
    LeaveReason leave_reason_ = LeaveReason::none;
};

}  // namespace rwd::rollback
