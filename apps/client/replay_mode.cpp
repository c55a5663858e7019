// rewind-client --replay FILE: opens an arena replay (rollback, lockstep) or world recording (client-server)
// and plays it in a window, or checks it headless.
#include "client/replay_mode.hpp"

#include "client/replay_window.hpp"

#include <arena/arena_game.hpp>
#include <arena/messages.hpp>

#include <rewind/session/client_server/world_player.hpp>
#include <rewind/session/rollback/replay_player.hpp>

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cstdio>
#include <memory>
#include <optional>
#include <vector>

namespace apps {

namespace {

namespace rb = rwd::rollback;
namespace cs = rwd::client_server;
using Player = rb::ReplayPlayer<arena::ArenaGame>;
using World = cs::WorldPlayer<arena::ArenaGame>;

constexpr int kKeyframeFrames = 2 * arena::kTickRate;  // a saved state every 2 s of play
constexpr int kFeedSeconds = 5;                        // deaths stay in the feed this long

void say(const std::string& path, const char* what, rwd::Error e) {
    std::fprintf(stderr, "rewind-client: --replay %s: %s%.*s\n", path.c_str(), what,
                 static_cast<int>(e.detail.size()), e.detail.data());
}

bool right_game(const std::string& path, const std::string& id, std::uint32_t version) {
    if (id == arena::kGameId && version == arena::kRulesVersion) return true;
    std::fprintf(stderr,
                 "rewind-client: --replay %s: game '%s' rules %u; this client plays '%.*s' rules %u\n",
                 path.c_str(), id.c_str(), version, static_cast<int>(arena::kGameId.size()),
                 arena::kGameId.data(), arena::kRulesVersion);
    return false;
}

const char* model_name(rb::ReplayModel m) { return m == rb::ReplayModel::lockstep ? "lockstep" : "rollback"; }

/// A rollback or lockstep replay: positions are frames.
class RollbackSource final : public ReplaySource {
public:
    explicit RollbackSource(Player p) : p_(std::move(p)) {}
    long long position() const override { return p_.frame(); }
    long long last() const override { return p_.frames(); }
    int rate() const override { return arena::kTickRate; }
    bool step() override { return p_.step(); }
    void seek(long long t) override {
        p_.seek(static_cast<rb::Frame>(std::clamp<long long>(t, 0, p_.frames())));
    }
    void scene(int own, std::vector<DrawnEntity>& out) const override { state_scene(p_.state(), own, out); }
    std::string title() const override {
        const rb::ReplayHeader& h = p_.header();
        return std::string(model_name(h.model)) + " replay of " + h.game_id + ", " +
               std::to_string(h.players.size()) + " players, seed " + std::to_string(h.seed) + ", frame";
    }
    std::uint64_t verified() const override { return p_.checksums_verified(); }
    std::uint64_t mismatches() const override { return p_.checksum_mismatches(); }
    Player& player() { return p_; }

private:
    Player p_;
};

/// A client-server world recording: positions are recorded ticks; the feed lists the deaths.
class WorldSource final : public ReplaySource {
public:
    explicit WorldSource(World w) : w_(std::move(w)) {}
    long long position() const override { return static_cast<long long>(w_.position()); }
    long long last() const override { return w_.size() == 0 ? 0 : static_cast<long long>(w_.size()) - 1; }
    int rate() const override { return w_.header().tick_rate; }
    bool step() override { return w_.step(); }
    void seek(long long t) override { w_.seek(static_cast<std::size_t>(std::max(0LL, t))); }
    void scene(int own, std::vector<DrawnEntity>& out) const override {
        out.clear();
        for (const auto& r : w_.entities())
            out.push_back(
                DrawnEntity{r.id, r.snap, own >= 0 && r.id == arena::ArenaGame::player_entity(own)});
    }
    std::string title() const override {
        return "client-server recording of " + w_.header().game_id + ", " + std::to_string(w_.size()) +
               " ticks, server tick " + std::to_string(w_.tick().value) + "; ticks";
    }
    std::uint64_t verified() const override { return w_.checksums_verified(); }
    std::uint64_t mismatches() const override { return w_.checksum_mismatches(); }
    std::vector<std::string> feed() const override {
        std::vector<std::string> lines;
        // 64-bit: a recording may end at tick 0xFFFFFFFF.
        const std::uint64_t now = w_.tick().value, span = static_cast<std::uint64_t>(kFeedSeconds * rate());
        for (std::uint64_t t = now >= span ? now - span : 0; t <= now; ++t) {
            for (const cs::RecordedMessage& m : w_.messages_at(rwd::Tick{static_cast<std::uint32_t>(t)})) {
                arena::DeathMessage d;
                if (!cs::read_message_as<arena::ArenaGame>(World::as_message(m), d)) continue;
                lines.push_back(d.killer == d.victim ? "player " + std::to_string(d.victim) + " died"
                                                     : "player " + std::to_string(d.killer) +
                                                           " killed player " + std::to_string(d.victim));
            }
        }
        return lines;
    }
    World& player() { return w_; }

private:
    World w_;
};

void print_final(nlohmann::json& j) {
    std::printf("final %s\n", j.dump().c_str());
    std::fflush(stdout);
}

/// Headless, rollback: every frame and checksum, then seeded seeks against the straight play.
int check_rollback(Player& player, const ClientOptions& o) {
    const rb::ReplayVerdict v = rb::verify_replay(player, 32, o.seed);
    const rb::ReplayHeader& h = player.header();
    nlohmann::json j{{"model", "replay"},
                     {"recorded_model", model_name(h.model)},
                     {"game", h.game_id},
                     {"players", h.players.size()},
                     {"frames", v.frames},
                     {"checksums_verified", v.checksums_verified},
                     {"checksum_mismatches", v.checksum_mismatches},
                     {"first_mismatch", v.first_mismatch},
                     {"seeks", v.seeks},
                     {"seek_mismatches", v.seek_mismatches},
                     {"seek_frames_mean", v.seek_frames_mean},
                     {"checksum", v.final_checksum}};
    print_final(j);
    return v.exact() ? 0 : 1;
}

/// Headless, client-server: every tick's world against its checksum, then seeded seeks.
int check_world(World& world, const ClientOptions& o) {
    const cs::WorldVerdict v = cs::verify_world(world, 32, o.seed);
    std::size_t deaths = 0;
    world.seek(0);
    do {
        for (const cs::RecordedMessage& m : world.messages()) {
            arena::DeathMessage d;
            if (cs::read_message_as<arena::ArenaGame>(World::as_message(m), d)) ++deaths;
        }
    } while (world.step());
    nlohmann::json j{{"model", "replay"},
                     {"recorded_model", "client-server"},
                     {"game", world.header().game_id},
                     {"ticks", v.ticks},
                     {"checksums_verified", v.checksums_verified},
                     {"checksum_mismatches", v.checksum_mismatches},
                     {"seeks", v.seeks},
                     {"seek_mismatches", v.seek_mismatches},
                     {"seek_ticks_mean", v.seek_ticks_mean},
                     {"deaths", deaths}};
    print_final(j);
    return v.exact() ? 0 : 1;
}

/// The file as a playable source, or nullptr after telling why on stderr.
std::unique_ptr<ReplaySource> open_source(const std::string& path) {
    auto bytes = rwd::read_recording_file(path);
    if (!bytes.ok()) {
        say(path, "", bytes.error());
        return nullptr;
    }
    char versions[64] = "";
    if (cs::is_world_recording(bytes.value())) {
        auto data = cs::parse_world_recording(bytes.value());
        if (!data.ok()) {
            if (data.code() == rwd::Errc::rejected)
                std::snprintf(versions, sizeof versions, "format version %u, this build reads %u: ",
                              cs::world_recording_version(bytes.value()), cs::kWorldRecordingVersion);
            say(path, versions, data.error());
            return nullptr;
        }
        if (!right_game(path, data->header().game_id, data->header().game_version)) return nullptr;
        auto world = World::create(std::move(data.value()));
        if (!world.ok()) {
            say(path, "", world.error());
            return nullptr;
        }
        return std::make_unique<WorldSource>(std::move(world.value()));
    }
    auto data = rb::parse_replay(bytes.value());
    if (!data.ok()) {
        if (data.code() == rwd::Errc::rejected)
            std::snprintf(versions, sizeof versions, "format version %u, this build reads %u: ",
                          rb::replay_format_version(bytes.value()), rb::kReplayFormatVersion);
        say(path, versions, data.error());
        return nullptr;
    }
    const rb::ReplayHeader& h = data->header();
    if (!right_game(path, h.game_id, h.game_version)) return nullptr;
    if (auto s = rb::check_replay_game(h, arena::kGameId, arena::kRulesVersion, arena::kMaxPlayers);
        !s.ok()) {
        say(path, "", s.error());
        return nullptr;
    }
    const arena::State initial = arena::new_seated_match(h.seed, static_cast<int>(h.players.size()));
    auto made = Player::create(std::move(data.value()), initial, kKeyframeFrames);
    if (!made.ok()) {
        say(path, "", made.error());
        return nullptr;
    }
    return std::make_unique<RollbackSource>(std::move(made.value()));
}

}  // namespace

int run_replay(const ClientOptions& o) {
    std::unique_ptr<ReplaySource> source = open_source(o.replay);
    if (!source) return 1;
    if (!o.headless) return play_replay_window(*source, o);
    if (auto* world = dynamic_cast<WorldSource*>(source.get())) return check_world(world->player(), o);
    return check_rollback(static_cast<RollbackSource*>(source.get())->player(), o);
}

}  // namespace apps
