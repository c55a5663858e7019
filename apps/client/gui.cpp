// The windowed client-server client: frame loop, overlay, ghosts, conditioner, screenshots.
#include "client/gui.hpp"
#include "client/arena_view.hpp"
#include "client/client_report.hpp"
#include "client/end_screen.hpp"
#include "client/headless.hpp"
#include "client/hud.hpp"
#include "client/net_player.hpp"
#include "client/options.hpp"
#include "client/overlay.hpp"
#include "client/window.hpp"
#include "common/app_support.hpp"

#include <imgui.h>

#include <algorithm>
#include <cstdio>

namespace apps {

namespace {

using rwd::Micros;

void draw_banner(const NetPlayer& player, const ClientOptions& o) {
    // The end screen says why it ended; the reconnection banner says what it is doing.
    if (player.playing() || player.ended() || player.reconnecting()) return;
    const ImGuiViewport* vp = ImGui::GetMainViewport();
    ImGui::SetNextWindowPos(
        ImVec2(vp->WorkPos.x + vp->WorkSize.x * 0.5f, vp->WorkPos.y + vp->WorkSize.y * 0.5f),
        ImGuiCond_Always, ImVec2(0.5f, 0.5f));
    ImGui::Begin("status", nullptr, ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_AlwaysAutoResize);
    const auto& c = player.client();
    ImGui::Text("%s %s:%u", phase_name(c.phase()), o.server.host.c_str(), o.server.port);
    if (c.stats().connect_attempts > 1)
        ImGui::Text("no answer yet: attempt %llu",
                    static_cast<unsigned long long>(c.stats().connect_attempts));
    ImGui::End();
}

}  // namespace

int run_gui(const ClientOptions& o) {
    SignalWaiter signals;
    RealClock clock;
    KvLog log(stdout, "client", clock);
    std::string renderer;
    auto opened = Window::open(o.width, o.height, renderer);
    if (!opened.ok()) {
        std::fprintf(stderr,
                     "rewind-client: cannot open a window: %.*s (try --headless --bot, or xvfb-run)\n",
                     static_cast<int>(opened.error().detail.size()), opened.error().detail.data());
        return 1;
    }
    Window& window = *opened.value();
    log.kvf(rwd::LogLevel::info, "event=window renderer=%s size=%dx%d", renderer.c_str(), o.width, o.height);

    const NetPlayerConfig pc = player_config(o, log.logger());
    auto started = NetPlayer::start(pc, clock.now());
    if (!started.ok()) {
        std::fprintf(stderr, "rewind-client: cannot start: %s\n", rwd::error_name(started.code()).data());
        return 1;
    }
    NetPlayer& player = *started.value();
    ArenaView view;
    Hud hud;
    Overlay overlay;
    OverlayToggles toggles;
    toggles.visible = o.overlay;
    toggles.ghosts = o.ghosts;
    if (o.latency_ms > 0 || o.jitter_ms > 0 || o.loss_pct > 0) {
        toggles.conditioner = true;
        toggles.latency_ms = static_cast<float>(o.latency_ms);
        toggles.jitter_ms = static_cast<float>(o.jitter_ms);
        toggles.loss_pct = static_cast<float>(o.loss_pct);
        (void)player.link().set_links(links_from(o));  // ranges checked by the option parser
    }
    const Micros end = Micros::from_seconds(o.duration_s);
    // Save whatever shows if play never starts (or, waiting for a death, none comes).
    const Micros screenshot_deadline{o.screenshot_when == "frames" ? 20'000'000 : 90'000'000};
    const Micros frame_time{8'000};  // at most ~120 frames per second
    std::vector<DrawnEntity> entities, ghosts;
    arena::Input human_input{};
    int frames_playing = 0;
    bool was_interrupted = false;
    bool said_end = false;
    Micros play_start{};
    bool played = false;
    bool quit = false;
    int code = 0;
    while (!quit) {
        const Micros frame_start = clock.now();
        const WindowKeys keys = window.poll();
        quit = keys.quit;
        if (keys.toggle_overlay) toggles.visible = !toggles.visible;
        if (keys.toggle_ghosts) toggles.ghosts = !toggles.ghosts;
        const Micros now = clock.now();
        if (!o.bot) {
            human_input = read_input(view, human_input);
            player.client().set_input(human_input);
        }
        player.update(now);
        player.log_link_changes(log);
        if (!played && player.playing()) {
            played = true;
            play_start = now;
            log.kvf(rwd::LogLevel::info, "event=playing slot=%d resumed=%llu", player.client().slot(),
                    static_cast<unsigned long long>(player.client().stats().resumes));
        }
        // The connection's state, said once when it changes: silent server, resumed, ended (and why).
        const bool interrupted = player.client().connection_interrupted(now);
        if (interrupted != was_interrupted) {
            log.kvf(interrupted ? rwd::LogLevel::warn : rwd::LogLevel::info,
                    "event=connection_%s silence_ms=%.0f", interrupted ? "interrupted" : "resumed",
                    player.client().server_silence(now).millis());
            was_interrupted = interrupted;
        }
        if (player.ended() && !said_end) {
            const EndReason why = end_reason(player, played);
            const auto c = player.client().stats().disconnect_code;
            const bool lost = c == rwd::client_server::DisconnectCode::timed_out ||
                              c == rwd::client_server::DisconnectCode::transport;
            log.kvf(lost ? rwd::LogLevel::warn : rwd::LogLevel::info,
                    "event=ended code=%s title=\"%s\" detail=\"%s\"",
                    rwd::client_server::disconnect_code_name(c).data(), why.title.c_str(),
                    why.detail.c_str());
            said_end = true;
        }
        if (player.ended() && keys.enter) {
            const rwd::Status s = player.reconnect(now);
            log.kvf(rwd::LogLevel::info, "event=reconnecting ok=%d", s.ok() ? 1 : 0);
            if (s.ok()) said_end = false;
        }
        overlay.sample(player, now);
        for (rwd::client_server::Message m; player.client().poll_message(m);)
            hud.on_message(m, player.client().slot(), now);

        window.begin_frame();
        // The overlay docks on the left, the scoreboard and kill feed on the right (when the window is wide
        // enough for a column of its own); the arena takes the square that is left, whole.
        const ImVec2 display = ImGui::GetIO().DisplaySize;
        const float left = toggles.visible ? std::min(390.0f, display.x * 0.30f) : 0.0f;
        const float right = display.x - left - 190.0f >= 300.0f ? 190.0f : 0.0f;
        view.layout(ImVec2(left, 0.0f), ImVec2(display.x - left - right, display.y));
        client_scene(player, now, toggles.ghosts, entities, ghosts);
        view.set_stale(interrupted);  // remote players are guesses while the server is silent: drawn faded
        view.draw(ImGui::GetBackgroundDrawList(), entities, ghosts, now);
        draw_banner(player, o);
        const ImVec2 feed = overlay.draw(player, toggles, ImGui::GetIO().Framerate, left, right);
        // The feed stays in the scoreboard's column, 4 px off the arena's outline (or, without a column,
        // right of the arena's middle).
        const float feed_min_x = right > 0.0f ? display.x - right + 4.0f : display.x * 0.5f;
        hud.draw(ImGui::GetForegroundDrawList(), view, entities, player.client().slot(), feed, feed_min_x,
                 now);
        draw_connection_state(ImGui::GetForegroundDrawList(), player, interrupted,
                              player.client().server_silence(now), played, display);
        if (player.playing()) ++frames_playing;
        const bool shows = o.screenshot_when == "dead"           ? hud.showing_death()
                           : o.screenshot_when == "interrupted"  ? interrupted
                           : o.screenshot_when == "reconnecting" ? player.reconnecting()
                           : o.screenshot_when == "ended"        ? player.ended()
                                                                 : true;
        const bool ready = frames_playing >= o.frames && shows;
        const bool shoot = !o.screenshot.empty() && (ready || now > screenshot_deadline);
        const rwd::Status saved = window.end_frame(shoot ? o.screenshot : std::string{});
        if (shoot) {
            log.kvf(rwd::LogLevel::info, "event=screenshot file=%s ok=%d frames=%d", o.screenshot.c_str(),
                    saved.ok() ? 1 : 0, frames_playing);
            if (!saved.ok() || !ready) code = 1;
            quit = true;
        }
        if (player.ended() && !(shoot && ready)) {
            const bool waits =
                !o.screenshot.empty() && o.screenshot_when == "ended";  // shot on the next frame
            if (!o.screenshot.empty() && !waits) code = 1;
            if ((o.bot && o.screenshot.empty()) || (!o.screenshot.empty() && !waits))
                quit = true;  // a person may want to read why, and reconnect
        }
        if (o.duration_s > 0.0 && now >= end) quit = true;
        const Micros spent = clock.now() - frame_start;
        if (signals.sleep(spent < frame_time ? frame_time - spent : Micros{0})) quit = true;
    }
    const Micros now = clock.now();
    if (!player.ended()) player.quit(now);
    for (int i = 0; i < 10; ++i) {
        player.udp().update(clock.now());
        signals.sleep(Micros{5000});
    }
    save_net_recording(player, log);
    std::printf("final %s\n",
                client_report_json(player, played ? (now - play_start).seconds() : 0.0).c_str());
    std::fflush(stdout);
    return code;
}

}  // namespace apps
