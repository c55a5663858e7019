// One render frame of one lab client: update, draw, check shots on screen, record corrections, let the bot
// act.
#include "cs_match_impl.hpp"
#include "grade.hpp"

#include <rewind/core/checksum.hpp>

#include <algorithm>
#include <array>
#include <cmath>
#include <string>

namespace lab {
namespace cs = rwd::client_server;
using rwd::Micros;

namespace {

/// Fields that only the player's own movement changes; a correction in nothing else was a pure movement
/// guess.
bool movement_only(std::uint32_t fields) {
    const std::uint32_t movement = (1u << arena::kFieldPosition) | (1u << arena::kFieldVelocity) |
                                   (1u << arena::kFieldDashTimer) | (1u << arena::kFieldDashCooldown);
    return (fields & ~movement) == 0;
}

/// The chat line a client sends as its n-th: receivers check every line arrives once, in order, intact.
std::string chat_text(int slot, std::uint32_t n) { return fmt("c%d#%u", slot, n); }

/// Fields that only another player changes: damage, death and what follows it, kills.
bool touched_by_others(std::uint32_t fields) {
    const std::uint32_t others = (1u << arena::kFieldHp) | (1u << arena::kFieldFlags) |
                                 (1u << arena::kFieldDeaths) | (1u << arena::kFieldRespawnTimer) |
                                 (1u << arena::kFieldScore);
    return (fields & others) != 0;
}

}  // namespace

void Match::sample_staleness(const Seat& s, Micros now) {
    const Client& c = *s.client;
    const auto entities = c.newest_snapshot_entities();
    const auto ticks = c.newest_snapshot_value_ticks();
    if (entities.empty() || ticks.size() != entities.size() || s.arrivals.empty()) return;
    const std::uint32_t own = arena::ArenaGame::player_entity(s.slot);
    const auto me =
        std::find_if(entities.begin(), entities.end(), [&](const auto& e) { return e.id == own; });
    if (me == entities.end()) return;
    const double radius = cfg_.snapshots.aoi_radius_m / arena::ArenaGame::kMetersPerUnit;
    const double tick_ms = 1000.0 / cfg_.tick_rate;
    const rwd::Tick newest = c.newest_server_tick();
    for (std::size_t i = 0; i < entities.size(); ++i) {
        const auto& e = entities[i];
        if (e.id == own) continue;
        const double dx = e.snap.x - me->snap.x, dy = e.snap.y - me->snap.y;
        if (radius > 0 && dx * dx + dy * dy > radius * radius) continue;
        behind_newest_ms_.add(static_cast<double>(newest - ticks[i]) * tick_ms);
        // The arrival of the snapshot with that tick (the kept ticks ascend; an older tick takes the oldest).
        auto a = std::lower_bound(s.arrivals.begin(), s.arrivals.end(), ticks[i],
                                  [](const auto& p, rwd::Tick t) { return p.first < t; });
        if (a == s.arrivals.end()) a = std::prev(s.arrivals.end());
        since_arrival_ms_.add(static_cast<double>((now - a->second).count) / 1000.0);
    }
}

arena::Input Match::script_input(Seat& s, Micros now) const {
    // Half-second segments, each a seeded choice of direction and action: everything one player can do alone.
    const std::uint64_t segment = static_cast<std::uint64_t>((now - start_).count / 500'000);
    rwd::Rng r(cfg_.seed ^ (segment * 0x9E3779B97F4A7C15ULL), 7);
    arena::Input in;
    in.move_x = static_cast<std::int8_t>(static_cast<int>(r.uniform(255)) - 127);
    in.move_y = static_cast<std::int8_t>(static_cast<int>(r.uniform(255)) - 127);
    in.aim = static_cast<std::uint16_t>(r.uniform(65536));
    const std::uint32_t action = r.uniform(8);
    if (action == 0) in.buttons = arena::kFire;
    if (action == 1) in.buttons = arena::kAltFire;
    if (action == 2) in.buttons = arena::kReload;
    if (action == 3 && (now - start_).count % 500'000 < 20'000) in.buttons = arena::kDash;
    (void)s;
    return in;
}

void Match::collect_corrections(Seat& s, int index, Micros now) {
    const Client& c = *s.client;
    const std::uint64_t total = c.stats().corrections;
    const std::uint64_t fresh = total - s.seen_corrections;
    s.seen_corrections = total;
    const auto& log = c.corrections();
    const std::size_t n = static_cast<std::size_t>(std::min<std::uint64_t>(fresh, log.size()));
    auto& p = fig_.prediction;
    for (std::size_t i = log.size() - n; i < log.size(); ++i) {
        const auto& r = log[i];
        ++p.corrections;
        errors_.push_back(r.error_m);
        if (r.error_q > 0) ++p.position_corrections;
        if (movement_only(r.fields)) {
            ++p.movement_only;
            movement_errors_.push_back(r.error_m);
        }
        if (touched_by_others(r.fields) || touching_other(s.slot, r.tick)) {
            ++p.by_others;
        } else {
            ++p.own;
            own_errors_.push_back(r.error_m);
            if (r.error_m * p.px_per_m >= 1.0) {
                ++p.own_visible;
                if (latency_.repeated_near(static_cast<std::size_t>(index), r.tick, kRepeatWindowTicks))
                    ++p.own_visible_after_repeat;
            }
        }
        for (int bit = 0; bit < 32; ++bit)
            if (r.fields & (1u << bit)) ++p.fields[std::string(arena::ArenaGame::field_name(bit))];
        // The snap rule is about what would be drawn: the offset needed to keep the drawn player where it was
        // (this correction's shift of the current prediction plus what was still showing), not the error at
        // the acknowledged tick, which replaying the pending inputs can grow or shrink.
        if (r.snapped) {
            ++p.snapped;
            if (r.drawn_offset_m <= c.config().snap_distance_m) ++p.snapped_below_threshold;
        } else {
            ++p.smoothed;
            if (r.drawn_offset_m > c.config().snap_distance_m) ++p.smoothed_above_threshold;
        }
        if (cfg_.series)
            fig_.corrections.push_back(CorrectionPoint{static_cast<double>((now - start_).count) / 1e6, index,
                                                       r.error_m, r.snapped});
    }
    if (fresh > n) fig_.prediction.corrections += fresh - n;  // older than the log: counted, not measured
}

void Match::take_events(Seat& s, int index) {
    cs::Message m;
    while (s.client->poll_message(m)) {
        events_.on_client_message(static_cast<std::size_t>(index), m);
        cs::Chat chat;
        if (!s.client->read(m, chat)) continue;
        const std::uint32_t expect = s.next_chat_from[chat.speaker]++;
        if (chat.text != chat_text(chat.speaker, expect)) ++fig_.channel.events_content_errors;
    }
}

namespace {
/// The player in `slot` after `ticks` ticks of `world` with `input` for it and, for everyone else, what the
/// client's prediction gives them: the arena's remote_input() guess when `remote_guess`, else neutral input.
arena::Player ticks_alone(arena::State world, int slot, const arena::Input& input, int ticks,
                          bool remote_guess) {
    std::array<arena::Input, arena::kMaxPlayers> in{};
    for (int i = 0; i < ticks; ++i) {
        for (int p = 0; p < arena::kMaxPlayers; ++p)
            in[static_cast<std::size_t>(p)] =
                remote_guess ? arena::ArenaGame::remote_input(world, p) : arena::Input{};
        in[static_cast<std::size_t>(slot)] = input;
        arena::ArenaGame::step(world, in, nullptr);
    }
    return world.players[static_cast<std::size_t>(slot)];
}
}  // namespace

void Match::client_frame(Seat& s, int index, Micros now) {
    Client& c = *s.client;
    const rwd::Tick before = c.tick();
    const std::uint64_t resyncs_before = c.stats().hard_resyncs;
    const cs::ClientPhase phase_before = c.phase();
    // The interpolation counters move in update() or render_entities(), whichever samples first this frame.
    const std::uint64_t ext0 = c.stats().extrapolated_frames, held0 = c.stats().held_frames;
    const std::uint64_t reconciled0 = c.stats().reconciliations;
    if (s.playing) s.before_update = c.predicted_state();
    c.update(now);
    // The next frame: 1/fps stretched or shrunk by up to frame_jitter, so frames never line up with ticks.
    const double jitter =
        cfg_.frame_jitter * (2.0 * (static_cast<double>(s.rng.uniform(1u << 20)) / (1u << 20)) - 1.0);
    const Micros frame{static_cast<std::int64_t>(std::llround(1e6 / cfg_.fps * (1.0 + jitter)))};
    s.next_frame = now + frame;
    take_events(s, index);
    if (c.phase() != cs::ClientPhase::playing) return;
    if (!s.playing || phase_before != cs::ClientPhase::playing) {
        s.playing = true;
        s.slot = c.slot();
        s.server_repeated = server_->client_stats(s.slot).inputs_repeated;
        return;  // the first playing frame jumps onto the clock's target by design
    }
    const std::int32_t ran = c.tick() - before;
    // Each tick run now used the input set last frame: that is when it was sampled (a resync runs none).
    if (ran > 0 && c.stats().hard_resyncs == resyncs_before)
        latency_.on_client_ticks(static_cast<std::size_t>(index), before, c.tick(), now);
    auto& tf = fig_.tick;
    ++tf.client_frames;
    fig_.interp.client_minutes += static_cast<double>(frame.count);  // in us here; scaled in finish()
    if (c.stats().hard_resyncs != resyncs_before) {
        ++tf.frames_with_resync;
    } else if (ran == 0) {
        ++tf.frames_without_tick;
    } else if (ran == 1) {
        ++tf.frames_with_one_tick;
    } else {
        ++tf.frames_with_jump;
    }

    // Draw: what this frame shows, and whether the render had to extrapolate or hold.
    const auto& drawn = c.render_entities(now);
    ++fig_.interp.frames;
    if (c.stats().extrapolated_frames != ext0) ++fig_.interp.extrapolated_frames;
    if (c.stats().held_frames != held0) ++fig_.interp.held_frames;

    const arena::Player& own = c.predicted_state().players[static_cast<std::size_t>(s.slot)];
    arena::BotView view;
    view.self_slot = s.slot;
    view.self = own;
    std::vector<DrawnPlayer> others;
    for (const auto& e : drawn) {
        if (e.snap.kind != arena::EntityKind::kPlayer ||
            e.id >= static_cast<std::uint32_t>(arena::kMaxPlayers))
            continue;
        if (e.predicted) {
            // Smoothing: how far the drawn player moved beyond the prediction's own motion this frame (a
            // visible jump). A reconciliation inside update() moves the prediction without the player moving;
            // that shift is what the smoothing hides, so the motion is taken from re-running this frame's
            // ticks on the world as it was before update(), the way the client predicts (own input, everyone
            // else neutral).
            if (s.has_drawn && own.alive() && c.stats().hard_resyncs == resyncs_before) {
                double mx = own.x - s.pred_x, my = own.y - s.pred_y;
                if (c.stats().reconciliations != reconciled0) {
                    const arena::Player moved =
                        ticks_alone(s.before_update, s.slot, s.input, ran, cfg_.predict_remote_inputs);
                    mx = moved.x - s.pred_x, my = moved.y - s.pred_y;
                }
                const double ddx = static_cast<double>(e.snap.x - s.drawn_x) - mx;
                const double ddy = static_cast<double>(e.snap.y - s.drawn_y) - my;
                const double step = std::hypot(ddx, ddy) * arena::ArenaGame::kMetersPerUnit;
                const bool snapped = c.stats().snaps != s.last_snaps;
                if (!snapped && std::hypot(mx, my) < arena::kUnitsPerMeter)  // not a respawn teleport
                    fig_.prediction.max_drawn_step_m = std::max(fig_.prediction.max_drawn_step_m, step);
            }
            // Nearly decayed (offset under 1 % of the largest smoothable one), the drawn player must be
            // nearly where the prediction is.
            if (c.smoother().magnitude() < 0.01 * c.config().snap_distance_m && own.alive())
                fig_.prediction.max_settled_offset_m =
                    std::max(fig_.prediction.max_settled_offset_m,
                             std::hypot(double(e.snap.x - own.x), double(e.snap.y - own.y)) *
                                 arena::ArenaGame::kMetersPerUnit);
            s.has_drawn = true;
            s.drawn_x = e.snap.x, s.drawn_y = e.snap.y, s.pred_x = own.x, s.pred_y = own.y;
            s.last_snaps = c.stats().snaps;
            continue;
        }
        auto& o = view.others[e.id];
        o.visible = true;
        o.alive = (e.snap.flags & arena::kAlive) != 0;
        o.x = e.snap.x;
        o.y = e.snap.y;
        others.push_back(DrawnPlayer{static_cast<int>(e.id), e.snap.x, e.snap.y, o.alive});
    }

    // The server time the remote players are drawn at (the time shots are stamped with).
    const rwd::sync::FracTick render_at = c.render_time();
    if (!others.empty() && now >= half_) latency_.on_view(render_at, now);
    // A rifle shot predicted in this frame's tick: did it hit anyone on this screen?
    if (ran == 1 && own.alive() && own.fire_cooldown == arena::kRifleInterval) {
        const rwd::Tick t = c.tick() - 1;
        const double rewind = rwd::sync::FracTick{t, 0.0} - render_at;
        shots_.on_client_shot(t, s.slot, on_screen_target(own, s.slot, others), rewind);
    }
    if (cfg_.compare_own && ran == 1) {
        arena::ArenaGame::capture(c.predicted_state(), scratch_);
        for (const auto& r : scratch_)
            if (r.id == arena::ArenaGame::player_entity(s.slot))
                client_own_hash_.emplace((c.tick() - 1).value, rwd::checksum_of(r.snap));
    }

    collect_corrections(s, index, now);
    const std::uint64_t snaps = c.stats().snapshots_received;
    if (snaps != s.last_snapshots) {
        if (s.last_snapshot_at)
            gaps_ms_.push_back(static_cast<double>((now - *s.last_snapshot_at).count) / 1000.0);
        s.last_snapshot_at = now;
        s.last_snapshots = snaps;
        s.arrivals.emplace_back(c.newest_server_tick(), now);
        if (s.arrivals.size() > 128) s.arrivals.pop_front();
    }
    sample_staleness(s, now);

    if (cfg_.chat && now >= s.next_chat && now < end_ - Micros{3'000'000}) {
        if (c.send_chat(chat_text(s.slot, s.chats_sent)).ok()) {
            ++s.chats_sent;
            ++fig_.channel.chats_sent;
        }
        s.next_chat = now + Micros{1'000'000};
    }
    s.input = cfg_.bots == BotMode::script ? script_input(s, now) : s.bot.think(view);
    c.set_input(s.input);
}

}  // namespace lab
