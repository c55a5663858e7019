/// InputJitterBuffer: the server's per-client input queue: one input per tick, in order, from untrusted
/// packets.
#pragma once

#include <rewind/core/result.hpp>
#include <rewind/core/tick.hpp>
#include <rewind/core/time.hpp>

#include <algorithm>
#include <array>
#include <cassert>
#include <cmath>
#include <cstdint>
#include <span>

namespace rwd::sync {

/// Settings for InputJitterBuffer.
struct InputJitterBufferConfig {
    int tick_rate_hz = 60;          ///< for converting the arrival offset to time, 1..1000
    int buffer_ticks = 2;           ///< how early inputs should arrive (the client aims for this), 1..16
    int max_queue = 8;              ///< inputs waiting at most; excess is dropped and flagged, 1..32
    int max_future_ticks = 32;      ///< packets whose newest tick is further ahead are rejected, 1..63
    int max_inputs_per_packet = 4;  ///< newest + 3 redundant; more in one packet are ignored, 1..16
    double offset_smoothing = 0.1;  ///< EWMA weight of each arrival-offset sample, (0, 1]
    double packets_per_second =
        120.0;                    ///< token-bucket refill rate (2x the tick rate leaves room for bursts), > 0
    double burst_packets = 16.0;  ///< token-bucket size, >= 1

    /// Ok, or invalid_config naming the first field out of range.
    [[nodiscard]] Status validate() const;
};

/// What happened to one packet as a whole.
enum class PacketVerdict : std::uint8_t {
    accepted,           ///< parsed into the queue (individual inputs may still be redundant, late or dropped)
    rate_limited,       ///< over the token-bucket rate: dropped unread
    empty,              ///< carried no input
    too_far_in_future,  ///< newest tick beyond max_future_ticks: dropped
};

/// Counters of everything the buffer sees; all from untrusted packets except pops.
struct InputJitterBufferStats {
    std::uint64_t packets = 0;          ///< packets offered to push()
    std::uint64_t accepted_inputs = 0;  ///< inputs stored for a future tick
    std::uint64_t redundant_inputs =
        0;                          ///< copies of inputs already queued or already played (normal redundancy)
    std::uint64_t late_inputs = 0;  ///< first copies arriving after their tick was played (a repeat was used)
    std::uint64_t too_old_inputs = 0;    ///< ticks older than the 64-tick memory: ignored
    std::uint64_t future_rejected = 0;   ///< packets with a newest tick too far ahead
    std::uint64_t overflow_dropped = 0;  ///< inputs beyond max_queue (a flood: flagged)
    std::uint64_t rate_limited = 0;      ///< packets over the token-bucket rate
    std::uint64_t empty_packets = 0;     ///< packets without inputs
    std::uint64_t oversized_packets =
        0;                            ///< packets with more than max_inputs_per_packet inputs (extra ignored)
    std::uint64_t popped = 0;         ///< ticks played
    std::uint64_t missing = 0;        ///< ticks played with the previous input repeated
    std::uint64_t skipped_ticks = 0;  ///< ticks the caller jumped over in pop()
    std::uint64_t late_unkept = 0;    ///< late inputs not kept for a replay (the list was full)
};

/// An input that arrived after its tick was played with a repeat, kept for a server that replays it.
template <class Input>
struct LateInput {
    Tick tick{};    ///< the tick it was for
    Input input{};  ///< the client's input for that tick
};

/// One client's inputs on the server. Packets carry the newest input and up to three older ones (inputs[0] is
/// for newest_tick, inputs[i] for newest_tick - i). Inputs are keyed by the client tick, which clock sync
/// keeps equal to the server tick that should apply them: pop(t) returns exactly one input for server tick t,
/// in tick order, repeating the last one when t's input is missing. The client is steered (through the
/// arrival offset the server reports in every snapshot) to keep `buffer_ticks` inputs waiting, which absorbs
/// jitter. Nothing from the packet is trusted: ticks are compared wrap-aware, bounded, deduplicated and
/// counted; a flood (more than one input per tick) only fills the capped queue, so it gains nothing.
template <class Input>
class InputJitterBuffer {
public:
    /// Ticks of memory (queued future inputs and played past ticks).
    static constexpr int kWindow = 64;
    /// Late inputs kept for a replay between two clear_late_inputs().
    static constexpr int kLateCapacity = 16;

