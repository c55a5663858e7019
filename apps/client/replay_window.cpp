// The replay window: the real-time playback clock, the keys and the control bar over a ReplaySource.
#include "client/replay_window.hpp"

#include "client/window.hpp"
#include "common/app_support.hpp"

#include <imgui.h>

#include <algorithm>
#include <array>
#include <cstdio>

namespace apps {

namespace {

using rwd::Micros;

constexpr std::array<double, 7> kSpeeds{0.125, 0.25, 0.5, 1.0, 2.0, 4.0, 8.0};

std::string clock_text(long long position, int rate) {
    const long long tenths = position * 10 / std::max(rate, 1);
    char buf[32];
    std::snprintf(buf, sizeof buf, "%lld:%02lld.%lld", tenths / 600, tenths / 10 % 60, tenths % 10);
    return buf;
}

/// The playback state the controls change.
struct Playback {
    bool playing = true;
    std::size_t speed = 3;  // index into kSpeeds: 1x
    double owed = 0;        // positions due but not played yet
};

void step_back(ReplaySource& s, Playback& p) {
    p.playing = false;
    s.seek(s.position() - 1);
}

void step_on(ReplaySource& s, Playback& p) {
    p.playing = false;
    s.step();
}

/// The control bar: the file, the verdict, play/pause, single steps, speeds, time and the seek slider.
void draw_controls(ReplaySource& s, Playback& p, const std::string& path, ImVec2 display, float height) {
    ImGui::SetNextWindowPos(ImVec2(0.0f, display.y - height));
    ImGui::SetNextWindowSize(ImVec2(display.x, height));
    ImGui::Begin("replay", nullptr,
                 ImGuiWindowFlags_NoTitleBar | ImGuiWindowFlags_NoResize | ImGuiWindowFlags_NoMove |
                     ImGuiWindowFlags_NoSavedSettings);
    ImGui::Text("%s  %s", path.c_str(), s.title().c_str());
    ImGui::SameLine();
    if (s.mismatches() == 0)
        ImGui::TextColored(ImVec4(0.5f, 0.9f, 0.5f, 1.0f), "  checksums verified: %llu",
                           static_cast<unsigned long long>(s.verified()));
    else
        ImGui::TextColored(ImVec4(1.0f, 0.4f, 0.4f, 1.0f), "  DIFFERS from its recording (%llu checksums)",
                           static_cast<unsigned long long>(s.mismatches()));
    if (ImGui::Button(p.playing ? "Pause" : "Play ")) p.playing = !p.playing;
    ImGui::SameLine();
    if (ImGui::Button("<")) step_back(s, p);
    ImGui::SameLine();
    if (ImGui::Button(">")) step_on(s, p);
    for (std::size_t i = 0; i < kSpeeds.size(); ++i) {
        ImGui::SameLine();
        char label[16];
        std::snprintf(label, sizeof label, "%gx", kSpeeds[i]);
        if (i == p.speed) ImGui::PushStyleColor(ImGuiCol_Button, ImVec4(0.2f, 0.45f, 0.8f, 1.0f));
        if (ImGui::Button(label)) p.speed = i;
        if (i == p.speed) ImGui::PopStyleColor();
    }
    ImGui::SameLine();
    ImGui::Text("  %s / %s   %lld / %lld", clock_text(s.position(), s.rate()).c_str(),
                clock_text(s.last(), s.rate()).c_str(), s.position(), s.last());
    int target = static_cast<int>(s.position());
    ImGui::SetNextItemWidth(-1.0f);
    if (ImGui::SliderInt("##seek", &target, 0, static_cast<int>(s.last()), "")) s.seek(target);
    ImGui::End();
}

void draw_feed(const std::vector<std::string>& lines, ImVec2 display) {
    if (lines.empty()) return;
    ImGui::SetNextWindowPos(ImVec2(display.x - 10.0f, 10.0f), ImGuiCond_Always, ImVec2(1.0f, 0.0f));
    ImGui::SetNextWindowBgAlpha(0.6f);
    ImGui::Begin("feed", nullptr,
                 ImGuiWindowFlags_NoTitleBar | ImGuiWindowFlags_AlwaysAutoResize | ImGuiWindowFlags_NoInputs |
                     ImGuiWindowFlags_NoSavedSettings);
    for (const std::string& l : lines) ImGui::TextUnformatted(l.c_str());
    ImGui::End();
}

}  // namespace

int play_replay_window(ReplaySource& s, const ClientOptions& o) {
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
    Playback p;
    Micros last = clock.now();
    int code = 0;
    for (int rendered = 1;; ++rendered) {
        const WindowKeys keys = window.poll();
        if (keys.quit) break;
        if (keys.pause) p.playing = !p.playing;
        if (keys.forward) step_on(s, p);
        if (keys.back) step_back(s, p);
        if (keys.jump != 0) s.seek(s.position() + keys.jump * 10LL * s.rate());
        if (keys.speed > 0 && p.speed + 1 < kSpeeds.size()) ++p.speed;
        if (keys.speed < 0 && p.speed > 0) --p.speed;
        const Micros now = clock.now();
        if (p.playing) {
            p.owed += (now - last).seconds() * s.rate() * kSpeeds[p.speed];
            for (int n = 0; p.owed >= 1.0 && n < 8 * s.rate(); ++n, p.owed -= 1.0) s.step();
            p.owed = std::min(p.owed, 1.0);
            if (s.position() >= s.last()) p.playing = false;
        } else {
            p.owed = 0;
        }
        last = now;
        window.begin_frame();
        const ImVec2 display = ImGui::GetIO().DisplaySize;
        const float bar = 3.0f * ImGui::GetFrameHeightWithSpacing() + 12.0f;
        view.layout(ImVec2(0.0f, 0.0f), ImVec2(display.x, std::max(1.0f, display.y - bar)));
        s.scene(o.slot, scene);
        view.draw(ImGui::GetBackgroundDrawList(), scene, no_ghosts, now);
        draw_feed(s.feed(), display);
        draw_controls(s, p, o.replay, display, bar);
        const bool shoot = !o.screenshot.empty() && rendered >= o.frames;
        if (!window.end_frame(shoot ? o.screenshot : std::string{}).ok()) code = 1;
        if (shoot) break;
        if (signals.sleep(Micros{8000})) break;
    }
    return code;
}

}  // namespace apps
