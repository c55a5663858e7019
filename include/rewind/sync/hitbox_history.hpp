/// HitboxHistory: the server's ~1 s of per-tick hitboxes for lag compensation, with the rewind cap enforced.
#pragma once

#include <rewind/core/result.hpp>
#include <rewind/core/tick.hpp>
#include <rewind/core/time.hpp>
#include <rewind/sync/rewind_limit.hpp>
#include <rewind/sync/view_time.hpp>

#include <algorithm>
#include <array>
#include <cassert>
#include <concepts>
#include <cstdint>
#include <span>
#include <type_traits>

namespace rwd::sync {

/// What HitboxHistory needs of a game (a subset of rwd::ServerGame): players, a State to capture hitboxes
/// from, and a way to interpolate two hitboxes.
template <class G>
concept HitboxSource = requires {
    { G::kMaxPlayers } -> std::convertible_to<int>;
    typename G::State;
    typename G::Hitbox;
}
&&(G::kMaxPlayers > 0) && std::is_trivially_copyable_v<typename G::Hitbox>&& requires(
                              const typename G::State& s, std::span<typename G::Hitbox> out,
                              const typename G::Hitbox& h, std::uint32_t t_q16) {
    G::capture_hitboxes(s, out);
    { G::lerp_hitbox(h, h, t_q16) } -> std::same_as<typename G::Hitbox>;
};

/// Settings for HitboxHistory.
struct HitboxHistoryConfig {
    int tick_rate_hz = 60;                ///< 1..1000
    Micros max_rewind = Micros{250'000};  ///< the furthest back a shot may be judged; must fit the history

    /// Ok, or invalid_config naming the first field out of range; `capacity_ticks` is the history length.
    [[nodiscard]] Status validate(int capacity_ticks) const;
    /// max_rewind in ticks x 65536 (rounded down).
    [[nodiscard]] std::int64_t max_rewind_q16() const;
};

/// Counters of everything HitboxHistory sees and does.
struct HitboxHistoryStats {
    std::uint64_t records = 0;          ///< ticks recorded
    std::uint64_t clamp_calls = 0;      ///< view times judged
    std::uint64_t clamped = 0;          ///< view times changed by any of the three limits below
    std::uint64_t clamped_future = 0;   ///< after the newest record / now: a client cannot have seen that
    std::uint64_t clamped_rewind = 0;   ///< further back than max_rewind (the fixed cap)
    std::uint64_t clamped_latency = 0;  ///< further back than the shooter's own RewindLimit (per-client cap)
    std::uint64_t clamped_history = 0;  ///< further back than the oldest record
    std::uint64_t fills = 0;            ///< shooters given rewound targets
    std::uint64_t fill_misses = 0;      ///< fills refused (no record for that time, or a bad shooter slot)
};

/// Per-tick hitboxes of every slot (G::capture_hitboxes) for the last N ticks, in fixed storage. A shooter's
/// view time (untrusted: it comes in its input) goes through clamp() - never after the newest record or now,
/// never further back than max_rewind (or the shooter's own RewindLimit) or the history - and fill() writes
/// every target's hitbox at that time, interpolated between the two bracketing records with G::lerp_hitbox,
/// into RewoundTargets for G::step() (every target seen).
template <class G, int N = 64>
requires HitboxSource<G>
class HitboxHistory {
public:
    using Hitbox = typename G::Hitbox;             ///< the game's hitbox
    static constexpr int kSlots = G::kMaxPlayers;  ///< hitboxes per record
    static constexpr int kCapacity = N;            ///< ticks of history

    /// An empty history. An invalid config is a programmer error (asserts; use validate(N) first).
    explicit HitboxHistory(HitboxHistoryConfig config = {}) : config_(config) {
        assert(config_.validate(N).ok());
        max_rewind_q16_ = config_.max_rewind_q16();
    }

    /// Records every slot's hitbox in `state`, the state after tick `tick`.
    void record(Tick tick, const typename G::State& state) {
        Record& r = begin_record(tick);
        G::capture_hitboxes(state, std::span<Hitbox>(r.boxes));
    }

    /// Records already-captured hitboxes (boxes.size() must be kMaxPlayers; extra are ignored, missing are
    /// default).
    void record_boxes(Tick tick, std::span<const Hitbox> boxes) {
        Record& r = begin_record(tick);
        for (std::size_t i = 0; i < r.boxes.size(); ++i) r.boxes[i] = i < boxes.size() ? boxes[i] : Hitbox{};
    }

    /// The view time to judge a shot at, for a requested (client-supplied) time, while the server runs tick
    /// `now`: never after min(now, newest record), never before now - max_rewind, nor before the oldest
    /// record. Each limit applied is counted. With no records at all, returns {now, 0}.
    ViewTime clamp(ViewTime requested, Tick now) {
        return clamp_to(requested, now, max_rewind_q16_, stats_.clamped_rewind);
    }

    /// The same with the shooter's own limit (sync::rewind_limit(): its latency, interpolation delay and
    /// input buffer) in place of the fixed max_rewind: older views are clamped to it and counted as
    /// clamped_latency; the future and the history's length bound it as in clamp().
    ViewTime clamp(ViewTime requested, Tick now, const RewindLimit& limit) {
        return clamp_to(requested, now, std::max<std::int64_t>(0, limit.max_rewind_q16),
                        stats_.clamped_latency);
    }

