/// SpectatorCore: the host link of a spectator, the confirmed input bits it receives, acks and events.
#include "session/rollback/input_queue.hpp"
#include "session/rollback/peer_link.hpp"

#include <rewind/core/rng.hpp>
#include <rewind/session/rollback/detail/spectator_core.hpp>

#include <algorithm>
#include <deque>
#include <limits>
#include <vector>

namespace rwd::rollback::detail {

class SpectatorCore::Impl {
public:
    Impl(transport::Transport& transport, transport::PeerId host, const SpectatorConfig& config,
         InputCheck check)
        : transport_(transport),
          host_(host),
          cfg_(config),
          check_(check),
          queues_(static_cast<std::size_t>(config.num_players)) {}

    void start(Micros now) {
        Rng rng(cfg_.seed, 0x5bec);
        const LinkParams lp{cfg_.sync_roundtrips,    cfg_.sync_retry,
                            cfg_.disconnect_notice,  cfg_.disconnect_timeout,
                            cfg_.keepalive_interval, cfg_.quality_interval,
                            cfg_.session_tag,        static_cast<std::uint8_t>(cfg_.num_players),
                            Role::spectator,         0};
        const auto all = static_cast<std::uint8_t>((1u << cfg_.num_players) - 1u);
        link_ = std::make_unique<PeerLink>(host_, Role::player, all, true, lp, rng.next_u32() | 1u,
                                           rng.next_u64(), now);
    }

    void update(Micros now) {
        if (closed_) return;
        if (!link_) start(now);
        if (cfg_.drive_transport) transport_.update(now);
        transport::TransportEvent ev;
        Message msg;
        while (transport_.poll(ev)) {
            if (ev.peer != host_) continue;
            if (ev.type == transport::TransportEvent::Type::disconnected) {
                if (link_->state() != PeerLink::State::disconnected) {
                    leave_reason_ = LeaveReason::left;
                    link_->disconnect();
                    link_events_.push_back({LinkEvent::Type::disconnected});
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

    AdvanceResult plan_advance(Micros now) {
        update(now);
        AdvanceResult r;
        r.frame = frame_;
        if (!link_ || !link_->running()) {
            r.status = link_ && link_->state() == PeerLink::State::disconnected
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
        r.frames_advanced = static_cast<int>(std::min<Frame>(ready, budget));
        if (r.frames_advanced > 1) ++catchups_;
        return r;
    }

    /// The newest frame with every player's input here.
    [[nodiscard]] Frame ack() const {
        Frame a = std::numeric_limits<Frame>::max();
        for (const InputQueue& q : queues_) a = std::min(a, q.last_confirmed());
        return a;
    }

    void handle_input(const Message& msg) {
        link_->remote_frame = std::max(link_->remote_frame, msg.sender_frame);
        for (const InputStream& st : msg.streams) {
            if (st.player >= cfg_.num_players) {
                ++link_->malformed;
                return;
            }
            InputQueue& q = queues_[st.player];
            for (std::size_t i = 0; i < st.inputs.size(); ++i) {
                const Frame f = st.start + static_cast<Frame>(i);
                if (f <= q.last_confirmed()) continue;
                // Attacker-controlled bits: only those the game decodes to a canonical Input are queued.
                if (!check_(st.inputs[i])) {
                    ++link_->malformed;
                    break;
                }
                if (!q.push(f, st.inputs[i], frame_))
                    break;  // beyond our ring: it comes again after we catch up
            }
        }
    }

    void translate_events() {
        for (const LinkEvent& le : link_events_) {
            SessionEvent e;
            e.peer = host_;
            switch (le.type) {
                case LinkEvent::Type::synchronizing:
                    e.type = SessionEvent::Type::synchronizing;
                    e.count = le.count;
                    e.total = le.total;
                    break;
                case LinkEvent::Type::synchronized:
                    events_.push_back(SessionEvent{SessionEvent::Type::synchronized, -1, host_});
                    e.type = SessionEvent::Type::running;
                    break;
                case LinkEvent::Type::interrupted:
                    e.type = SessionEvent::Type::interrupted;
                    e.timeout_in = le.timeout_in;
                    break;
                case LinkEvent::Type::resumed:
                    e.type = SessionEvent::Type::resumed;
                    break;
                case LinkEvent::Type::disconnected:
                    e.type = SessionEvent::Type::disconnected;
                    if (leave_reason_ == LeaveReason::none) leave_reason_ = LeaveReason::left;  // went silent
                    e.reason = leave_reason_;
                    break;
            }
            events_.push_back(e);
        }
        link_events_.clear();
    }

    void close(Micros now) {
        if (closed_ || !link_) return;
        Message m;
        m.type = MsgType::goodbye;
        (void)link_->send(transport_, sender_, m, now);
        link_->disconnect();
        if (cfg_.drive_transport) transport_.update(now);
        closed_ = true;
    }

    [[nodiscard]] Frame frames_behind() const {
        return link_ ? std::max<Frame>(link_->remote_frame - frame_ + 1, 0) : 0;
    }

    [[nodiscard]] PeerStatsRb host_stats() const {
        PeerStatsRb s;
        if (!link_) return s;
        s.peer = host_;
        s.synchronized = link_->state() != PeerLink::State::syncing;
        s.connected = link_->state() != PeerLink::State::disconnected;
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

    transport::Transport& transport_;
    transport::PeerId host_;
    SpectatorConfig cfg_;
    InputCheck check_;
    Sender sender_;
    std::unique_ptr<PeerLink> link_;
    std::vector<LinkEvent> link_events_;
    std::deque<SessionEvent> events_;
    bool closed_ = false;
    Frame frame_ = 0;
    std::vector<InputQueue> queues_;
    std::uint64_t catchups_ = 0;
    LeaveReason leave_reason_ = LeaveReason::none;
};

SpectatorCore::SpectatorCore(transport::Transport& transport, transport::PeerId host,
                             const SpectatorConfig& config, InputCheck check)
    : impl_(std::make_unique<Impl>(transport, host, config, check)) {}

SpectatorCore::~SpectatorCore() = default;

void SpectatorCore::update(Micros now) { impl_->update(now); }
AdvanceResult SpectatorCore::plan_advance(Micros now) { return impl_->plan_advance(now); }

const InputBits* SpectatorCore::input(int slot, Frame f) const {
    const InputQueue& q = impl_->queues_[static_cast<std::size_t>(slot)];
    return q.stored(f) ? &q.confirmed(f) : nullptr;
}

void SpectatorCore::frame_done() { ++impl_->frame_; }
void SpectatorCore::close(Micros now) { impl_->close(now); }
Frame SpectatorCore::current_frame() const { return impl_->frame_; }
Frame SpectatorCore::frames_behind() const { return impl_->frames_behind(); }
bool SpectatorCore::running() const { return impl_->link_ && impl_->link_->running(); }

bool SpectatorCore::poll_event(SessionEvent& out) {
    if (impl_->events_.empty()) return false;
    out = impl_->events_.front();
    impl_->events_.pop_front();
    return true;
}

LeaveReason SpectatorCore::leave_reason() const { return impl_->leave_reason_; }
std::uint64_t SpectatorCore::catchups() const { return impl_->catchups_; }
PeerStatsRb SpectatorCore::host_stats() const { return impl_->host_stats(); }

}  // namespace rwd::rollback::detail