    /// A buffer whose first pop() will be for `first_tick`. An invalid config is a programmer error.
    explicit InputJitterBuffer(InputJitterBufferConfig config = {}, Tick first_tick = Tick{})
        : config_(config), next_(first_tick), tokens_(config.burst_packets) {
        assert(config_.validate().ok());
    }

    /// Forgets every input and restarts at `first_tick` (counters and rate-limit state stay).
    void reset(Tick first_tick) {
        slots_ = {};
        count_ = 0;
        next_ = first_tick;
        received_mask_ = 0;
        played_since_reset_ = 0;
        has_popped_ = false;
        last_ = Input{};
        has_last_real_ = false;
        late_count_ = 0;
    }

    /// Offers one packet received at `now`. Returns what happened to the packet as a whole; per-input
    /// outcomes show in stats(). Also records the newest input's arrival offset.
    PacketVerdict push(Tick newest_tick, std::span<const Input> inputs, Micros now) {
        ++stats_.packets;
        last_brought_new_ = false;
        if (!take_token(now)) {
            ++stats_.rate_limited;
            return PacketVerdict::rate_limited;
        }
        if (inputs.empty()) {
            ++stats_.empty_packets;
            return PacketVerdict::empty;
        }
        // newest_tick is attacker-controlled: a wrap-aware distance, bounded before it indexes anything.
        const std::int32_t ahead = newest_tick - next_;
        if (ahead > config_.max_future_ticks) {
            ++stats_.future_rejected;
            return PacketVerdict::too_far_in_future;
        }
        std::size_t n = inputs.size();
        if (n > static_cast<std::size_t>(config_.max_inputs_per_packet)) {
            ++stats_.oversized_packets;
            n = static_cast<std::size_t>(config_.max_inputs_per_packet);
        }
        record_offset(ahead);
        // Oldest first, so that under a full queue the nearest ticks win and the far-future excess is
        // dropped. The first input this packet brings decides how early the least early new input came.
        bool first_new = true;
        for (std::size_t i = n; i-- > 0;) {
            const Tick t = newest_tick - static_cast<std::int32_t>(i);
            if (store(t, inputs[i]) && first_new) {
                first_new = false;
                last_first_offset_ =
                    std::clamp<std::int32_t>(t - next_, -config_.max_future_ticks, config_.max_future_ticks);
            }
        }
        last_brought_new_ = !first_new;
        if (first_new) last_first_offset_ = last_offset_;  // nothing new: as early as the newest
        return PacketVerdict::accepted;
    }

    /// The input for server tick `server_tick`: the client's own if it arrived, else the last one played
    /// (Input{} before any). Ticks the caller skipped are dropped and counted; a tick before the last one
    /// popped returns the last input again and changes nothing.
    Input pop(Tick server_tick) {
        if (server_tick < next_) return last_;
        const std::int32_t gap = server_tick - next_;
        if (gap >= kWindow) {
            stats_.skipped_ticks += static_cast<std::uint64_t>(gap);
            slots_ = {};
            count_ = 0;
            received_mask_ = 0;
            next_ = server_tick;
        }
        while (next_ < server_tick) {
            ++stats_.skipped_ticks;
            (void)play_next();
        }
        return play_next();
    }

