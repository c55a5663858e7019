// Shooter-side hit tests and their server-side registration, attributed by the damage each target took.
#include "cs_shots.hpp"

#include <arena/fixed_math.hpp>
#include <arena/map.hpp>

#include <algorithm>

namespace lab {

int on_screen_target(const arena::Player& shooter, int shooter_slot, std::span<const DrawnPlayer> drawn) {
    arena::Ray ray{shooter.x, shooter.y, arena::cos_q14(shooter.aim), arena::sin_q14(shooter.aim),
                   arena::kRifleRange};
    ray.length = arena::ray_walls(ray);
    int hit = -1;
    std::int32_t best = 0;
    for (const DrawnPlayer& d : drawn) {
        if (d.slot == shooter_slot || !d.alive) continue;
        const auto entry = arena::ray_circle(ray, d.x, d.y, arena::kPlayerRadius);
        if (entry && (hit < 0 || *entry < best)) {
            hit = d.slot;
            best = *entry;
        }
    }
    return hit;
}

void ShotTracker::on_client_shot(rwd::Tick tick, int shooter, int target, double rewind_ticks) {
    ++shots_;
    rewinds_.push_back(rewind_ticks);
    if (target < 0) return;
    ++hits_;
    pending_[tick.value].push_back(Pending{shooter, target, rewind_ticks <= cap_ticks_});
}

void ShotTracker::judged(const Pending& p, bool registered) {
    ++(registered ? registered_ : not_registered_);
    if (p.within_cap) {
        ++within_;
        within_ok_ += registered ? 1 : 0;
    } else {
        ++beyond_;
        beyond_ok_ += registered ? 1 : 0;
    }
}

void ShotTracker::on_server_tick(rwd::Tick tick, const arena::State& before, const arena::State& after) {
    // Shots for ticks the server has already passed can no longer be matched.
    while (!pending_.empty() && rwd::Tick{pending_.begin()->first} < tick) {
        unresolved_ += pending_.begin()->second.size();
        pending_.erase(pending_.begin());
    }
    auto it = pending_.find(tick.value);
    if (it == pending_.end()) return;
    std::vector<Pending> shots = std::move(it->second);
    pending_.erase(it);
    // Group by target: the damage a target took this tick is shared by everyone who hit it on screen.
    std::sort(shots.begin(), shots.end(),
              [](const Pending& a, const Pending& b) { return a.target < b.target; });
    for (std::size_t i = 0; i < shots.size();) {
        const int target = shots[i].target;
        std::size_t j = i;
        std::vector<Pending> fired;
        for (; j < shots.size() && shots[j].target == target; ++j) {
            const auto shooter = static_cast<std::size_t>(shots[j].shooter);
            // A rifle shot this tick leaves the cooldown at exactly the interval (it counts down before
            // firing).
            if (!before.players[shooter].alive()) {
                ++shooter_dead_;
                judged(shots[j], false);
            } else if (after.players[shooter].fire_cooldown != arena::kRifleInterval) {
                ++silent_;
                judged(shots[j], false);
            } else {
                fired.push_back(shots[j]);
            }
        }
        i = j;
        if (fired.empty()) continue;
        const arena::Player& tb = before.players[static_cast<std::size_t>(target)];
        const arena::Player& ta = after.players[static_cast<std::size_t>(target)];
        if (!tb.alive()) {
            dead_ += fired.size();
            for (const Pending& p : fired) judged(p, false);
            continue;
        }
        const int damage = ta.alive() ? tb.hp - ta.hp : tb.hp;  // a kill takes whatever was left
        const int needed = std::min<int>(static_cast<int>(fired.size()) * arena::kRifleDamage, tb.hp);
        if (damage >= needed && damage > 0) {
            for (const Pending& p : fired) judged(p, true);
        } else if (damage <= 0) {
            for (const Pending& p : fired) judged(p, false);
        } else {
            ambiguous_ +=
                fired.size();  // some of several shots landed; which ones cannot be told from the damage
        }
    }
}

void ShotTracker::finish(ShotFigures& out, double tick_ms) const {
    out.rifle_shots = shots_;
    out.on_screen_hits = hits_;
    out.registered = registered_;
    out.not_registered = not_registered_;
    out.target_dead_on_server = dead_;
    out.shooter_silent_on_server = silent_;
    out.shooter_dead_on_server = shooter_dead_;
    out.within_cap_judged = within_;
    out.within_cap_registered = within_ok_;
    out.within_cap_share = within_ ? static_cast<double>(within_ok_) / static_cast<double>(within_) : 0.0;
    out.beyond_cap_judged = beyond_;
    out.beyond_cap_registered = beyond_ok_;
    out.ambiguous = ambiguous_;
    std::uint64_t left = unresolved_;
    for (const auto& [t, v] : pending_) left += v.size();
    out.unresolved = left;
    const std::uint64_t judged = registered_ + not_registered_;
    out.registered_share = judged ? static_cast<double>(registered_) / static_cast<double>(judged) : 0.0;
    std::vector<double> ms;
    ms.reserve(rewinds_.size());
    for (double r : rewinds_) ms.push_back(r * tick_ms);
    out.rewind_ms = distribution(std::move(ms));
}

}  // namespace lab
