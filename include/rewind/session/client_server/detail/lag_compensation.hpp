/// LagCompensation<G>: the server's hitbox history and the targets rewound for a tick's shooters, or nothing
/// at all for a game without the lag-compensation hooks (its shots are judged in the present).
#pragma once

#include <rewind/core/tick.hpp>
#include <rewind/core/time.hpp>
#include <rewind/session/client_server/config.hpp>
#include <rewind/session/client_server/detail/server_core.hpp>
#include <rewind/session/game.hpp>
#include <rewind/session/game_hooks.hpp>
#include <rewind/sync/hitbox_history.hpp>

#include <algorithm>
#include <cstdint>
#include <optional>
#include <span>

namespace rwd::client_server {

/// Ticks of hitbox history kept for lag compensation (about 1 s at 60 Hz).
inline constexpr int kLagHistoryTicks = kHitboxHistoryTicks;

/// For a game without lag compensation: no history, no shots, the plain step.
template <class G>
class LagCompensation {
public:
    using State = typename G::State;  ///< the game's world
    using Input = typename G::Input;  ///< one player's input
    /// Nothing to keep.
    explicit LagCompensation(const ServerConfig&) {}
    /// Whether `in` fires a shot to judge: never.
    static bool fires(const Input&) { return false; }
    /// Starts a tick: nothing is rewound.
    void begin_tick() {}
    /// Never called (nothing fires).
    ViewTime judge(const Input&, Tick tick, const std::optional<sync::RewindLimit>&, ShotVerdict&) {
        return ViewTime{tick, 0};
    }
    /// Never called (nothing fires).
    void aim(int, ViewTime) {}
    /// Never called (nothing fires).
    template <class Drawn>
    void keep_seen(int, const Drawn&) {}
    /// Runs one step of the game.
    void step(State& s, std::span<const Input> inputs) { hooks::step<G>(s, inputs); }
    /// Nothing to record.
    void record(Tick, const State&) {}
};

/// For a game with lag compensation: the history of every slot's hitboxes and the targets of this tick.
template <class G>
requires HasLagCompensation<G>
class LagCompensation<G> {
public:
    using State = typename G::State;  ///< the game's world
    using Input = typename G::Input;  ///< one player's input
    /// A history as long as the config's max_rewind_ms allows at its tick rate.
    explicit LagCompensation(const ServerConfig& config)
        : history_(sync::HitboxHistoryConfig{config.tick_rate_hz,
                                             Micros{std::int64_t{config.max_rewind_ms} * 1000}}) {}
    /// Whether `in` fires a shot to judge (G::fires).
    static bool fires(const Input& in) { return hooks::fires<G>(in); }
    /// Starts a tick (or a replayed one): no shooter has rewound targets yet.
    void begin_tick() {
        rewound_.active.fill(false);
        any_ = false;
    }
    /// The view time a shot in `in` is judged at on `tick`: the client's claim clamped within the shooter's
    /// own limit (or the fixed cap), the present and the history; `verdict` says which bound it hit.
    ViewTime judge(const Input& in, Tick tick, const std::optional<sync::RewindLimit>& limit,
                   ShotVerdict& verdict) {
        const sync::HitboxHistoryStats before = history_.stats();
        const ViewTime claimed = G::view_time(in, tick);
        const ViewTime view = limit ? history_.clamp(claimed, tick, *limit) : history_.clamp(claimed, tick);
        const sync::HitboxHistoryStats& after = history_.stats();
        verdict.beyond_limit =
            after.clamped_rewind + after.clamped_latency != before.clamped_rewind + before.clamped_latency;
        verdict.future = after.clamped_future != before.clamped_future;
        verdict.beyond_history = after.clamped_history != before.clamped_history;
        return view;
    }
    /// Gives `shooter` the targets as they were at `view` (from judge()) for this tick's step.
    void aim(int shooter, ViewTime view) { any_ = history_.fill(rewound_, shooter, view) || any_; }
    /// After aim(): `shooter` sees only the targets whose player entity is in `drawn` (sorted by id: what its
    /// client drew at the view time).
    template <class Drawn>
    void keep_seen(int shooter, const Drawn& drawn) {
        const auto s = static_cast<std::size_t>(shooter);
        if (shooter < 0 || s >= rewound_.active.size() || !rewound_.active[s]) return;
        for (std::size_t t = 0; t < rewound_.seen[s].size(); ++t) {
            const std::uint32_t id = G::player_entity(static_cast<int>(t));
            const auto it = std::lower_bound(drawn.begin(), drawn.end(), id,
                                             [](const auto& e, std::uint32_t v) { return e.id < v; });
            rewound_.seen[s][t] = it != drawn.end() && it->id == id;
        }
    }
    /// Runs one step of the game, with the rewound targets when a shooter has them.
    void step(State& s, std::span<const Input> inputs) { G::step(s, inputs, any_ ? &rewound_ : nullptr); }
    /// Records the hitboxes of `s`, the world after `tick`.
    void record(Tick tick, const State& s) { history_.record(tick, s); }

private:
    sync::HitboxHistory<G, kLagHistoryTicks> history_;
    RewoundTargets<G> rewound_{};
    bool any_ = false;
};

}  // namespace rwd::client_server
