// rewind-client --model rollback: a 2-player peer-to-peer arena match with P2PSession over ENet, windowed or
// headless.
#include "client/rollback_mode.hpp"

#include "client/arena_view.hpp"
#include "client/window.hpp"
#include "common/app_support.hpp"

#include <arena/arena_game.hpp>
#include <arena/bot.hpp>

#include <rewind/session/rollback/p2p_match.hpp>
#include <rewind/session/rollback/replay_recorder.hpp>
#include <rewind/transport/address_text.hpp>

#include <imgui.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cstdio>
#include <memory>
#include <optional>
#include <vector>

namespace apps {

namespace {

using rwd::LogLevel;
using rwd::Micros;
namespace rb = rwd::rollback;
namespace tr = rwd::transport;
using Session = rb::P2PSession<arena::ArenaGame>;
using Match = rb::P2PMatch<arena::ArenaGame>;

/// Both peers must present this tag in the rollback handshake ("ARN1").
constexpr std::uint32_t kRollbackSessionTag = 0x41524E31u;
/// The match seed: fixed, not --seed, since both machines must start from the same State.
constexpr std::uint64_t kMatchSeed = 1;

/// A recorder of the match for --save-replay (the file's header rebuilds the initial State).
std::optional<rwd::rollback::ReplayRecorder<arena::ArenaGame>> make_recorder() {
    rwd::rollback::ReplayHeader h;
    h.game_id = std::string(arena::kGameId);
    h.game_version = arena::kRulesVersion;
    h.model = rwd::rollback::ReplayModel::rollback;
    h.seed = kMatchSeed;
    h.players = {"slot 0", "slot 1"};
    h.checksum_interval = arena::kTickRate;
    auto r = rwd::rollback::ReplayRecorder<arena::ArenaGame>::create(std::move(h));
    if (!r.ok()) return std::nullopt;
    return std::move(r.value());
}

void draw_rollback_overlay(const Session& session, int slot, float fps) {
    const auto st = session.stats();
    ImGui::SetNextWindowPos(ImVec2(10.0f, 10.0f), ImGuiCond_FirstUseEver);
    ImGui::SetNextWindowBgAlpha(0.75f);
    ImGui::Begin("rollback (F1)", nullptr, ImGuiWindowFlags_AlwaysAutoResize);
    ImGui::Text("%s  slot %d  frame %d  %.0f fps", session.running() ? "running" : "synchronizing", slot,
                st.frame, static_cast<double>(fps));
    ImGui::Text("confirmed %d  input delay %d", st.confirmed_frame, session.input_delay());
    ImGui::Text("rollbacks %llu  resimulated %llu (%.1f/s)", static_cast<unsigned long long>(st.rollbacks),
                static_cast<unsigned long long>(st.frames_resimulated), st.resimulated_per_second);
    ImGui::Text("ahead %.2f frames  speed %.3f", st.frames_ahead, st.time_scale);
    ImGui::Text("checksums compared %llu  desyncs %llu",
                static_cast<unsigned long long>(st.checksums_compared),
                static_cast<unsigned long long>(st.desyncs));
    for (const auto& p : session.peer_stats())
        ImGui::Text("peer %u: ping %.1f ms  %.1f/%.1f kbps", p.peer, p.ping.millis(), p.kbps_sent,
                    p.kbps_received);
    ImGui::End();
}

}  // namespace

int run_rollback(const ClientOptions& o) {
    SignalWaiter signals;
    RealClock clock;
    KvLog log(stdout, "client", clock);
    int slot = o.slot;
    if (slot < 0) {
        if (o.listen_port == o.peer_address.port) {
            std::fprintf(
                stderr,
                "rewind-client: both peers use port %u: pass --slot 0 on one side, --slot 1 on the other\n",
                o.listen_port);
            return 2;
        }
        slot = o.listen_port < o.peer_address.port ? 0 : 1;  // both sides reach the same answer
    }
    rb::P2PMatchConfig mc;
    mc.local_port = o.listen_port;
    mc.players.assign(2, "local");
    mc.players[static_cast<std::size_t>(1 - slot)] = tr::address_text(o.peer_address);  // slot 0 only waits
    mc.retry_interval = Micros{1'000'000};
    mc.timeout = Micros{60'000'000};
    mc.session.session_tag = kRollbackSessionTag;
    mc.session.seed = o.seed * 2 + static_cast<std::uint64_t>(slot);  // handshake nonces differ per side
    mc.session.max_spectators = 0;
    mc.session.logger = log.logger();
    auto made = Match::open(mc, arena::new_seated_match(kMatchSeed, 2));
    if (!made.ok()) {
        std::fprintf(stderr, "rewind-client: rollback match on port %u: %s %.*s\n", o.listen_port,
                     rwd::error_name(made.code()).data(), static_cast<int>(made.error().detail.size()),
                     made.error().detail.data());
        return 1;
    }
    Match& match = *made.value();
    log.kvf(LogLevel::info, "event=rollback_listening port=%u slot=%d peer=%s:%u", match.local_address().port,
            slot, o.peer_address.host.c_str(), o.peer_address.port);

    std::unique_ptr<Window> window;
    if (!o.headless) {
        std::string renderer;
        auto w = Window::open(o.width, o.height, renderer);
        if (!w.ok()) {
            std::fprintf(stderr, "rewind-client: cannot open a window (try --headless --bot)\n");
            return 1;
        }
        window = std::move(w.value());
    }

    arena::Input input{};
    while (!match.ready()) {
        if (match.failed()) {
            log.kvf(LogLevel::warn, "event=peer_timeout reason=%s",
                    rwd::error_name(match.error().code).data());
            return 1;
        }
        (void)match.advance(clock.now(), [&](int, const arena::State&) { return input; });
        if (signals.sleep(Micros{5000})) return 1;
    }
    log.kv(LogLevel::info, "event=peer_connected");
    Session& session = match.session();

    std::optional<arena::Bot> bot;
    if (o.bot) bot.emplace(o.seed);
    std::optional<rwd::rollback::ReplayRecorder<arena::ArenaGame>> recorder;
    if (!o.save_replay.empty()) recorder = make_recorder();
    std::string replay_error;
    ArenaView view;
    std::vector<DrawnEntity> scene;
    const std::vector<DrawnEntity> no_ghosts;
    bool overlay = o.overlay;
    bool ran = false;
    bool peer_left = false;
    int frames_running = 0;
    const Micros start = clock.now();
    int code = 0;
    for (bool quit = false; !quit;) {
        const Micros now = clock.now();
        if (window) {
            const WindowKeys keys = window->poll();
            quit = keys.quit;
            if (keys.toggle_overlay) overlay = !overlay;
            if (!o.bot) input = read_input(view, input);
        }
        // Frames at 60 Hz times the session's recommended speed (a stall keeps at most a few frames owed).
        (void)match.advance(now, [&](int own, const arena::State& state) {
            if (bot) input = bot->think(arena::view_of(state, own));
            return input;
        });
        rb::SessionEvent ev;
        while (session.poll_event(ev)) {
            if (ev.type == rb::SessionEvent::Type::running) {
                ran = true;
                log.kv(LogLevel::info, "event=running");
            }
            if (ev.type == rb::SessionEvent::Type::disconnected) peer_left = true;
            if (ev.type == rb::SessionEvent::Type::desync_detected)
                log.kvf(LogLevel::error, "event=desync frame=%d", ev.frame);
        }
        if (session.running()) ++frames_running;
        if (recorder) {
            if (auto rs = recorder->record(session); !rs.ok()) {
                replay_error = std::string(rs.error().detail);
                recorder.reset();
            }
        }
        if (window) {
            window->begin_frame();
            const ImVec2 display = ImGui::GetIO().DisplaySize;
            const float left = overlay ? std::min(390.0f, display.x * 0.4f) : 0.0f;
            view.layout(ImVec2(left, 0.0f), ImVec2(display.x - left, display.y));
            state_scene(session.state(), slot, scene);
            view.draw(ImGui::GetBackgroundDrawList(), scene, no_ghosts, now);
            if (overlay) draw_rollback_overlay(session, slot, ImGui::GetIO().Framerate);
            const bool shoot = !o.screenshot.empty() && frames_running >= o.frames;
            if (!window->end_frame(shoot ? o.screenshot : std::string{}).ok()) code = 1;
            if (shoot) quit = true;
        }
        if (peer_left) quit = true;
        if (o.duration_s > 0.0 && now - start >= Micros::from_seconds(o.duration_s)) quit = true;
        if (signals.sleep(window ? Micros{8000} : Micros{2000})) quit = true;
    }
    const auto st = session.stats();
    session.close(clock.now());
    for (int i = 0; i < 10; ++i) {
        session.update(clock.now());
        signals.sleep(Micros{5000});
    }
    nlohmann::json j;
    j["model"] = "rollback";
    j["slot"] = slot;
    j["ran"] = ran;
    j["peer_left"] = peer_left;
    j["frames"] = st.frames_advanced;
    j["confirmed_frame"] = st.confirmed_frame;
    j["rollbacks"] = st.rollbacks;
    j["frames_resimulated"] = st.frames_resimulated;
    j["checksums_compared"] = st.checksums_compared;
    j["desyncs"] = st.desyncs;
    j["malformed"] = st.malformed;
    j["checksum"] = arena::ArenaGame::checksum(session.state());
    if (!o.save_replay.empty()) {
        if (recorder) {
            if (auto ws = recorder->save(o.save_replay); !ws.ok())
                replay_error = std::string(ws.error().detail);
            j["replay_frames"] = recorder->frames();
            j["replay_checksums"] = recorder->checksums();
        }
        j["replay"] = replay_error.empty() ? o.save_replay : "error: " + replay_error;
        if (!replay_error.empty()) {
            log.kvf(LogLevel::error, "event=replay_not_saved path=%s reason=\"%s\"", o.save_replay.c_str(),
                    replay_error.c_str());
            code = 1;
        }
    }
    std::printf("final %s\n", j.dump().c_str());
    std::fflush(stdout);
    if (!ran || st.desyncs != 0) code = 1;
    return code;
}

}  // namespace apps
