/// InterpolationBuffer: the client's buffer of server snapshots, sampled at render time = server time -
/// delay.
#pragma once

#include <rewind/core/result.hpp>
#include <rewind/core/tick.hpp>
#include <rewind/core/time.hpp>
#include <rewind/sync/frac_tick.hpp>
#include <rewind/sync/view_time.hpp>

#include <algorithm>
#include <array>
#include <cassert>
#include <cmath>
#include <cstdint>
#include <utility>

namespace rwd::sync {

/// Settings for InterpolationBuffer. Ticks are simulation ticks (fractional where it makes sense).
struct InterpolationBufferConfig {
    int tick_rate_hz = 60;                 ///< 1..1000
    double snapshot_interval_ticks = 2.0;  ///< expected spacing until observed (60 Hz ticks, 30 Hz snapshots)
    double interval_multiplier = 2.0;  ///< base delay = this x interval + jitter_multiplier x jitter, >= 1
    double jitter_multiplier = 1.0;    ///< >= 0
    double min_delay_ticks = 1.0;      ///< the delay never goes below, >= 0
    double max_delay_ticks = 30.0;     ///< nor above (500 ms at 60 Hz), >= min_delay_ticks
    double starve_raise_ticks = 1.0;   ///< each starvation raises the target delay by this, > 0
    Micros healthy_after = Micros{5'000'000};  ///< time without starving before the delay is lowered, >= 0
    double lower_ticks_per_second = 0.1;       ///< how fast the target delay falls back when healthy, > 0
    double max_slew = 0.1;  ///< the delay follows its target at most this fast (render runs 0.9-1.1x)
    double max_extrapolation_ticks = 2.0;  ///< beyond the newest snapshot, then hold, 0..10
    int max_future_ticks = 600;            ///< a snapshot this far past the newest resets the buffer, >= 1

    /// Ok, or invalid_config naming the first field out of range.
    [[nodiscard]] Status validate() const;
};

/// How a sample was produced.
enum class SampleMode : std::uint8_t {
    empty,        ///< nothing buffered: from/to are null
    interpolate,  ///< render time between two snapshots: t in [0, 1]
    extrapolate,  ///< past the newest snapshot, within max_extrapolation_ticks: t > 1 (starving)
    hold,         ///< past the cap (t frozen at the cap), before the oldest, or only one snapshot
};

/// One sample: the bracketing pair and the fraction to give the game's interpolate(from, to, t). During
/// extrapolation t exceeds 1 (at most 1 + cap / spacing); a game that cannot extrapolate clamps it to 1.
/// The pointers stay valid until the next push() or clear().
template <class Snap>
struct InterpolationSample {
    SampleMode mode = SampleMode::empty;
    const Snap* from = nullptr;  ///< the earlier snapshot (== to when holding a single one)
    const Snap* to = nullptr;    ///< the later snapshot
    Tick from_tick{};            ///< server tick of `from`
    Tick to_tick{};              ///< server tick of `to`
    float t = 0.0f;              ///< position between from (0) and to (1)
    FracTick render_time{};      ///< estimated server time minus the delay (what was asked for)
    FracTick sampled_time{};     ///< the time actually shown (render_time after the extrapolation cap / hold)
    ViewTime view{};             ///< sampled_time as the tick pair + fraction to stamp on fire inputs
};

/// Counters of everything the buffer sees and does.
struct InterpolationBufferStats {
    std::uint64_t pushed = 0;                ///< snapshots stored
    std::uint64_t duplicates = 0;            ///< snapshots for a tick already stored (ignored)
    std::uint64_t too_old = 0;               ///< older than everything in a full buffer (ignored)
    std::uint64_t resets = 0;                ///< buffer cleared by a snapshot far in the future
    std::uint64_t starvations = 0;           ///< times the render time ran past the newest snapshot
    std::uint64_t starved_samples = 0;       ///< samples taken while starving (extrapolating or holding)
    std::uint64_t extrapolated_samples = 0;  ///< samples beyond the newest snapshot within the cap
    std::uint64_t capped_samples = 0;        ///< samples held at the extrapolation cap
    std::uint64_t behind_samples = 0;        ///< samples older than the oldest snapshot (held on it)
    std::uint64_t samples = 0;               ///< all samples
};

/// Snapshots (of one entity or a whole world) keyed by server tick, wrap-aware, at most N. The client renders
/// them at render time = server_time(now) - delay, where server_time is the server tick as the snapshot
/// stream shows it (stamps at their arrival times, smoothed). The delay starts at interval_multiplier
/// snapshot intervals + the observed arrival jitter, rises by starve_raise_ticks each time the buffer starves
/// and falls slowly once it has been healthy for healthy_after; it changes at most max_slew per unit of time
/// so the rendered motion never jumps. Past the newest snapshot it extrapolates at most
/// max_extrapolation_ticks, then holds there. Snapshot ticks come from the network: they are compared
/// wrap-aware and bounded.
template <class Snap, int N = 32>
class InterpolationBuffer {
    static_assert(N >= 2, "an interpolation buffer needs room for a pair");

public:
    /// An empty buffer. An invalid config is a programmer error (asserts; use validate() first).
    explicit InterpolationBuffer(InterpolationBufferConfig config = {}) : config_(config) {
        assert(config_.validate().ok());
        interval_ = config_.snapshot_interval_ticks;
        target_delay_ = base_delay();
        delay_ = target_delay_;
    }

