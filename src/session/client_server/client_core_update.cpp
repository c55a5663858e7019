/// ClientCore::Impl::update(): time, the syncing pings, clock sync and resyncs, ticks and their input packets
/// (written as bits), and the rates in the stats.
#include "session/client_server/client_core_impl.hpp"

#include <algorithm>
#include <cmath>

namespace rwd::client_server::detail {
namespace {

/// An input packet whose inputs are already bits: byte for byte the InputPacket<Input> the game's
/// serialize() would write (head, the inputs newest first, tail). Write and measure only.
struct EncodedInputPacket {
    InputPacketHead head;
    std::span<const EncodedInput> inputs;  ///< head.count of them, newest first
    InputPacketTail tail;
};

constexpr MessageType message_type_of(const EncodedInputPacket&) { return MessageType::input; }

template <class Stream>
bool serialize(Stream& s, EncodedInputPacket& m) {
    static_assert(!Stream::is_reading, "the client only writes input packets");
    if (!serialize(s, m.head)) return false;
    for (const EncodedInput& in : m.inputs)
        if (!write_encoded_input(s, in)) return s.fail(Errc::malformed), false;
    return serialize(s, m.tail);
}

}  // namespace

void ClientCore::Impl::update(Micros now) {
    if (!has_now_) {
        has_now_ = true;
        last_now_ = now;
    }
    transport_.update(now);
    transport::TransportEvent ev;
    while (transport_.poll(ev)) on_transport_event(ev, now);
    if (phase_ == ClientPhase::connecting) {
        if (retry_at_) {
            if (now >= *retry_at_) start_attempt(now);
        } else if (now - connect_started_ > config_.connect_timeout) {
            attempt_failed(DisconnectCode::timed_out, now);
        }
    } else if (phase_ == ClientPhase::reconnecting) {
        if (waiting_for_credentials_) {
            if (now - lost_at_ > config_.reconnect_for) end(DisconnectCode::unauthorized);
        } else if (retry_at_) {
            if (now >= *retry_at_) start_attempt(now);
        } else if (now - connect_started_ > config_.connect_timeout) {
            reconnect_failed(now);
        }
    }
    stats_.reconnect_retry_in =
        phase_ == ClientPhase::reconnecting && retry_at_ ? std::max(Micros{0}, *retry_at_ - now) : Micros{0};

    // Not ticking yet: pings (empty input packets) give clock sync its first RTT samples.
    if (phase_ == ClientPhase::syncing && now - last_ping_ >= config_.sync_ping_interval) send_ping(now);
    if (phase_ == ClientPhase::syncing && has_snapshot_ && clock_.ready() &&
        clock_.stats().rtt_samples >= static_cast<std::uint64_t>(config_.min_rtt_samples)) {
        const sync::ClockAdjust adj = clock_.update(now, sync::FracTick{tick_, step_.alpha()});
        if (adj.resync || force_resync_) {
            // Start a little further ahead than the young estimate asks: an early input costs a few ticks of
            // latency for a second, a late first input costs a misprediction. Clock sync eases the surplus
            // away. A comeback restarts at the server's time even when the clock still looks right: its
            // prediction stopped when the link went.
            const Tick target = adj.resync ? adj.resync_to.tick : clock_.target_tick(now).tick;
            resync_to(target + config_.initial_extra_lead_ticks);
            force_resync_ = false;
            phase_ = ClientPhase::playing;
        }
    } else if (phase_ == ClientPhase::playing) {
        const sync::ClockAdjust adj = clock_.update(now, sync::FracTick{tick_, step_.alpha()});
        if (adj.resync) resync_to(adj.resync_to.tick + config_.initial_extra_lead_ticks);
        step_.set_time_scale(adj.time_scale);
    }

    const int ticks = step_.advance(now - last_now_);
    last_now_ = now;
    if (phase_ == ClientPhase::playing) {
        game_.sample_render_time(now);  // the render time a shot fired during these ticks is stamped with
        for (int i = 0; i < ticks; ++i) run_tick(now);
    }
    update_rates(now);
}

void ClientCore::Impl::resync_to(Tick t) {
    // Jump the client clock: the prediction restarts from the newest snapshot at the new tick.
    const bool was_playing = phase_ == ClientPhase::playing;
    tick_ = t;
    step_.reset_accumulator();
    recent_count_ = 0;
    game_.restart_prediction(was_playing);
}

void ClientCore::Impl::run_tick(Micros now) {
    const Tick t = tick_;
    // Shift the older inputs down: recent_[0] is always the newest.
    std::move_backward(recent_.begin(), recent_.end() - 1, recent_.end());
    std::move_backward(recent_ok_.begin(), recent_ok_.end() - 1, recent_ok_.end());
    recent_ok_[0] = game_.predict_tick(t, recent_[0]);
    recent_count_ = std::min(recent_count_ + 1, kInputsPerPacket);
    ++tick_;
    send_inputs(t, now);
}

void ClientCore::Impl::send_ping(Micros now) {
    EncodedInputPacket ping;
    ping.head.sequence = input_sequence_++;
    ping.head.count = 0;
    ping.tail = input_tail(now);
    send(transport::Delivery::unreliable, ping);
    last_ping_ = now;
}

void ClientCore::Impl::send_inputs(Tick newest, Micros now) {
    EncodedInputPacket pkt;
    pkt.head.sequence = input_sequence_++;
    pkt.head.newest_tick = newest;
    pkt.head.count = static_cast<std::uint8_t>(recent_count_);
    pkt.inputs = std::span<const EncodedInput>(recent_.data(), static_cast<std::size_t>(recent_count_));
    pkt.tail = input_tail(now);
    // An input that did not encode fails the packet, as the game's serialize() failing would.
    const bool encoded =
        std::all_of(recent_ok_.begin(), recent_ok_.begin() + recent_count_, [](bool ok) { return ok; });
    if (encoded && send(transport::Delivery::unreliable, pkt)) ++stats_.inputs_sent;
}

InputPacketTail ClientCore::Impl::input_tail(Micros now) const {
    // The interpolation delay tells the server how far behind it we draw the others: with its own RTT
    // measurement that bounds how far back it rewinds our shots (lag compensation). Rounded up to whole ms.
    const double delay_ms = stats_.interp_delay_ticks * 1000.0 / config_.tick_rate_hz;
    const auto interp_ms = static_cast<std::uint16_t>(std::clamp(std::ceil(delay_ms), 0.0, 1000.0));
    return InputPacketTail{has_snapshot_, newest_snapshot_tick_, static_cast<std::uint32_t>(now.count),
                           interp_ms};
}

void ClientCore::Impl::update_rates(Micros now) {
    while (!correction_times_.empty() && now - correction_times_.front() > Micros{1'000'000})
        correction_times_.pop_front();
    stats_.corrections_per_second = static_cast<double>(correction_times_.size());
    if (server_ != transport::kInvalidPeer) {
        const auto ps = transport_.stats(server_);
        stats_.kbps_sent = ps.kbps_sent;
        stats_.kbps_received = ps.kbps_received;
    }
    stats_.rtt = clock_.rtt();
    stats_.jitter = clock_.jitter();
    stats_.tick = tick_;
    stats_.time_scale = clock_.time_scale();
    stats_.clock_error_ticks = clock_.last_error_ticks();
    stats_.lead_ticks = clock_.lead_ticks();
    stats_.hard_resyncs = clock_.stats().hard_resyncs;
}

}  // namespace rwd::client_server::detail