    /// Fills out.targets[shooter][*] with every slot's hitbox at `view` (which must come from clamp()), marks
    /// every target seen and sets out.active[shooter]. Returns false, leaving the shooter inactive, if
    /// `shooter` is not a slot or no record exists for view.from.
    bool fill(RewoundTargets<G>& out, int shooter, ViewTime view) {
        if (shooter < 0 || shooter >= kSlots) {
            ++stats_.fill_misses;
            return false;
        }
        const auto s = static_cast<std::size_t>(shooter);
        out.active[s] = false;
        const Record* a = find(view.from);
        if (!a) {
            ++stats_.fill_misses;
            return false;
        }
        const Record* b = view.fraction_q16 != 0 ? find(view.from + 1) : nullptr;
        for (std::size_t t = 0; t < static_cast<std::size_t>(kSlots); ++t)
            out.targets[s][t] = b ? G::lerp_hitbox(a->boxes[t], b->boxes[t], view.fraction_q16) : a->boxes[t];
        out.seen[s].fill(true);
        out.active[s] = true;
        ++stats_.fills;
        return true;
    }

    /// The recorded hitbox of `slot` after tick `tick`, or nullptr.
    [[nodiscard]] const Hitbox* at(Tick tick, int slot) const {
        const Record* r = find(tick);
        return r && slot >= 0 && slot < kSlots ? &r->boxes[static_cast<std::size_t>(slot)] : nullptr;
    }
    /// True once a tick has been recorded.
    [[nodiscard]] bool has_records() const { return has_records_; }
    /// The newest recorded tick.
    [[nodiscard]] Tick newest_tick() const { return newest_; }
    /// The oldest tick still held (records may have gaps if ticks were skipped).
    [[nodiscard]] Tick oldest_tick() const { return newest_ - (count_ - 1); }
    /// max_rewind in 1/65536 ticks.
    [[nodiscard]] std::int64_t max_rewind_q16() const { return max_rewind_q16_; }
    /// Everything counted so far.
    [[nodiscard]] const HitboxHistoryStats& stats() const { return stats_; }

private:
    struct Record {
        Tick tick{};
        bool valid = false;
        std::array<Hitbox, static_cast<std::size_t>(kSlots)> boxes{};
    };

    static std::size_t index(Tick t) { return t.value % static_cast<std::uint32_t>(N); }

    ViewTime clamp_to(ViewTime requested, Tick now, std::int64_t max_rewind_q16,
                      std::uint64_t& rewind_counter) {
        ++stats_.clamp_calls;
        if (!has_records_) {
            ++stats_.clamped;
            return ViewTime{now, 0};
        }
        // Everything in 1/65536 tick relative to `now`; the tick difference is wrap-aware and fits easily.
        std::int64_t pos = static_cast<std::int64_t>(requested.from - now) * 65536 + requested.fraction_q16;
        const std::int64_t newest = std::min<std::int64_t>(0, newest_ - now) * 65536;
        const std::int64_t oldest = static_cast<std::int64_t>(oldest_tick() - now) * 65536;
        bool changed = false;
        if (pos > newest) pos = newest, ++stats_.clamped_future, changed = true;
        if (pos < -max_rewind_q16) pos = -max_rewind_q16, ++rewind_counter, changed = true;
        if (pos < oldest) pos = std::min(oldest, newest), ++stats_.clamped_history, changed = true;
        if (changed) ++stats_.clamped;
        const std::int64_t whole = pos >= 0 ? pos / 65536 : -((-pos + 65535) / 65536);  // floor
        return ViewTime{now + static_cast<std::int32_t>(whole),
                        static_cast<std::uint16_t>(pos - whole * 65536)};
    }

    Record& begin_record(Tick tick) {
        if (!has_records_ || tick - newest_ >= N || tick < newest_ - (N - 1)) {
            // First record, a jump, or a restart: the old records no longer describe a continuous past.
            for (Record& r : records_) r.valid = false;
            newest_ = tick;
            count_ = 1;
        } else if (tick > newest_) {
            for (Tick t = newest_ + 1; t < tick; ++t) records_[index(t)].valid = false;  // skipped ticks
            count_ = std::min(N, count_ + (tick - newest_));
            newest_ = tick;
        }
        has_records_ = true;
        ++stats_.records;
        Record& r = records_[index(tick)];
        r.tick = tick;
        r.valid = true;
        return r;
    }

    [[nodiscard]] const Record* find(Tick t) const {
        if (!has_records_ || t > newest_ || t < oldest_tick()) return nullptr;
        const Record& r = records_[index(t)];
        return r.valid && r.tick == t ? &r : nullptr;
    }

    HitboxHistoryConfig config_;
    std::int64_t max_rewind_q16_ = 0;
    std::array<Record, N> records_{};
    Tick newest_{};
    std::int32_t count_ = 0;
    bool has_records_ = false;
    HitboxHistoryStats stats_{};
};

}  // namespace rwd::sync