    /// Stores the snapshot of server tick `tick` that arrived at `now`. Returns false if it was ignored.
    bool push(Tick tick, Snap snap, Micros now) {
        if (count_ > 0 && (tick - newest_tick()) > config_.max_future_ticks) {
            // Far past everything we have (a long outage or a server restart): start again rather than lock
            // out.
            ++stats_.resets;
            clear_entries();
        }
        // Find the insertion point from the newest end (snapshots usually arrive in order).
        int pos = count_;
        while (pos > 0 && tick < entries_[static_cast<std::size_t>(pos - 1)].tick) --pos;
        if (pos > 0 && entries_[static_cast<std::size_t>(pos - 1)].tick == tick) {
            ++stats_.duplicates;
            return false;
        }
        if (count_ == N) {
            if (pos == 0) {
                ++stats_.too_old;
                return false;
            }
            std::move(entries_.begin() + 1, entries_.begin() + pos, entries_.begin());  // evict the oldest
            --pos;
            --count_;
        }
        std::move_backward(entries_.begin() + pos, entries_.begin() + count_, entries_.begin() + count_ + 1);
        entries_[static_cast<std::size_t>(pos)] = Entry{tick, std::move(snap)};
        ++count_;
        ++stats_.pushed;
        if (pos == count_ - 1) observe_arrival(tick, now);
        return true;
    }

    /// The snapshots around render time = server_time(now) - delay: the usual call, once per rendered frame.
    InterpolationSample<Snap> sample(Micros now) { return sample_at(server_time(now), now); }

    /// The snapshots around render time = `server_now` - delay, at `now` (which paces the delay changes).
    /// `server_now` must be on the arrival timeline (see server_time()), not the true server time: the delay
    /// only covers snapshot spacing and jitter, not the one-way latency.
    InterpolationSample<Snap> sample_at(FracTick server_now, Micros now) {
        update_delay(now);
        ++stats_.samples;
        InterpolationSample<Snap> out;
        out.render_time = server_now.plus(-delay_);
        out.sampled_time = out.render_time;
        if (count_ == 0) {
            out.view = out.render_time.view_time();
            return out;
        }
        const Entry& oldest = entries_[0];
        const Entry& newest = entries_[static_cast<std::size_t>(count_ - 1)];
        const FracTick newest_time{newest.tick, 0.0};
        const double past_newest = out.render_time - newest_time;
        const bool starving = past_newest > 0.0;
        if (starving) {
            ++stats_.starved_samples;
            if (!starving_) on_starvation(now);
        }
        starving_ = starving;
        if (out.render_time - FracTick{oldest.tick, 0.0} < 0.0) {
            ++stats_.behind_samples;
            set_hold(out, oldest);
        } else if (!starving) {
            int i = count_ - 1;
            while (i > 0 &&
                   out.render_time - FracTick{entries_[static_cast<std::size_t>(i - 1)].tick, 0.0} < 0.0)
                --i;
            const Entry& a = entries_[static_cast<std::size_t>(i > 0 ? i - 1 : 0)];
            const Entry& b = entries_[static_cast<std::size_t>(i)];
            fill_pair(out, a, b, SampleMode::interpolate);
        } else if (count_ == 1) {
            set_hold(out, newest);
        } else {
            const Entry& a = entries_[static_cast<std::size_t>(count_ - 2)];
            const double cap = config_.max_extrapolation_ticks;
            if (past_newest <= cap) {
                ++stats_.extrapolated_samples;
                fill_pair(out, a, newest, SampleMode::extrapolate);
            } else {
                // Never beyond the cap: hold the extrapolated position there instead of flying off.
                ++stats_.capped_samples;
                out.sampled_time = newest_time.plus(cap);
                fill_pair(out, a, newest, SampleMode::hold);
            }
        }
        return out;
    }

