// The windowed client: SDL2 window and renderer, Dear ImGui (SDL backends), keyboard/mouse input, screenshots.
#include "client/app_support.hpp"
#include "client/arena_view.hpp"
#include "client/client_report.hpp"
#include "client/headless.hpp"
#include "client/net_player.hpp"
#include "client/options.hpp"
#include "client/overlay.hpp"
#include "client/screenshot.hpp"

#include <SDL.h>
#include <imgui.h>
#include <imgui_impl_sdl.h>
#include <imgui_impl_sdlrenderer.h>

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace apps {

namespace {

using rwd::Micros;

/// Keyboard and mouse to an arena input: WASD move, mouse aims from the drawn player, left fire, right alt-fire,
/// R reload, space dash. The mouse is ignored while it is over an ImGui window.
arena::Input read_input(const ArenaView& view, const arena::Input& previous) {
    arena::Input in;
    const Uint8* keys = SDL_GetKeyboardState(nullptr);
    const ImGuiIO& io = ImGui::GetIO();
    if (!io.WantCaptureKeyboard) {
        in.move_x = static_cast<std::int8_t>((keys[SDL_SCANCODE_D] ? arena::kAxisMax : 0) - (keys[SDL_SCANCODE_A] ? arena::kAxisMax : 0));
        in.move_y = static_cast<std::int8_t>((keys[SDL_SCANCODE_W] ? arena::kAxisMax : 0) - (keys[SDL_SCANCODE_S] ? arena::kAxisMax : 0));
        if (keys[SDL_SCANCODE_R]) in.buttons |= arena::kReload;
        if (keys[SDL_SCANCODE_SPACE]) in.buttons |= arena::kDash;
    }
    in.aim = previous.aim;
    int mx = 0;
    int my = 0;
    const Uint32 mouse = SDL_GetMouseState(&mx, &my);
    ImVec2 self;
    if (view.own_position(self)) {
        const double dx = static_cast<double>(mx) - static_cast<double>(self.x);
        const double dy = static_cast<double>(self.y) - static_cast<double>(my);  // screen y grows down, arena y grows up
        if (dx * dx + dy * dy > 4.0) {
            const double turns = std::atan2(dy, dx) / 6.283185307179586;
            in.aim = static_cast<std::uint16_t>(static_cast<std::int64_t>(std::lround(turns * 65536.0)) & 0xFFFF);
        }
    }
    if (!io.WantCaptureMouse) {
        if (mouse & SDL_BUTTON(SDL_BUTTON_LEFT)) in.buttons |= arena::kFire;
        if (mouse & SDL_BUTTON(SDL_BUTTON_RIGHT)) in.buttons |= arena::kAltFire;
    }
    return in;
}

void draw_banner(const NetPlayer& player, const ClientOptions& o) {
    if (player.playing()) return;
    const ImGuiViewport* vp = ImGui::GetMainViewport();
    ImGui::SetNextWindowPos(ImVec2(vp->WorkPos.x + vp->WorkSize.x * 0.5f, vp->WorkPos.y + vp->WorkSize.y * 0.5f),
                            ImGuiCond_Always, ImVec2(0.5f, 0.5f));
    ImGui::Begin("status", nullptr, ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_AlwaysAutoResize);
    const auto& c = player.client();
    ImGui::Text("%s %s:%u", phase_name(c.phase()), o.server.host.c_str(), o.server.port);
    if (player.ended())
        ImGui::Text("disconnected: %s", rwd::client_server::disconnect_code_name(c.stats().disconnect_code).data());
    ImGui::End();
}

}  // namespace

int run_gui(const ClientOptions& o) {
    SignalWaiter signals;
    RealClock clock;
    KvLog log(stdout, "client", clock);
    if (SDL_Init(SDL_INIT_VIDEO) != 0) {
        std::fprintf(stderr, "rewind-client: SDL_Init: %s (no display? try --headless --bot, or xvfb-run)\n", SDL_GetError());
        return 1;
    }
    SDL_Window* window = SDL_CreateWindow("rewind-client", SDL_WINDOWPOS_CENTERED, SDL_WINDOWPOS_CENTERED, o.width,
                                          o.height, SDL_WINDOW_RESIZABLE);
    SDL_Renderer* renderer = window ? SDL_CreateRenderer(window, -1, SDL_RENDERER_ACCELERATED) : nullptr;
    if (window && !renderer) renderer = SDL_CreateRenderer(window, -1, SDL_RENDERER_SOFTWARE);
    if (!window || !renderer) {
        std::fprintf(stderr, "rewind-client: cannot open a window: %s\n", SDL_GetError());
        if (window) SDL_DestroyWindow(window);
        SDL_Quit();
        return 1;
    }
    SDL_RendererInfo info{};
    SDL_GetRendererInfo(renderer, &info);
    log.kvf(rwd::LogLevel::info, "event=window renderer=%s size=%dx%d", info.name, o.width, o.height);

    IMGUI_CHECKVERSION();
    ImGui::CreateContext();
    ImGui::GetIO().IniFilename = nullptr;  // no imgui.ini next to wherever the client was started
    ImGui::StyleColorsDark();
    ImGui_ImplSDL2_InitForSDLRenderer(window);
    ImGui_ImplSDLRenderer_Init(renderer);

    int code = 0;
    {
        NetPlayerConfig pc;
        pc.server = o.server;
        pc.tick_rate_hz = o.tick_rate_hz;
        pc.bot = o.bot;
        pc.bot_seed = o.seed;
        pc.link_seed = o.seed;
        pc.connect_token = o.connect_token;
        pc.logger = log.logger();
        auto started = NetPlayer::start(pc, clock.now());
        if (!started.ok()) {
            std::fprintf(stderr, "rewind-client: cannot start: %s\n", rwd::error_name(started.code()).data());
            code = 1;
        } else {
            NetPlayer& player = *started.value();
            ArenaView view;
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
            const Micros screenshot_deadline = Micros{20'000'000};  // save whatever shows if play never starts
            const Micros frame_time{8'000};                          // at most ~120 frames per second
            arena::Input human_input{};
            int frames_playing = 0;
            Micros play_start{};
            bool played = false;
            bool quit = false;
            while (!quit) {
                const Micros frame_start = clock.now();
                SDL_Event ev;
                while (SDL_PollEvent(&ev)) {
                    ImGui_ImplSDL2_ProcessEvent(&ev);
                    if (ev.type == SDL_QUIT) quit = true;
                    if (ev.type == SDL_KEYDOWN && ev.key.repeat == 0) {
                        if (ev.key.keysym.sym == SDLK_F1) toggles.visible = !toggles.visible;
                        if (ev.key.keysym.sym == SDLK_F2) toggles.ghosts = !toggles.ghosts;
                        if (ev.key.keysym.sym == SDLK_ESCAPE) quit = true;
                    }
                }
                const Micros now = clock.now();
                if (!o.bot) {
                    human_input = read_input(view, human_input);
                    player.client().set_input(human_input);
                }
                player.update(now);
                if (!played && player.playing()) {
                    played = true;
                    play_start = now;
                    log.kvf(rwd::LogLevel::info, "event=playing slot=%d", player.client().slot());
                }
                overlay.sample(player, now);

                ImGui_ImplSDLRenderer_NewFrame();
                ImGui_ImplSDL2_NewFrame();
                ImGui::NewFrame();
                // The overlay docks on the left: the arena takes the rest of the window when it is shown.
                const ImVec2 display = ImGui::GetIO().DisplaySize;
                const float left = toggles.visible ? std::min(390.0f, display.x * 0.4f) : 0.0f;
                view.layout(ImVec2(left, 0.0f), ImVec2(display.x - left, display.y));
                view.draw(ImGui::GetBackgroundDrawList(), player, now, toggles.ghosts);
                draw_banner(player, o);
                overlay.draw(player, toggles, ImGui::GetIO().Framerate);
                ImGui::Render();
                SDL_SetRenderDrawColor(renderer, 8, 10, 14, 255);
                SDL_RenderClear(renderer);
                ImGui_ImplSDLRenderer_RenderDrawData(ImGui::GetDrawData());
                if (player.playing()) ++frames_playing;
                if (!o.screenshot.empty() && (frames_playing >= o.frames || now > screenshot_deadline)) {
                    auto s = save_screenshot(renderer, o.screenshot);
                    log.kvf(rwd::LogLevel::info, "event=screenshot file=%s ok=%d frames=%d", o.screenshot.c_str(),
                            s.ok() ? 1 : 0, frames_playing);
                    if (!s.ok() || frames_playing < o.frames) code = 1;
                    quit = true;
                }
                SDL_RenderPresent(renderer);
                if (player.ended()) {
                    if (!o.screenshot.empty()) code = 1;
                    if (o.bot || !o.screenshot.empty()) quit = true;  // a person may want to read why
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
            std::printf("final %s\n", client_report_json(player, played ? (now - play_start).seconds() : 0.0).c_str());
            std::fflush(stdout);
        }
    }
    ImGui_ImplSDLRenderer_Shutdown();
    ImGui_ImplSDL2_Shutdown();
    ImGui::DestroyContext();
    SDL_DestroyRenderer(renderer);
    SDL_DestroyWindow(window);
    SDL_Quit();
    return code;
}

}  // namespace apps
