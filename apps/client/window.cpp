// Window: SDL/ImGui setup and teardown, event pump, frame rendering and screenshots; read_input.
#include "client/window.hpp"

#include "client/screenshot.hpp"

#include <SDL.h>
#include <imgui.h>
#include <imgui_impl_sdl.h>
#include <imgui_impl_sdlrenderer.h>

#include <cmath>

namespace apps {

rwd::Result<std::unique_ptr<Window>> Window::open(int width, int height, std::string& renderer_name) {
    if (SDL_Init(SDL_INIT_VIDEO) != 0)
        return rwd::Error{rwd::Errc::io_error, "SDL_Init failed (no display?)"};
    std::unique_ptr<Window> w(new Window());
    w->window_ = SDL_CreateWindow("rewind-client", SDL_WINDOWPOS_CENTERED, SDL_WINDOWPOS_CENTERED, width,
                                  height, SDL_WINDOW_RESIZABLE);
    if (!w->window_) return rwd::Error{rwd::Errc::io_error, "SDL_CreateWindow failed"};
    w->renderer_ = SDL_CreateRenderer(w->window_, -1, SDL_RENDERER_ACCELERATED);
    if (!w->renderer_) w->renderer_ = SDL_CreateRenderer(w->window_, -1, SDL_RENDERER_SOFTWARE);
    if (!w->renderer_) return rwd::Error{rwd::Errc::io_error, "SDL_CreateRenderer failed"};
    SDL_RendererInfo info{};
    SDL_GetRendererInfo(w->renderer_, &info);
    renderer_name = info.name ? info.name : "?";
    IMGUI_CHECKVERSION();
    ImGui::CreateContext();
    ImGui::GetIO().IniFilename = nullptr;  // no imgui.ini next to wherever the client was started
    ImGui::StyleColorsDark();
    ImGui_ImplSDL2_InitForSDLRenderer(w->window_);
    ImGui_ImplSDLRenderer_Init(w->renderer_);
    w->imgui_ = true;
    return w;
}

Window::~Window() {
    if (imgui_) {
        ImGui_ImplSDLRenderer_Shutdown();
        ImGui_ImplSDL2_Shutdown();
        ImGui::DestroyContext();
    }
    if (renderer_) SDL_DestroyRenderer(renderer_);
    if (window_) SDL_DestroyWindow(window_);
    SDL_Quit();
}

WindowKeys Window::poll() {
    WindowKeys k;
    SDL_Event ev;
    while (SDL_PollEvent(&ev)) {
        ImGui_ImplSDL2_ProcessEvent(&ev);
        if (ev.type == SDL_QUIT) k.quit = true;
        if (ev.type == SDL_KEYDOWN && ev.key.repeat == 0) {
            if (ev.key.keysym.sym == SDLK_F1) k.toggle_overlay = true;
            if (ev.key.keysym.sym == SDLK_F2) k.toggle_ghosts = true;
            if (ev.key.keysym.sym == SDLK_ESCAPE) k.quit = true;
            if (ev.key.keysym.sym == SDLK_RETURN || ev.key.keysym.sym == SDLK_KP_ENTER) k.enter = true;
            if (ev.key.keysym.sym == SDLK_SPACE) k.pause = true;
        }
        if (ev.type == SDL_KEYDOWN) {  // held keys repeat
            switch (ev.key.keysym.sym) {
                case SDLK_RIGHT:
                    k.forward = true;
                    break;
                case SDLK_LEFT:
                    k.back = true;
                    break;
                case SDLK_PAGEUP:
                    k.jump = 1;
                    break;
                case SDLK_PAGEDOWN:
                    k.jump = -1;
                    break;
                case SDLK_PLUS:
                case SDLK_EQUALS:
                case SDLK_KP_PLUS:
                    k.speed = 1;
                    break;
                case SDLK_MINUS:
                case SDLK_KP_MINUS:
                    k.speed = -1;
                    break;
                default:
                    break;
            }
        }
    }
    return k;
}

void Window::begin_frame() {
    ImGui_ImplSDLRenderer_NewFrame();
    ImGui_ImplSDL2_NewFrame();
    ImGui::NewFrame();
}

rwd::Status Window::end_frame(const std::string& screenshot) {
    ImGui::Render();
    SDL_SetRenderDrawColor(renderer_, 8, 10, 14, 255);
    SDL_RenderClear(renderer_);
    ImGui_ImplSDLRenderer_RenderDrawData(ImGui::GetDrawData());
    rwd::Status saved;
    if (!screenshot.empty()) saved = save_screenshot(renderer_, screenshot);
    SDL_RenderPresent(renderer_);
    return saved;
}

arena::Input read_input(const ArenaView& view, const arena::Input& previous) {
    arena::Input in;
    const Uint8* keys = SDL_GetKeyboardState(nullptr);
    const ImGuiIO& io = ImGui::GetIO();
    if (!io.WantCaptureKeyboard) {
        in.move_x = static_cast<std::int8_t>((keys[SDL_SCANCODE_D] ? arena::kAxisMax : 0) -
                                             (keys[SDL_SCANCODE_A] ? arena::kAxisMax : 0));
        in.move_y = static_cast<std::int8_t>((keys[SDL_SCANCODE_W] ? arena::kAxisMax : 0) -
                                             (keys[SDL_SCANCODE_S] ? arena::kAxisMax : 0));
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
        const double dy = static_cast<double>(self.y) - static_cast<double>(my);  // screen y down, arena y up
        if (dx * dx + dy * dy > 4.0) {
            const double turns = std::atan2(dy, dx) / 6.283185307179586;
            in.aim =
                static_cast<std::uint16_t>(static_cast<std::int64_t>(std::lround(turns * 65536.0)) & 0xFFFF);
        }
    }
    if (!io.WantCaptureMouse) {
        if (mouse & SDL_BUTTON(SDL_BUTTON_LEFT)) in.buttons |= arena::kFire;
        if (mouse & SDL_BUTTON(SDL_BUTTON_RIGHT)) in.buttons |= arena::kAltFire;
    }
    return in;
}

}  // namespace apps
