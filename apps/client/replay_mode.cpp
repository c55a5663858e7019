// rewind-client --replay FILE: opens an arena replay and plays it, windowed with controls or headless as a
// check.
#include "client/replay_mode.hpp"

#include "client/arena_view.hpp"
#include "client/window.hpp"
#include "common/app_support.hpp"

#include <arena/arena_game.hpp>

#include <rewind/session/rollback/replay_player.hpp>

#include <imgui.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <array>
#include <cstdio>
#include <memory>
#include <optional>
#include <vector>

namespace apps {

namespace {

namespace rb = rwd::rollback;
using Player = rb::ReplayPlayer<arena::ArenaGame>;
using rwd::Micros;

constexpr int kKeyframeFrames = 2 * arena::kTickRate;  // a saved state every 2 s of play
constexpr std::array<double, 7> kSpeeds{0.125, 0.25, 0.5, 1.0, 2.0, 4.0, 8.0};

void say(const char* path, const char* what, rwd::Error e) {
    std::fprintf(stderr, "rewind-client: --replay %s: %s%.*s\n", path, what,
                 static_cast<int>(e.detail.size()), e.detail.data());
}

/// The replay file as a player, or nullopt after telling why on stderr.
std::optional<Player> open_replay(const std::string& path) {
    auto bytes = rb::read_replay_file(path);
    if (!bytes.ok()) {
        say(path.c_str(), "", bytes.error());
        return std::nullopt;
    }
    auto data = rb::parse_replay(bytes.value());
    if (!data.ok()) {
        char versions[64] = "";
        if (data.code() == rwd::Errc::rejected)
            std::snprintf(versions, sizeof versions, "format version %u, this build reads %u: ",
                          rb::replay_format_version(bytes.value()), rb::kReplayFormatVersion);
        say(path.c_str(), versions, data.error());
        return std::nullopt;
    }
    const rb::ReplayHeader& h = data->header();
    if (auto s = rb::check_replay_game(h, arena::kGameId, arena::kRulesVersion, arena::kMaxPlayers);
        !s.ok()) {
        std::fprintf(stderr,
                     "rewind-client: --replay %s: game '%s' rules %u; this client plays '%.*s' rules %u\n",
                     path.c_str(), h.game_id.c_str(), h.game_version, static_cast<int>(arena::kGameId.size()),
                     arena::kGameId.data(), arena::kRulesVersion);
        return std::nullopt;
    }
    const arena::State initial = arena::new_seated_match(h.seed, static_cast<int>(h.players.size()));
    auto made = Player::create(std::move(data.value()), initial, kKeyframeFrames);
    if (!made.ok()) {
        say(path.c_str(), "", made.error());
        return std::nullopt;
    }
    return std::move(made.value());
}

const char* model_name(rb::ReplayModel m) { return m == rb::ReplayModel::lockstep ? "lockstep" : "rollback"; }

/// Headless: the whole file, every checksum, then seeded seeks against the straight play.
int check_replay(Player& player, const ClientOptions& o) {
    const rb::ReplayVerdict v = rb::verify_replay(player, 32, o.seed);
    const rb::ReplayHeader& h = player.header();
    nlohmann::json j;
    j["model"] = "replay";
    j["recorded_model"] = model_name(h.model);
    j["game"] = h.game_id;
    j["players"] = h.players.size();
    j["frames"] = v.frames;
    j["checksums_verified"] = v.checksums_verified;
    j["checksum_mismatches"] = v.checksum_mismatches;
    j["first_mismatch"] = v.first_mismatch;
    j["seeks"] = v.seeks;
    j["seek_mismatches"] = v.seek_mismatches;
    j["seek_frames_mean"] = v.seek_frames_mean;
    j["checksum"] = v.hashes.empty() ? 0 : v.hashes.back();
    std::printf("final %s\n", j.dump().c_str());
    std::fflush(stdout);
    return v.exact() ? 0 : 1;
}

std::string clock_text(rb::Frame f) {
    const int tenths = static_cast<int>(static_cast<long long>(f) * 10 / arena::kTickRate);
    char buf[32];
    std::snprintf(buf, sizeof buf, "%d:%02d.%d", tenths / 600, tenths / 10 % 60, tenths % 10);
    return buf;
}

/// The playback state the controls change.
struct Playback {
    bool playing = true;
    std::size_t speed = 3;  // index into kSpeeds: 1x
    double owed = 0;        // frames due but not simulated yet
};

/// The control bar: position, play/pause, frame steps, speed, the seek slider, and the checksum verdict.
void draw_controls(Player& player, Playback& t, const std::string& path, ImVec2 display, float height) {
    ImGui::SetNextWindowPos(ImVec2(0.0f, display.y - height));
    ImGui::SetNextWindowSize(ImVec2(display.x, height));
    ImGui::Begin("replay", nullptr,
                 ImGuiWindowFlags_NoTitleBar | ImGuiWindowFlags_NoResize | ImGuiWindowFlags_NoMove |
                     ImGuiWindowFlags_NoSavedSettings);
    const rb::ReplayHeader& h = player.header();
    ImGui::Text("%s  %s replay of %s, %zu players, seed %llu", path.c_str(), model_name(h.model),
                h.game_id.c_str(), h.players.size(), static_cast<unsigned long long>(h.seed));
    ImGui::SameLine();
    if (player.checksum_mismatches() == 0)
        ImGui::TextColored(ImVec4(0.5f, 0.9f, 0.5f, 1.0f), "  checksums verified: %llu",
                           static_cast<unsigned long long>(player.checksums_verified()));
    else
        ImGui::TextColored(ImVec4(1.0f, 0.4f, 0.4f, 1.0f), "  DIFFERS from its recording at frame %d",
                           player.first_mismatch());
    if (ImGui::Button(t.playing ? "Pause" : "Play ")) t.playing = !t.playing;
    ImGui::SameLine();
    if (ImGui::Button("<")) {
        t.playing = false;
        player.seek(player.frame() - 1);
    }
    ImGui::SameLine();
    if (ImGui::Button(">")) {
        t.playing = false;
        player.step();
    }
    for (std::size_t i = 0; i < kSpeeds.size(); ++i) {
        ImGui::SameLine();
        char label[16];
        std::snprintf(label, sizeof label, "%gx", kSpeeds[i]);
        if (i == t.speed) ImGui::PushStyleColor(ImGuiCol_Button, ImVec4(0.2f, 0.45f, 0.8f, 1.0f));
        if (ImGui::Button(label)) t.speed = i;
        if (i == t.speed) ImGui::PopStyleColor();
    }
    ImGui::SameLine();
    ImGui::Text("  %s / %s   frame %d / %d", clock_text(player.frame()).c_str(),
                clock_text(player.frames()).c_str(), player.frame(), player.frames());
    int target = player.frame();
    ImGui::SetNextItemWidth(-1.0f);
    if (ImGui::SliderInt("##seek", &target, 0, player.frames(), "")) player.seek(target);
    ImGui::End();
}

int play_windowed(Player& player, const ClientOptions& o) {
    std::string renderer;
    auto w = Window::open(o.width, o.height, renderer);
    if (!w.ok()) {
        std::fprintf(stderr, "rewind-client: cannot open a window (check the file with --headless)\n");
        return 1;
    }
    Window& window = *w.value();
    SignalWaiter signals;
    RealClock clock;
    ArenaView view;
    std::vector<DrawnEntity> scene;
    const std::vector<DrawnEntity> no_ghosts;
    Playback t;
    Micros last = clock.now();
    int code = 0;
    for (int rendered = 1;; ++rendered) {
        const WindowKeys keys = window.poll();
        if (keys.quit) break;
        if (keys.pause) t.playing = !t.playing;
        if (keys.forward) {
            t.playing = false;
            player.step();
        }
        if (keys.back) {
            t.playing = false;
            player.seek(player.frame() - 1);
        }
        if (keys.jump != 0) player.seek(player.frame() + keys.jump * 10 * arena::kTickRate);
        if (keys.speed > 0 && t.speed + 1 < kSpeeds.size()) ++t.speed;
        if (keys.speed < 0 && t.speed > 0) --t.speed;
        const Micros now = clock.now();
        if (t.playing) {
            t.owed += (now - last).seconds() * arena::kTickRate * kSpeeds[t.speed];
            for (int n = 0; t.owed >= 1.0 && n < 8 * arena::kTickRate; ++n, t.owed -= 1.0) player.step();
            t.owed = std::min(t.owed, 1.0);
            if (player.at_end()) t.playing = false;
        } else {
            t.owed = 0;
        }
        last = now;
        window.begin_frame();
        const ImVec2 display = ImGui::GetIO().DisplaySize;
        const float bar = 3.0f * ImGui::GetFrameHeightWithSpacing() + 12.0f;
        view.layout(ImVec2(0.0f, 0.0f), ImVec2(display.x, std::max(1.0f, display.y - bar)));
        state_scene(player.state(), o.slot, scene);
        view.draw(ImGui::GetBackgroundDrawList(), scene, no_ghosts, now);
        draw_controls(player, t, o.replay, display, bar);
        const bool shoot = !o.screenshot.empty() && rendered >= o.frames;
        if (!window.end_frame(shoot ? o.screenshot : std::string{}).ok()) code = 1;
        if (shoot) break;
        if (signals.sleep(Micros{8000})) break;
    }
    return code;
}

}  // namespace

int run_replay(const ClientOptions& o) {
    std::optional<Player> player = open_replay(o.replay);
    if (!player) return 1;
    return o.headless ? check_replay(*player, o) : play_windowed(*player, o);
}

}  // namespace apps
