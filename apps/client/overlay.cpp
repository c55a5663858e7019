// Overlay drawing: ImGui windows with PlotLines for each netcode figure, toggles and conditioner sliders.
#include "client/overlay.hpp"

#include "client/client_report.hpp"

#include <imgui.h>

#include <algorithm>
#include <cfloat>
#include <cstdio>
#include <vector>

namespace apps {

namespace cs = rwd::client_server;

void PlotHistory::push(float v) {
    values_[static_cast<std::size_t>(next_)] = v;
    next_ = (next_ + 1) % kSize;
    count_ = std::min(count_ + 1, kSize);
}

void PlotHistory::plot(const char* label, const char* fmt, float height) const {
    // The name and the newest value on a line of their own, the plot under them across the window: no line
    // crosses the text and no label is cut off however narrow the window.
    char value[64];
    std::snprintf(value, sizeof value, fmt, static_cast<double>(last()));
    ImGui::Text("%s  %s", label, value);
    char id[80];
    std::snprintf(id, sizeof id, "##%s", label);
    const int offset = count_ < kSize ? 0 : next_;
    // PlotLines takes its size as given (no "fill the width" for negative values): measure the width.
    ImGui::PlotLines(id, values_.data(), count_, offset, nullptr, FLT_MAX, FLT_MAX,
                     ImVec2(ImGui::GetContentRegionAvail().x, height));
}

void Overlay::sample(const NetPlayer& player, rwd::Micros now) {
    if (now < next_sample_) return;
    next_sample_ = now + rwd::Micros{100'000};
    const auto& c = player.client();
    const auto& s = c.stats();
    rtt_.push(static_cast<float>(s.rtt.millis()));
    jitter_.push(static_cast<float>(s.jitter.millis()));
    loss_.push(static_cast<float>(s.loss * 100.0));
    // A depth below 0 means the render time ran past the newest snapshot (starved): shown as 0, and counted
    // in "starved" above.
    interp_depth_.push(static_cast<float>(std::max(0.0, s.interp_buffer_ticks)));
    corrections_.push(static_cast<float>(s.corrections_per_second));
    drift_.push(static_cast<float>(s.server_tick_drift));
    server_buffer_.push(static_cast<float>(s.server_input_buffer_depth));
    kbps_up_.push(static_cast<float>(s.kbps_sent));
    kbps_down_.push(static_cast<float>(s.kbps_received));
    // One point per correction (not per sample): the error of each new misprediction, in centimetres.
    const auto& log = c.corrections();
    const std::uint64_t fresh = s.corrections - corrections_seen_;
    corrections_seen_ = s.corrections;
    const std::size_t take = static_cast<std::size_t>(std::min<std::uint64_t>(fresh, log.size()));
    for (std::size_t i = log.size() - take; i < log.size(); ++i)
        error_.push(static_cast<float>(log[i].error_m * 100.0));
}

void Overlay::draw_conditioner(NetPlayer& player, OverlayToggles& t) {
    bool changed = ImGui::Checkbox("client-side link conditioner", &t.conditioner);
    if (t.conditioner) {
        changed |= ImGui::SliderFloat("latency ms", &t.latency_ms, 0.0f, 400.0f, "%.0f");
        changed |= ImGui::SliderFloat("jitter ms", &t.jitter_ms, 0.0f, 100.0f, "%.0f");
        changed |= ImGui::SliderFloat("loss %", &t.loss_pct, 0.0f, 50.0f, "%.1f");
    }
    if (!changed) return;
    rwd::transport::ConditionedLinks links;  // perfect unless switched on
    if (t.conditioner) {
        links.up.latency = rwd::Micros::from_seconds(t.latency_ms / 1000.0);
        links.up.jitter = rwd::Micros::from_seconds(t.jitter_ms / 1000.0);
        links.up.loss = t.loss_pct / 100.0;
        links.down = links.up;
    }
    (void)player.link().set_links(links);  // the sliders keep every value in range
}

ImVec2 Overlay::draw_scoreboard(const NetPlayer& player, float right_width) const {
    const ImGuiViewport* vp = ImGui::GetMainViewport();
    const ImVec2 top_right(vp->WorkPos.x + vp->WorkSize.x - 10.0f, vp->WorkPos.y + 10.0f);
    const auto& c = player.client();
    if (c.phase() != cs::ClientPhase::playing) return top_right;
    struct Row {
        int slot;
        std::int32_t score, deaths;
    };
    std::vector<Row> rows;
    const auto& st = c.predicted_state();
    for (int i = 0; i < arena::kMaxPlayers; ++i) {
        const auto& p = st.players[static_cast<std::size_t>(i)];
        if (p.present()) rows.push_back(Row{i, p.score, p.deaths});
    }
    std::sort(rows.begin(), rows.end(), [](const Row& a, const Row& b) { return a.score > b.score; });
    ImGui::SetNextWindowPos(top_right, ImGuiCond_Always, ImVec2(1.0f, 0.0f));
    // In its own column it stays there, 4 px off the arena's outline: whatever would be wider is clipped
    // rather than drawn over the arena's edge.
    if (right_width > 0.0f)
        ImGui::SetNextWindowSizeConstraints(ImVec2(0.0f, 0.0f), ImVec2(right_width - 14.0f, FLT_MAX));
    ImGui::SetNextWindowBgAlpha(0.6f);
    ImGui::Begin("score", nullptr,
                 ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_AlwaysAutoResize |
                     ImGuiWindowFlags_NoFocusOnAppearing | ImGuiWindowFlags_NoNav);
    ImGui::TextUnformatted("slot  kills  deaths");
    for (const Row& r : rows)
        ImGui::Text("%s%3d  %5d  %6d", r.slot == c.slot() ? ">" : " ", r.slot, r.score, r.deaths);
    const auto& self = st.players[static_cast<std::size_t>(c.slot())];
    ImGui::Separator();
    // Reloading on a line of its own: on the hp line it made the window wider than its column.
    ImGui::Text("hp %d  ammo %u", self.hp, self.ammo);
    if (self.reload_timer) ImGui::TextUnformatted("reloading");
    const float bottom = ImGui::GetWindowPos().y + ImGui::GetWindowSize().y;
    ImGui::End();
    return ImVec2(top_right.x, bottom + 8.0f);
}

ImVec2 Overlay::draw(NetPlayer& player, OverlayToggles& t, float fps, float width, float right_width) {
    const ImVec2 below_scoreboard = draw_scoreboard(player, right_width);
    if (!t.visible) return below_scoreboard;
    const auto& c = player.client();
    const auto& s = c.stats();
    const ImGuiViewport* vp = ImGui::GetMainViewport();
    // The window fills the column the arena leaves it; what does not fit scrolls.
    ImGui::SetNextWindowPos(ImVec2(vp->WorkPos.x + 10.0f, vp->WorkPos.y + 10.0f), ImGuiCond_Always);
    ImGui::SetNextWindowSize(ImVec2(width - 20.0f, vp->WorkSize.y - 20.0f), ImGuiCond_Always);
    ImGui::SetNextWindowBgAlpha(0.75f);
    ImGui::Begin("netcode (F1)", nullptr, ImGuiWindowFlags_NoMove | ImGuiWindowFlags_NoResize);
    if (c.slot() >= 0)
        ImGui::Text("%s  slot %d  tick %u  %.0f fps", phase_name(c.phase()), c.slot(), c.tick().value,
                    static_cast<double>(fps));
    else
        ImGui::Text("%s  %.0f fps", phase_name(c.phase()), static_cast<double>(fps));  // no seat yet
    ImGui::Text("lead %.1f ticks  time scale %.3f", s.lead_ticks, s.time_scale);
    ImGui::Text("corrections %llu, snapped %llu, max %.1f cm", static_cast<unsigned long long>(s.corrections),
                static_cast<unsigned long long>(s.snaps), s.max_error_m * 100.0);
    ImGui::Text("snapshots %llu  starved %llu  resyncs %llu",
                static_cast<unsigned long long>(s.snapshots_received),
                static_cast<unsigned long long>(s.interp_starvations),
                static_cast<unsigned long long>(s.hard_resyncs));
    rtt_.plot("RTT", "%.1f ms");
    jitter_.plot("jitter", "%.1f ms");
    loss_.plot("loss", "%.1f %%");
    interp_depth_.plot("interp buffer", "%.2f ticks");
    error_.plot("error per correction", "%.2f cm");
    corrections_.plot("corrections/s", "%.0f /s");
    drift_.plot("server drift", "%.2f ticks");
    server_buffer_.plot("input buffer on the server", "%.0f inputs");
    kbps_up_.plot("up", "%.1f kbps");
    kbps_down_.plot("down", "%.1f kbps");
    if (ImGui::CollapsingHeader("interpolation depth per entity")) {
        for (const auto& e : c.entity_buffer_stats())
            ImGui::Text("entity %u: %.2f ticks%s", e.id, std::max(0.0, e.depth_ticks),
                        e.depth_ticks < 0.0 ? " (starved)" : "");
    }
    ImGui::Checkbox("ghosts: server positions (F2)", &t.ghosts);
    draw_conditioner(player, t);
    ImGui::End();
    return below_scoreboard;
}

}  // namespace apps
