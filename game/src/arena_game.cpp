// ArenaGame's deterministic core: step() in its fixed order, checksum, seats, input sanitizing, lag-comp
// hooks.
#include "arena/arena_game.hpp"

#include <cstdint>
#include <span>

#include <rewind/core/checksum.hpp>

#include "sim.hpp"

namespace arena {

State new_match(std::uint64_t seed) {
    State s{};
    s.match_rng = rwd::Rng(seed, 0x6172656e61ULL);  // "arena"
    return s;
}

State new_seated_match(std::uint64_t seed, int players) {
    State s = new_match(seed);
    for (int p = 0; p < players && p < kMaxPlayers; ++p) ArenaGame::add_player(s, p);
    return s;
}

void ArenaGame::step(State& s, std::span<const Input> inputs, const rwd::RewoundTargets<ArenaGame>* rewound) {
    sim::TickScratch scratch{};
    scratch.killer.fill(-1);
    ++s.tick;
    // The hit log describes this step only.
    for (std::size_t i = 0; i < s.hit_count && i < s.hits.size(); ++i) s.hits[i] = HitRecord{};
    s.hit_count = 0;
    const Input neutral{};
    // 1. Respawns, then every living player's input: aim, timers, reload, shots wanted, velocity.
    for (int i = 0; i < kMaxPlayers; ++i) {
        Player& p = s.players[i];
        if (!p.present()) continue;
        if (!p.alive()) {
            p.respawn_timer = p.respawn_timer > 0 ? static_cast<std::uint16_t>(p.respawn_timer - 1) : 0;
            if (p.respawn_timer == 0) sim::respawn(p);
            continue;  // acts from the next tick on
        }
        const Input& in = static_cast<std::size_t>(i) < inputs.size() ? inputs[i] : neutral;
        sim::apply_input(p, in, i, scratch);
    }
    // 2. Movement with wall collision, then players push each other apart.
    sim::move_players(s);
    sim::separate_players(s);
    // 3. Rifle shots in slot order, against current or (lag-compensated) rewound targets.
    for (int i = 0; i < kMaxPlayers; ++i) {
        if (!scratch.fired_rifle[i]) continue;
        const bool use_rewound = rewound != nullptr && rewound->active[i];
        const Input& in = static_cast<std::size_t>(i) < inputs.size() ? inputs[i] : neutral;
        const sim::ShotView view{use_rewound ? &rewound->targets[i] : nullptr,
                                 use_rewound ? &rewound->seen[i] : nullptr};
        sim::resolve_hitscan(s, i, in, use_rewound ? &view : nullptr, scratch);
    }
    // 4. Projectiles in flight, then new ones (which start moving next tick).
    sim::update_projectiles(s, scratch);
    for (int i = 0; i < kMaxPlayers; ++i) {
        if (scratch.fired_rocket[i]) sim::spawn_projectile(s, i);
    }
    // 5. Everyone at 0 hp dies together, so slot order never decides who survives a trade.
    sim::process_deaths(s, scratch);
}

std::uint64_t ArenaGame::checksum(const State& s) { return rwd::checksum_of(s); }

void ArenaGame::add_player(State& s, int slot) {
    if (slot < 0 || slot >= kMaxPlayers) return;
    remove_player(s, slot);
    Player& p = s.players[slot];
    p.rng = rwd::Rng(s.match_rng.next_u64(), static_cast<std::uint64_t>(slot));
    p.flags = kPresent;
    sim::respawn(p);
}

void ArenaGame::remove_player(State& s, int slot) {
    if (slot < 0 || slot >= kMaxPlayers) return;
    s.players[slot] = Player{};
    s.projectiles[slot] = {};
}

Input ArenaGame::sanitize(const Input& in, std::uint32_t& violations) {
    return sanitize_input(in, violations);
}

Input sanitize_input(const Input& in, std::uint32_t& violations) {
    Input out = in;
    if (out.move_x < -kAxisMax) {
        out.move_x = -kAxisMax;
        ++violations;
    }
    if (out.move_y < -kAxisMax) {
        out.move_y = -kAxisMax;
        ++violations;
    }
    if ((out.buttons & ~kAllButtons) != 0) {
        out.buttons = static_cast<std::uint8_t>(out.buttons & kAllButtons);
        ++violations;
    }
    if (out.view_delay > kMaxViewDelay) {
        out.view_delay = kMaxViewDelay;
        ++violations;
    }
    // The origin (flag and point) is one field: only a shot carries one.
    const bool stray_origin = (out.buttons & kFire) == 0 && out.has_origin;
    if (stray_origin || (!out.has_origin && (out.origin_x != 0 || out.origin_y != 0))) {
        out.has_origin = false;
        out.origin_x = out.origin_y = 0;
        ++violations;
    }
    return out;
}

void ArenaGame::capture_hitboxes(const State& s, std::span<Hitbox> out) {
    const std::size_t n = out.size() < s.players.size() ? out.size() : s.players.size();
    for (std::size_t i = 0; i < n; ++i) {
        const Player& p = s.players[i];
        out[i] = Hitbox{p.x, p.y, kPlayerRadius, p.alive()};
    }
}

Hitbox ArenaGame::lerp_hitbox(const Hitbox& a, const Hitbox& b, std::uint32_t t_q16) {
    if (t_q16 > 65536u) t_q16 = 65536u;
    if (a.alive != b.alive) return t_q16 < 32768u ? a : b;  // a death or respawn: no blending across it
    const std::int64_t t = t_q16;
    Hitbox h;
    h.x = static_cast<std::int32_t>(a.x + ((std::int64_t{b.x} - a.x) * t >> 16));
    h.y = static_cast<std::int32_t>(a.y + ((std::int64_t{b.y} - a.y) * t >> 16));
    h.r = static_cast<std::int32_t>(a.r + ((std::int64_t{b.r} - a.r) * t >> 16));
    h.alive = a.alive;
    return h;
}

bool ArenaGame::fires(const Input& in) { return (in.buttons & kFire) != 0; }

void ArenaGame::stamp_shot(Input& in, const State& predicted, int slot) {
    in.has_origin = false;
    in.origin_x = in.origin_y = 0;
    if (slot < 0 || slot >= kMaxPlayers) return;
    const Player& p = predicted.players[static_cast<std::size_t>(slot)];
    // Only a round that left this tick carries its origin (a shot sets the cooldown to exactly the
    // interval): 33 bits a shot, not on every tick the trigger is held.
    if (!p.alive() || p.fire_cooldown != kRifleInterval) return;
    in.has_origin = true;
    in.origin_x = static_cast<std::uint16_t>(p.x < 0 ? 0 : (p.x > 0xFFFF ? 0xFFFF : p.x));
    in.origin_y = static_cast<std::uint16_t>(p.y < 0 ? 0 : (p.y > 0xFFFF ? 0xFFFF : p.y));
}

rwd::ViewTime ArenaGame::view_time(const Input& in, rwd::Tick input_tick) {
    return rwd::ViewTime{input_tick - static_cast<std::int32_t>(in.view_delay), in.view_fraction};
}

void ArenaGame::set_view_time(Input& in, rwd::Tick input_tick, rwd::ViewTime v) {
    std::int32_t delay = input_tick - v.from;
    if (delay < 0) {
        delay = 0;  // a view from the future is impossible: treat as "now"
        v.fraction_q16 = 0;
    }
    if (delay > kMaxViewDelay) {
        delay = kMaxViewDelay;
        v.fraction_q16 = 0;
    }
    in.view_delay = static_cast<std::uint8_t>(delay);
    in.view_fraction = v.fraction_q16;
}

}  // namespace arena
