// Re-runs a rewind-client network recording and writes, as JSON, every world the client decoded from a
// snapshot (what the independent protocol decoder must reconstruct from the same datagrams).
#include "client/net_recording_config.hpp"

#include <arena/arena_game.hpp>

#include <rewind/core/recording_file.hpp>
#include <rewind/session/client_server/net_replay.hpp>

#include <nlohmann/json.hpp>

#include <cstdio>
#include <fstream>
#include <string>

namespace {

namespace cs = rwd::client_server;
namespace tr = rwd::transport;
using Client = cs::Client<arena::ArenaGame>;

/// One entity's fields, named as docs/PROTOCOL.md names them.
nlohmann::json entity_json(const arena::ArenaGame::EntityRecord& r) {
    const arena::EntitySnapshot& e = r.snap;
    return {{"id", r.id},
            {"kind", static_cast<int>(e.kind)},
            {"x", e.x},
            {"y", e.y},
            {"vx", e.vx},
            {"vy", e.vy},
            {"flags", e.flags},
            {"aim", e.aim},
            {"hp", e.hp},
            {"dash_timer", e.dash_timer},
            {"respawn_timer", e.respawn_timer},
            {"score", e.score},
            {"deaths", e.deaths},
            {"ammo", e.ammo},
            {"fire_cooldown", e.fire_cooldown},
            {"alt_cooldown", e.alt_cooldown},
            {"reload_timer", e.reload_timer},
            {"dash_cooldown", e.dash_cooldown},
            {"shots", e.shots},
            {"rng", {e.rng[0], e.rng[1]}},
            {"owner", e.owner},
            {"ttl", e.ttl}};
}

/// Makes one recorded program call (as replay_client does); false when it cannot be made.
bool make_call(Client& c, const tr::NetRecord& r) {
    using Kind = tr::NetRecord::Kind;
    switch (r.kind) {
        case Kind::app_update:
            c.update(r.now);
            return true;
        case Kind::app_render:
            (void)c.render_entities(r.now);
            return true;
        case Kind::app_disconnect:
            c.disconnect(r.now);
            return true;
        case Kind::app_input: {
            arena::Input in{};
            rwd::wire::ReadStream s(std::span<const std::uint8_t>(r.bytes));
            if (!serialize(s, in) || !s.ok()) return false;
            c.set_input(in);
            return true;
        }
        case Kind::app_connect: {
            auto address = tr::parse_address(std::string(r.bytes.begin(), r.bytes.end()));
            return address.ok() && c.connect(address.value(), r.now).ok();
        }
        default:
            return false;
    }
}

}  // namespace

int main(int argc, char** argv) {
    if (argc != 3) {
        std::fprintf(stderr, "usage: client_view_dump CLIENT.rwn OUT.json\n");
        return 2;
    }
    auto bytes = rwd::read_recording_file(argv[1]);
    if (!bytes.ok()) {
        std::fprintf(stderr, "client_view_dump: %s cannot be read\n", argv[1]);
        return 1;
    }
    auto data = tr::parse_net_recording(bytes.value());
    if (!data.ok() || data->header.app != "rewind-client") {
        std::fprintf(stderr, "client_view_dump: %s is not a rewind-client network recording\n", argv[1]);
        return 1;
    }
    auto config = apps::client_config_from_text(data->header.config);
    if (!config.ok()) {
        const std::string_view why = config.error().detail;
        std::fprintf(stderr, "client_view_dump: %.*s\n", static_cast<int>(why.size()), why.data());
        return 1;
    }
    tr::PlaybackTransport t(data.value());
    Client c(t, config.value());
    nlohmann::json snapshots = nlohmann::json::array();
    std::uint64_t bad_calls = 0, decoded = 0;
    for (const tr::NetRecord* r = t.next_app(); r != nullptr; r = t.next_app()) {
        if (!make_call(c, *r)) ++bad_calls;
        if (decoded == c.stats().snapshots_received) continue;
        decoded = c.stats().snapshots_received;
        nlohmann::json entities = nlohmann::json::array();
        for (const auto& e : c.newest_snapshot_entities()) entities.push_back(entity_json(e));
        snapshots.push_back({{"tick", c.newest_server_tick().value}, {"entities", std::move(entities)}});
    }
    if (!t.divergence().none() || bad_calls != 0) {
        std::fprintf(stderr, "client_view_dump: the re-run diverged from the recording (%llu bad calls)\n",
                     static_cast<unsigned long long>(bad_calls));
        return 1;
    }
    const std::size_t worlds = snapshots.size();
    std::ofstream out(argv[2]);
    out << nlohmann::json{{"snapshots", std::move(snapshots)}}.dump() << "\n";
    if (!out) {
        std::fprintf(stderr, "client_view_dump: %s cannot be written\n", argv[2]);
        return 1;
    }
    std::printf("client_view_dump: %zu worlds written\n", worlds);
    return 0;
}