    /// Late inputs kept since the last clear_late_inputs() (first copies only, oldest arrival first, at most
    /// kLateCapacity: the rest are counted as late_unkept).
    [[nodiscard]] std::span<const LateInput<Input>> late_inputs() const {
        return std::span<const LateInput<Input>>(late_.data(), static_cast<std::size_t>(late_count_));
    }
    /// Forgets the kept late inputs.
    void clear_late_inputs() { late_count_ = 0; }
    /// A late input was applied after all (the server replayed its tick): from now on a missing input
    /// repeats it, unless a real input for a later tick was played since.
    void late_input_applied(Tick tick, const Input& in) {
        if (has_last_real_ && !(last_real_tick_ < tick)) return;
        last_ = in;
        last_real_tick_ = tick;
        has_last_real_ = true;
    }
    /// True if one of the last `ticks` ticks played (at most 64) was played with a repeat and its input has
    /// not arrived since: a late input may still come for it.
    [[nodiscard]] bool missing_within(int ticks) const {
        const int n = std::clamp(std::min(ticks, played_since_reset_), 0, kWindow);
        if (n == 0) return false;
        const std::uint64_t window = n == kWindow ? ~std::uint64_t{0} : (std::uint64_t{1} << n) - 1;
        return (~received_mask_ & window) != 0;
    }

    /// True if the last pop() repeated an earlier input because the client's was missing.
    [[nodiscard]] bool last_pop_repeated() const { return last_repeated_; }
    /// True once pop() has played a tick.
    [[nodiscard]] bool has_popped() const { return has_popped_; }
    /// The last tick played: acknowledge it in snapshots (the state sent is the state after it).
    [[nodiscard]] Tick last_popped_tick() const { return next_ - 1; }
    /// The tick the next pop() is expected for.
    [[nodiscard]] Tick next_tick() const { return next_; }
    /// Inputs waiting for future ticks.
    [[nodiscard]] int depth() const { return count_; }
    /// Smoothed arrival offset in ticks: how early (+) or late (-) the client's newest inputs arrive relative
    /// to the tick that needs them (0 = just in time). Report it to the client in every snapshot.
    [[nodiscard]] double arrival_offset_ticks() const { return offset_; }
    /// The smoothed arrival offset as time.
    [[nodiscard]] Micros arrival_offset() const {
        return Micros{static_cast<std::int64_t>(std::llround(offset_ * 1e6 / config_.tick_rate_hz))};
    }
    /// The arrival offset of the newest packet, unsmoothed, in ticks.
    [[nodiscard]] int last_arrival_offset_ticks() const { return last_offset_; }
    /// How early the oldest input the newest packet brought first arrived, in ticks (negative: late). The
    /// same as last_arrival_offset_ticks() unless packets before it were lost: then the inputs only it
    /// carried arrived that many ticks later than they would have. The spread that decides the input
    /// buffer (loss and jitter both) shows here.
    [[nodiscard]] int last_first_arrival_offset_ticks() const { return last_first_offset_; }
    /// Whether the newest packet brought an input not seen before (a duplicate or an all-redundant copy
    /// does not: it says nothing about how early the client's inputs arrive).
    [[nodiscard]] bool last_push_brought_new() const { return last_brought_new_; }
    /// True once the queue has overflowed (a client sending more than one input per tick); stays set until
    /// cleared.
    [[nodiscard]] bool flood_flagged() const { return flood_flag_; }
    /// Clears the flood flag (e.g. after the server has acted on it).
    void clear_flood_flag() { flood_flag_ = false; }
    /// Everything counted so far.
    [[nodiscard]] const InputJitterBufferStats& stats() const { return stats_; }
    /// The configuration in use.
    [[nodiscard]] const InputJitterBufferConfig& config() const { return config_; }

private:
    struct Slot {
        Tick tick{};
        Input input{};
        bool full = false;
    };

    static std::size_t index(Tick t) { return t.value % static_cast<std::uint32_t>(kWindow); }

    bool take_token(Micros now) {
        if (has_time_ && now > last_refill_) {
            const double refill =
                static_cast<double>((now - last_refill_).count) * 1e-6 * config_.packets_per_second;
            tokens_ = std::min(config_.burst_packets, tokens_ + refill);
        }
        if (!has_time_ || now > last_refill_) last_refill_ = now;
        has_time_ = true;
        if (tokens_ < 1.0) return false;
        tokens_ -= 1.0;
        return true;
    }