    /// The server tick as the snapshot stream shows it at `now`: each snapshot's stamp at its arrival time,
    /// smoothed over arrivals (so jitter averages out) and advancing at the tick rate in between. This is the
    /// "estimated server time" interpolation subtracts its delay from; it trails the true server tick by the
    /// one-way latency, which is why the delay never has to cover the latency. 0 before the first snapshot.
    [[nodiscard]] FracTick server_time(Micros now) const {
        if (!has_clock_) return FracTick{};
        return clock_base_.plus(clock_offset_ + now_in_ticks(now));
    }
    /// Forgets every snapshot (the delay and counters stay).
    void clear() { clear_entries(); }
    /// Snapshots buffered.
    [[nodiscard]] int size() const { return count_; }
    /// The newest buffered tick (meaningful when size() > 0).
    [[nodiscard]] Tick newest_tick() const {
        return entries_[static_cast<std::size_t>(count_ > 0 ? count_ - 1 : 0)].tick;
    }
    /// The oldest buffered tick (meaningful when size() > 0).
    [[nodiscard]] Tick oldest_tick() const { return entries_[0].tick; }
    /// The tick of buffered snapshot `i`, 0 (the oldest) .. size() - 1 (the newest).
    [[nodiscard]] Tick tick_at(int i) const { return entries_[static_cast<std::size_t>(i)].tick; }
    /// Buffered snapshot `i`, 0 (the oldest) .. size() - 1 (the newest).
    [[nodiscard]] const Snap& snapshot_at(int i) const { return entries_[static_cast<std::size_t>(i)].snap; }
    /// Ticks buffered ahead of the render time at `now` (negative while starving; 0 when empty).
    [[nodiscard]] double depth(Micros now) const { return depth_at(server_time(now)); }
    /// Ticks buffered ahead of the render time for an explicit `server_now` (as in sample_at()).
    [[nodiscard]] double depth_at(FracTick server_now) const {
        return count_ == 0 ? 0.0 : FracTick{newest_tick(), 0.0} - server_now.plus(-delay_);
    }
    /// The current interpolation delay in ticks.
    [[nodiscard]] double delay_ticks() const { return delay_; }
    /// The delay the buffer is moving toward, in ticks.
    [[nodiscard]] double target_delay_ticks() const { return target_delay_; }
    /// The current delay as time.
    [[nodiscard]] Micros delay() const {
        return Micros{static_cast<std::int64_t>(std::llround(delay_ * 1e6 / config_.tick_rate_hz))};
    }
    /// Observed snapshot spacing in ticks (smoothed).
    [[nodiscard]] double interval_ticks() const { return interval_; }
    /// Observed arrival jitter in ticks (RFC 3550 style smoothed transit-time variation).
    [[nodiscard]] double jitter_ticks() const { return jitter_; }
    /// True while the render time is past the newest snapshot.
    [[nodiscard]] bool starving() const { return starving_; }
    /// Everything counted so far.
    [[nodiscard]] const InterpolationBufferStats& stats() const { return stats_; }
    /// The configuration in use.
    [[nodiscard]] const InterpolationBufferConfig& config() const { return config_; }

private:
    struct Entry {
        Tick tick{};
        Snap snap{};
    };

    [[nodiscard]] double base_delay() const {
        const double d = config_.interval_multiplier * interval_ + config_.jitter_multiplier * jitter_;
        return std::clamp(d, config_.min_delay_ticks, config_.max_delay_ticks);
    }

    void clear_entries() {
        for (int i = 0; i < count_; ++i) entries_[static_cast<std::size_t>(i)] = Entry{};
        count_ = 0;
        has_transit_ = false;
    }

