/// ServerCore: construction, the update and tick cycle, seats, timeouts and kicks.
#include "server_core_impl.hpp"

#include <sodium.h>

#include <algorithm>
#include <cassert>
#include <utility>

namespace rwd::client_server {
namespace {

sync::LagCompensationConfig lag_config(const ServerConfig& c) {
    sync::LagCompensationConfig lc = c.lag_compensation;
    lc.tick_rate_hz = c.tick_rate_hz;
    return lc;
}

}  // namespace

ServerCore::Impl::Impl(transport::Transport& t, const ServerConfig& c, int seat_count, ServerGameSide& g,
                       MessageTable m)
    : transport(t),
      config(c),
      max_clients(seat_count),
      game(g),
      step(FixedStepConfig{c.tick_rate_hz, c.max_tick_catchup}),
      lag(lag_config(c)),
      messages(std::move(m)) {
    seats.resize(static_cast<std::size_t>(max_clients));
    if (config.require_token) token_gate.emplace(*config.require_token);
    resume_key = config.resume_key;
    if (std::all_of(resume_key.begin(), resume_key.end(), [](std::uint8_t b) { return b == 0; }))
        randombytes_buf(resume_key.data(), resume_key.size());  // unguessable secrets, unless the app chose
}

sync::InputJitterBufferConfig ServerCore::Impl::jitter_config() const {
    sync::InputJitterBufferConfig c;
    c.tick_rate_hz = config.tick_rate_hz;
    c.buffer_ticks = config.adaptive_input_buffer ? std::max(config.input_buffer_tuning.min_ticks, 1)
                                                  : config.input_buffer_target;
    c.max_queue = config.input_buffer_cap;
    c.max_inputs_per_packet = kInputsPerPacket;
    c.packets_per_second = 2.0 * config.tick_rate_hz;
    return c;
}

int ServerCore::Impl::input_buffer_target(const Seat& s) const {
    return config.adaptive_input_buffer ? s.tuner.target_ticks() : config.input_buffer_target;
}

int ServerCore::Impl::slot_of(transport::PeerId peer) const {
    for (int i = 0; i < max_clients; ++i)
        if ((seat(i).phase == Phase::seated || seat(i).phase == Phase::closing) && seat(i).peer == peer)
            return i;
    return -1;
}

void ServerCore::Impl::unseat(int slot) {
    Seat& s = seat(slot);
    const bool was_seated = s.phase == Phase::seated || s.phase == Phase::held;  // its player is in the world
    if (s.phase == Phase::empty) return;
    s.stats.away = false;
    s.sent_log.clear();
    s.sent_log_bytes = 0;
    if (was_seated) {
        game.on_unseated(slot);  // no ghosts: nothing of the player stays in the world
        ++stats.disconnects;
    }
    s.phase = Phase::empty;
    s.peer = transport::kInvalidPeer;
    s.stats.connected = false;
    s.channel.reset();  // its keys go with the connection (wiped)
    if (was_seated) send_builtin(Leave{static_cast<std::uint8_t>(slot), game.player_entity(slot)});
}

void ServerCore::Impl::kick(int slot, DisconnectCode code, Micros now) {
    if (!valid(slot)) return;
    if (seat(slot).phase == Phase::held) return unseat(slot);  // nobody to tell: the seat is simply freed
    if (seat(slot).phase != Phase::seated) return;
    Seat& s = seat(slot);
    Disconnect d{code};
    send(&s, s.peer, transport::Delivery::reliable_ordered, d, &s.stats.bytes_sent);
    // Going away or a client that stopped answering is routine; refusing a client for what it sent is not.
    const bool routine = code == DisconnectCode::server_shutdown || code == DisconnectCode::timed_out ||
                         code == DisconnectCode::client_quit;
    logf(config.logger, routine ? LogLevel::info : LogLevel::warn, "kicking slot %d: %s", slot,
         disconnect_code_name(code).data());
    const transport::PeerId peer = s.peer;
    unseat(slot);
    s.phase = Phase::closing;  // keep the peer id until the linger ends so late messages are ignored
    s.peer = peer;
    s.close_at = now + config.kick_linger;
    static_assert(static_cast<std::size_t>(DisconnectCode::unauthorized) + 1 == kDisconnectCodeCount);
    if (static_cast<std::size_t>(code) < kDisconnectCodeCount) ++stats.kicks[static_cast<std::size_t>(code)];
    if (code == DisconnectCode::garbage) ++stats.kicked_garbage;
    if (code == DisconnectCode::cheating) ++stats.kicked_cheating;
    if (code == DisconnectCode::timed_out) ++stats.timeouts;
}

void ServerCore::Impl::check_timeouts(Micros now) {
    for (int i = 0; i < max_clients; ++i) {
        Seat& s = seat(i);
        if (s.phase == Phase::seated && now - s.last_heard > config.client_timeout) {
            if (config.seat_grace.count <= 0 || !s.proven) {
                kick(i, DisconnectCode::timed_out, now);  // nothing to wait for (see lose_link)
            } else {
                // Silent, not gone: its seat waits for it, and its connection (dead, or one way) is closed
                // without a goodbye, so that a client still listening reconnects.
                ++stats.timeouts;
                const transport::PeerId peer = s.peer;
                lose_link(i, now);
                transport.disconnect(peer, transport::DisconnectReason::kicked);
            }
        }
        if (s.phase == Phase::held && now >= s.held_until) {
            logf(config.logger, LogLevel::info, "slot %d did not come back in %.0f s: seat freed", i,
                 config.seat_grace.seconds());
            ++stats.seats_expired;
            unseat(i);
        }
        if (s.phase == Phase::closing && now >= s.close_at) {
            transport.disconnect(s.peer, transport::DisconnectReason::kicked);
            s.phase = Phase::empty;
            s.peer = transport::kInvalidPeer;
        }
    }
    for (Pending& p : pending) {
        if (!p.closing && now - p.since > config.hello_timeout) {
            p.closing = true;
            p.close_at = now;
            ++stats.timeouts;
            ++stats.kicks[static_cast<std::size_t>(DisconnectCode::timed_out)];
        }
        if (p.closing && now >= p.close_at) transport.disconnect(p.peer, transport::DisconnectReason::kicked);
    }
    std::erase_if(pending, [&](const Pending& p) { return p.closing && now >= p.close_at; });
}

ServerCore::ServerCore(transport::Transport& transport, const ServerConfig& config, int max_clients,
                       ServerGameSide& game, MessageTable messages)
    : impl_(std::make_unique<Impl>(transport, config, max_clients, game, std::move(messages))) {
    assert(config.validate().ok());
}

ServerCore::~ServerCore() = default;

int ServerCore::update(Micros now) {
    Impl& m = *impl_;
    if (!m.started) {
        m.started = true;
        m.last_now = now;
    }
    for (Impl::Seat& s : m.seats) s.inputs.clear_late_inputs();  // late_inputs() holds this update's only
    m.transport.update(now);
    transport::TransportEvent ev;
    while (m.transport.poll(ev)) m.on_transport_event(ev, now);
    m.check_timeouts(now);

    const std::uint64_t dropped_before = m.step.dropped_ticks();
    const int ticks = m.step.advance(now - m.last_now);
    m.last_now = now;
    m.stats.ticks_dropped += m.step.dropped_ticks() - dropped_before;
    return ticks;
}

void ServerCore::finish_update() {
    Impl& m = *impl_;
    for (Impl::Seat& s : m.seats) {
        if (s.phase != Impl::Phase::seated) continue;
        const auto ps = m.transport.stats(s.peer);
        s.stats.kbps_sent = ps.kbps_sent;
        s.stats.kbps_received = ps.kbps_received;
    }
    m.stats.tick = m.tick;
}

PoppedInput ServerCore::pop_input(int slot) {
    Impl::Seat& s = impl_->seat(slot);
    PoppedInput out;
    out.bits = s.inputs.pop(impl_->tick);
    out.repeated = s.inputs.last_pop_repeated();
    if (!out.repeated) {
        ++s.stats.inputs_applied;
        s.has_applied = true;  // from the first real input on, a missing one counts as repeated
    } else if (s.has_applied) {
        ++s.stats.inputs_repeated;
        ++impl_->stats.inputs_repeated;
    }
    s.last_applied_tick = impl_->tick;
    const double cap = 2.0 * impl_->config.late_input_replay_ticks;  // two windows of late inputs at once
    s.replay_tokens = std::min(cap, s.replay_tokens + impl_->config.max_replayed_share);
    s.stats.input_buffer_depth = static_cast<double>(s.inputs.depth());
    s.stats.arrival_offset_ticks = s.inputs.arrival_offset_ticks();
    if (!s.tuner.measured()) s.tuner.on_link(impl_->transport.stats(s.peer).jitter, impl_->tick_length());
    s.stats.input_buffer_target = impl_->input_buffer_target(s);
    return out;
}

std::span<const sync::LateInput<EncodedInput>> ServerCore::late_inputs(int slot) const {
    return impl_->seat(slot).inputs.late_inputs();
}

bool ServerCore::take_replay_token(int slot) {
    Impl::Seat& s = impl_->seat(slot);
    if (s.replay_tokens < 1.0) {
        ++s.stats.inputs_replay_refused;
        return false;
    }
    s.replay_tokens -= 1.0;
    return true;
}

void ServerCore::late_input_replayed(int slot, Tick tick, const EncodedInput& bits) {
    Impl::Seat& s = impl_->seat(slot);
    s.inputs.late_input_applied(tick, bits);
    ++s.stats.inputs_replayed;
    ++impl_->stats.inputs_replayed;
}

void ServerCore::count_replay(int ticks, bool committed) {
    ServerStats& st = impl_->stats;
    ++(committed ? st.replays : st.replays_aborted);
    st.replayed_ticks += static_cast<std::uint64_t>(std::max(ticks, 0));
}

void ServerCore::add_violations(int slot, std::uint32_t violations) {
    if (violations == 0) return;
    ServerClientStats& st = impl_->seat(slot).stats;
    st.violations += violations;
    st.flagged = true;
}

void ServerCore::count_shot(int slot, const ShotVerdict& verdict) {
    ServerClientStats& st = impl_->seat(slot).stats;
    ServerStats& all = impl_->stats;
    ++st.shots;
    ++all.shots;
    if (verdict.beyond_limit || verdict.future || verdict.beyond_history) ++st.shots_rewind_clamped;
    if (verdict.beyond_limit) ++st.shots_beyond_limit, ++all.shots_beyond_limit;
    if (verdict.future) ++st.shots_future_view, ++all.shots_future_view;
    if (verdict.beyond_history) ++all.shots_beyond_history;
}

std::optional<sync::RewindLimit> ServerCore::rewind_limit(int slot) {
    Impl& m = *impl_;
    if (m.config.rewind_limit != RewindLimitMode::client_latency) return std::nullopt;
    Impl::Seat& s = m.seat(slot);
    // The RTT is the server's own measurement (the transport's); the interpolation delay is the client's
    // claim, which rewind_limit() bounds by the config; the input buffer is what this server asked of it, or
    // the lead its inputs arrive with (measured here), bounded.
    const transport::PeerStats ps = m.transport.stats(s.peer);
    sync::ClientLatency c;
    c.rtt = ps.rtt;
    c.rtt_jitter = ps.jitter;
    c.interpolation_delay = Micros{std::int64_t{s.interpolation_ms} * 1000};
    c.input_buffer_ticks = m.input_buffer_target(s);
    c.input_lead_ticks = s.inputs.arrival_offset_ticks();
    const sync::RewindLimit limit = m.lag.limit_for(c);
    s.stats.rewind_limit_ms = limit.total.millis();
    return limit;
}

void ServerCore::end_tick(Micros now, Micros tick_started) {
    Impl& m = *impl_;
    ++m.tick;
    ++m.stats.ticks;
    for (int i = 0; i < m.max_clients; ++i)
        if (m.config.max_violations && seated(i) && m.seat(i).stats.violations >= m.config.max_violations)
            m.kick(i, DisconnectCode::cheating, now);

    m.snapshot_accumulator += m.config.snapshot_rate_hz;
    if (m.snapshot_accumulator >= m.config.tick_rate_hz) {
        m.snapshot_accumulator -= m.config.tick_rate_hz;
        m.send_snapshots(now);
    }
    if (m.config.stats_clock.fn) {
        const Micros dt = m.config.stats_clock.fn(m.config.stats_clock.user) - tick_started;
        m.stats.last_tick_time = dt;
        m.stats.max_tick_time = std::max(m.stats.max_tick_time, dt);
        m.stats.total_tick_time += dt;
        std::size_t b = 0;
        while (b < kTickTimeBucketMicros.size() && dt.count > kTickTimeBucketMicros[b]) ++b;
        ++m.stats.tick_time_buckets[b];
    }
}

Micros ServerCore::stats_clock_now() const {
    const StatsClock& c = impl_->config.stats_clock;
    return c.fn ? c.fn(c.user) : Micros{};
}

void ServerCore::kick(int slot, DisconnectCode code, Micros now) { impl_->kick(slot, code, now); }

Tick ServerCore::tick() const { return impl_->tick; }

bool ServerCore::seated(int slot) const {
    return impl_->valid(slot) && impl_->seat(slot).phase == Impl::Phase::seated;
}

bool ServerCore::away(int slot) const {
    return impl_->valid(slot) && impl_->seat(slot).phase == Impl::Phase::held;
}

int ServerCore::seated_count() const {
    return static_cast<int>(std::count_if(impl_->seats.begin(), impl_->seats.end(), [](const Impl::Seat& s) {
        return s.phase == Impl::Phase::seated;
    }));
}

int ServerCore::slot_of(transport::PeerId peer) const { return impl_->slot_of(peer); }

const ServerStats& ServerCore::stats() const { return impl_->stats; }

const ServerClientStats& ServerCore::client_stats(int slot) const { return impl_->seat(slot).stats; }

const ServerConfig& ServerCore::config() const { return impl_->config; }

int ServerCore::max_clients() const { return impl_->max_clients; }

}  // namespace rwd::client_server