    void record_offset(std::int32_t ahead) {
        // Clamped so that one wild packet (or the time before clock sync settles) cannot dominate the
        // average.
        const std::int32_t cap = config_.max_future_ticks;
        last_offset_ = std::clamp(ahead, -cap, cap);
        const auto sample = static_cast<double>(last_offset_);
        offset_ = has_offset_ ? offset_ + config_.offset_smoothing * (sample - offset_) : sample;
        has_offset_ = true;
    }

    /// True when `t`'s input is new: stored now, or counted late now.
    bool store(Tick t, const Input& in) {
        if (t < next_) {
            const std::int32_t back = next_ - t;  // >= 1
            // Older than the memory, or from before the first tick this buffer ever played (not "late": no
            // tick was waiting for it).
            if (back > kWindow || back > played_since_reset_) {
                ++stats_.too_old_inputs;
                return false;
            }
            const std::uint64_t bit = std::uint64_t{1} << (back - 1);
            if (received_mask_ & bit) {
                ++stats_.redundant_inputs;
                return false;
            }
            ++stats_.late_inputs;
            received_mask_ |= bit;  // count each late tick once
            if (late_count_ < kLateCapacity)
                late_[static_cast<std::size_t>(late_count_++)] = LateInput<Input>{t, in};
            else
                ++stats_.late_unkept;
            return true;
        }
        Slot& s = slots_[index(t)];
        if (s.full && s.tick == t) {
            ++stats_.redundant_inputs;
            return false;
        }
        if (count_ >= config_.max_queue) {
            ++stats_.overflow_dropped;
            flood_flag_ = true;
            // Keep the nearest ticks: evict the farthest queued one if the new tick is nearer.
            Tick far = next_;
            bool found = false;
            for (const Slot& q : slots_)
                if (q.full && (!found || q.tick > far)) far = q.tick, found = true;
            if (!found || !(t < far)) return false;
            slots_[index(far)].full = false;
            --count_;
        }
        s = Slot{t, in, true};
        ++count_;
        ++stats_.accepted_inputs;
        return true;
    }

    Input play_next() {
        Slot& s = slots_[index(next_)];
        const bool have = s.full && s.tick == next_;
        if (have) {
            last_ = s.input;
            last_real_tick_ = next_;
            has_last_real_ = true;
            s.full = false;
            --count_;
        } else {
            ++stats_.missing;
        }
        last_repeated_ = !have;
        received_mask_ = (received_mask_ << 1) | (have ? 1u : 0u);
        ++stats_.popped;
        if (played_since_reset_ < kWindow) ++played_since_reset_;
        ++next_;
        has_popped_ = true;
        return last_;
    }

    InputJitterBufferConfig config_;
    std::array<Slot, kWindow> slots_{};
    int count_ = 0;
    Tick next_{};
    std::uint64_t received_mask_ = 0;  ///< bit i: tick next_-1-i was played with (or later got) a real input
    std::int32_t played_since_reset_ = 0;  ///< ticks played since construction or reset, capped at kWindow
    Input last_{};
    Tick last_real_tick_{};       ///< the tick last_ was the real input of
    bool has_last_real_ = false;  ///< last_real_tick_ is valid
    std::array<LateInput<Input>, kLateCapacity> late_{};
    int late_count_ = 0;
    bool last_repeated_ = false;
    bool has_popped_ = false;
    double tokens_ = 0.0;
    Micros last_refill_{};
    bool has_time_ = false;
    double offset_ = 0.0;
    bool has_offset_ = false;
    int last_offset_ = 0;
    int last_first_offset_ = 0;
    bool last_brought_new_ = false;
    bool flood_flag_ = false;
    InputJitterBufferStats stats_{};
};

}  // namespace rwd::sync
