/// P2PCore: construction, seats and the forwarding facade over P2PCore::Impl.
#include "session/rollback/p2p_core_impl.hpp"

namespace rwd::rollback::detail {

P2PCore::Impl::Impl(transport::Transport& transport, const P2PConfig& config, InputCheck check,
                    const InputBits* neutral, GameAccess& game)
    : transport_(transport), cfg_(config), check_(check), game_(game), rng_(config.seed, 0x5eed) {
    nonce_ = rng_.next_u32() | 1u;  // never 0
    if (neutral != nullptr) {
        neutral_ = *neutral;
        neutral_valid_ = true;
    }
    queues_.resize(kMaxSessionPlayers);
    last_local_.fill(neutral_);
    delay_ = cfg_.input_delay;
    adapt_delay_ = cfg_.adapt_input_delay;
    stats_.input_delay = stats_.input_delay_min = stats_.input_delay_max = delay_;
}

P2PCore::P2PCore(transport::Transport& transport, const P2PConfig& config, InputCheck check,
                 const InputBits* neutral, GameAccess& game)
    : impl_(std::make_unique<Impl>(transport, config, check, neutral, game)) {}

P2PCore::~P2PCore() = default;

Status P2PCore::add_local_player(int slot) {
    Impl& m = *impl_;
    if (m.started_) return Error{Errc::invalid_argument, "players must be added before the first update"};
    if (slot < 0 || slot >= m.cfg_.num_players) return Error{Errc::invalid_argument, "slot out of range"};
    if (m.slots_[slot].kind != PlayerKind::none) return Errc::already_exists;
    m.slots_[slot] = Impl::Slot{PlayerKind::local, transport::kInvalidPeer, -1};
    return {};
}

Status P2PCore::add_remote_player(int slot, transport::PeerId peer) {
    Impl& m = *impl_;
    if (m.started_) return Error{Errc::invalid_argument, "players must be added before the first update"};
    if (slot < 0 || slot >= m.cfg_.num_players) return Error{Errc::invalid_argument, "slot out of range"};
    if (peer == transport::kInvalidPeer) return Error{Errc::invalid_argument, "invalid peer"};
    if (m.slots_[slot].kind != PlayerKind::none) return Errc::already_exists;
    m.slots_[slot] = Impl::Slot{PlayerKind::remote, peer, -1};
    return {};
}

Status P2PCore::add_spectator(transport::PeerId peer) { return impl_->add_spectator(peer); }

Status P2PCore::add_open_slot(int slot) {
    Impl& m = *impl_;
    if (m.started_) return Error{Errc::invalid_argument, "slots must be opened before the first update"};
    if (slot < 0 || slot >= m.cfg_.num_players) return Error{Errc::invalid_argument, "slot out of range"};
    if (m.slots_[slot].kind != PlayerKind::none) return Errc::already_exists;
    m.open_[slot] = true;
    return {};
}

Status P2PCore::join_as(int slot) {
    Impl& m = *impl_;
    if (m.started_) return Error{Errc::invalid_argument, "join_as must come before the first update"};
    if (m.joining_) return Errc::already_exists;
    if (Status s = add_local_player(slot); !s.ok()) return s;
    m.joining_ = true;
    m.join_slot_ = slot;
    return {};
}
Status P2PCore::add_local_input(int slot, const InputBits& bits) {
    return impl_->add_local_input(slot, bits);
}
void P2PCore::update(Micros now) { impl_->update(now); }
AdvanceResult P2PCore::advance(Micros now) { return impl_->advance(now); }
void P2PCore::close(Micros now) { impl_->close(now); }
void P2PCore::disconnect_player(int slot) { impl_->disconnect_player(slot); }

Status P2PCore::set_input_delay(int frames) {
    if (frames < 0 || frames > kMaxInputDelay)
        return Error{Errc::invalid_argument, "input delay must be 0..30"};
    impl_->adapt_delay_ = false;  // the app decides from now on
    impl_->set_delay(frames, false);
    return {};
}

FrameInput P2PCore::frame_input(int slot, Frame f) const { return impl_->frame_input(slot, f); }
void P2PCore::set_used(int slot, Frame f, const InputBits* used) { impl_->queues_[slot].set_used(f, used); }
const InputBits* P2PCore::neutral_bits() const { return impl_->neutral_valid_ ? &impl_->neutral_ : nullptr; }
bool P2PCore::confirmed_input(int slot, Frame f, const InputBits*& out) const {
    return impl_->confirmed_input(slot, f, out);
}

int P2PCore::input_delay() const { return impl_->delay_; }
int P2PCore::effective_input_delay() const { return impl_->last_local_frame_ - (impl_->frame_ - 1); }
Frame P2PCore::last_local_input_frame() const { return impl_->last_local_frame_; }
Frame P2PCore::current_frame() const { return impl_->frame_; }
Frame P2PCore::confirmed_frame() const { return impl_->confirmed_frame(); }
bool P2PCore::running() const { return impl_->running_; }
double P2PCore::frames_ahead() const { return impl_->frames_ahead_; }
double P2PCore::time_scale() const { return impl_->time_scale_; }

bool P2PCore::poll_event(SessionEvent& out) {
    if (impl_->events_.empty()) return false;
    out = impl_->events_.front();
    impl_->events_.pop_front();
    return true;
}

PlayerKind P2PCore::player_kind(int slot) const {
    return slot >= 0 && slot < kMaxSessionPlayers ? impl_->slots_[slot].kind : PlayerKind::none;
}

SessionStats P2PCore::stats() const { return impl_->stats(); }
std::vector<PeerStatsRb> P2PCore::peer_stats() const { return impl_->peer_stats(); }
const std::vector<DesyncReport>& P2PCore::desync_reports() const { return impl_->reports_; }
const P2PConfig& P2PCore::config() const { return impl_->cfg_; }
int P2PCore::num_spectators() const { return impl_->num_spectators(); }

}  // namespace rwd::rollback::detail