    [[nodiscard]] double now_in_ticks(Micros now) const {
        return static_cast<double>(now.count) * 1e-6 * config_.tick_rate_hz;
    }

    void observe_arrival(Tick tick, Micros now) {
        const double now_ticks = now_in_ticks(now);
        // Arrival clock: stamp - arrival time (in ticks), relative to the first stamp so doubles stay small.
        if (!has_clock_) {
            clock_base_ = FracTick{tick, 0.0};
            clock_offset_ = -now_ticks;
            has_clock_ = true;
        } else {
            const double offset = (FracTick{tick, 0.0} - clock_base_) - now_ticks;
            const double error = offset - clock_offset_;
            // A jump far beyond any jitter (server restart, clock step) re-anchors; otherwise smooth gently.
            clock_offset_ =
                std::abs(error) > config_.max_delay_ticks ? offset : clock_offset_ + kClockGain * error;
        }
        if (has_transit_) {
            const std::int32_t gap = tick - last_tick_;
            if (gap > 0) interval_ += 0.1 * (std::clamp(static_cast<double>(gap), 1.0, 60.0) - interval_);
            // Transit = arrival - stamp (in ticks, plus an unknown constant offset that cancels in
            // differences).
            const double transit = now_ticks - static_cast<double>(gap) - last_arrival_ticks_;
            jitter_ += (std::min(std::abs(transit), config_.max_delay_ticks) - jitter_) / 16.0;
        }
        last_tick_ = tick;
        last_arrival_ticks_ = now_ticks;
        has_transit_ = true;
        if (!starving_) target_delay_ = std::max(target_delay_, base_delay());
    }

    void on_starvation(Micros now) {
        ++stats_.starvations;
        target_delay_ = std::min(config_.max_delay_ticks,
                                 std::max(target_delay_, base_delay()) + config_.starve_raise_ticks);
        last_starve_ = now;
        has_starved_ = true;
    }

    void update_delay(Micros now) {
        const double dt_s = has_sampled_ && now > last_sample_ ? (now - last_sample_).seconds() : 0.0;
        last_sample_ = has_sampled_ ? std::max(last_sample_, now) : now;
        has_sampled_ = true;
        const bool healthy = !starving_ && (!has_starved_ || now - last_starve_ >= config_.healthy_after);
        if (healthy)
            target_delay_ = std::max(base_delay(), target_delay_ - config_.lower_ticks_per_second * dt_s);
        const double step = config_.max_slew * dt_s * config_.tick_rate_hz;
        delay_ += std::clamp(target_delay_ - delay_, -step, step);
    }

    void set_hold(InterpolationSample<Snap>& out, const Entry& e) {
        out.mode = SampleMode::hold;
        out.from = out.to = &e.snap;
        out.from_tick = out.to_tick = e.tick;
        out.t = 0.0f;
        out.sampled_time = FracTick{e.tick, 0.0};
        out.view = out.sampled_time.view_time();
    }

    void fill_pair(InterpolationSample<Snap>& out, const Entry& a, const Entry& b, SampleMode mode) {
        out.mode = mode;
        out.from = &a.snap;
        out.to = &b.snap;
        out.from_tick = a.tick;
        out.to_tick = b.tick;
        const double span = static_cast<double>(b.tick - a.tick);
        out.t = static_cast<float>(span > 0.0 ? (out.sampled_time - FracTick{a.tick, 0.0}) / span : 0.0);
        out.view = out.sampled_time.view_time();
    }

    static constexpr double kClockGain = 0.05;  ///< share of each arrival's clock error applied

    InterpolationBufferConfig config_;
    bool has_clock_ = false;
    FracTick clock_base_{};
    double clock_offset_ = 0.0;
    std::array<Entry, N> entries_{};  ///< sorted by tick (wrap-aware), oldest first
    int count_ = 0;
    double interval_ = 2.0;
    double jitter_ = 0.0;
    double target_delay_ = 0.0;
    double delay_ = 0.0;
    bool starving_ = false;
    bool has_starved_ = false;
    Micros last_starve_{};
    bool has_sampled_ = false;
    Micros last_sample_{};
    bool has_transit_ = false;
    Tick last_tick_{};
    double last_arrival_ticks_ = 0.0;
    InterpolationBufferStats stats_{};
};

}  // namespace rwd::sync
