// Overlay drawing: a translucent panel of figures and plots on the left, the scoreboard on the right.
#include "overlay.hpp"

#include <algorithm>
#include <cstdio>
#include <vector>

namespace web {

namespace cs = rwd::client_server;

namespace {

constexpr Colour kPanel{{12, 14, 20}, 200};
constexpr Colour kText{{220, 224, 232}, 255};
constexpr Colour kDim{{150, 156, 170}, 255};
constexpr Colour kPlotLine{{120, 190, 255}, 255};
constexpr float kLine = 15.0f;  // pixels per text line
constexpr float kFont = 12.0f;

}  // namespace

void Plot::push(float v) {
    values_[static_cast<std::size_t>(next_)] = v;
    next_ = (next_ + 1) % kSize;
    count_ = std::min(count_ + 1, kSize);
}

float Plot::last() const {
    return count_ ? values_[static_cast<std::size_t>((next_ + kSize - 1) % kSize)] : 0.0f;
}

void Plot::draw(Canvas& canvas, Point top_left, Point size, Colour c, float floor) const {
    canvas.fill_rect(top_left, Point{top_left.x + size.x, top_left.y + size.y}, Colour{{30, 34, 46}, 255});
    if (count_ < 2) return;
    float top = floor;
    for (int i = 0; i < count_; ++i) top = std::max(top, values_[static_cast<std::size_t>(i)]);
    std::array<Point, kSize> pts{};
    const int first = count_ < kSize ? 0 : next_;
    for (int i = 0; i < count_; ++i) {
        const float v = std::max(0.0f, values_[static_cast<std::size_t>((first + i) % kSize)]);
        pts[static_cast<std::size_t>(i)] =
            Point{top_left.x + size.x * static_cast<float>(i) / static_cast<float>(kSize - 1),
                  top_left.y + size.y - size.y * v / top};
    }
    canvas.polyline(pts.data(), count_, c, 1.5f);
}

void Overlay::sample(const ArenaClient& client, rwd::Micros now) {
    if (now < next_sample_) return;
    next_sample_ = now + rwd::Micros{100'000};
    const cs::ClientStats& s = client.stats();
    rtt_.push(static_cast<float>(s.rtt.millis()));
    loss_.push(static_cast<float>(s.loss * 100.0));
    // Below 0 the render time ran past the newest snapshot (starved): plotted as 0, counted as "starved".
    interp_.push(static_cast<float>(std::max(0.0, s.interp_buffer_ticks)));
    corrections_.push(static_cast<float>(s.corrections_per_second));
    kbps_down_.push(static_cast<float>(s.kbps_received));
    // One point per correction (not per sample): the error of each new misprediction, in centimetres.
    const auto& log = client.corrections();
    const std::uint64_t fresh = s.corrections - corrections_seen_;
    corrections_seen_ = s.corrections;
    const std::size_t take = static_cast<std::size_t>(std::min<std::uint64_t>(fresh, log.size()));
    for (std::size_t i = log.size() - take; i < log.size(); ++i)
        error_.push(static_cast<float>(log[i].error_m * 100.0));
}

void Overlay::draw(Canvas& canvas, const ArenaClient& client, float width, float height, float fps,
                   const std::string& url) const {
    const cs::ClientStats& s = client.stats();
    canvas.fill_rect(Point{0, 0}, Point{width, height}, kPanel);
    const float x = 10.0f;
    float y = 18.0f;
    char line[160];
    auto say = [&](Colour c) {
        canvas.text(Point{x, y}, line, c, kFont);
        y += kLine;
    };
    std::snprintf(line, sizeof line, "netcode (F1)  %.0f fps", static_cast<double>(fps));
    say(kText);
    std::snprintf(line, sizeof line, "%s", url.c_str());
    say(kDim);
    if (client.slot() >= 0)
        std::snprintf(line, sizeof line, "%s  slot %d  tick %u", phase_name(client.phase()).data(),
                      client.slot(), client.tick().value);
    else
        std::snprintf(line, sizeof line, "%s", phase_name(client.phase()).data());
    say(kText);
    std::snprintf(line, sizeof line, "lead %.1f ticks  time scale %.3f", s.lead_ticks, s.time_scale);
    say(kText);
    std::snprintf(line, sizeof line, "corrections %llu  snapped %llu  max %.1f cm",
                  static_cast<unsigned long long>(s.corrections), static_cast<unsigned long long>(s.snaps),
                  s.max_error_m * 100.0);
    say(kText);
    std::snprintf(line, sizeof line, "snapshots %llu  starved %llu",
                  static_cast<unsigned long long>(s.snapshots_received),
                  static_cast<unsigned long long>(s.interp_starvations));
    say(kText);
    struct Row {
        const char* label;
        const char* fmt;
        const Plot& plot;
        float floor;
    };
    const Row rows[] = {{"RTT", "%.1f ms", rtt_, 20.0f},
                        {"loss", "%.1f %%", loss_, 5.0f},
                        {"interp buffer", "%.2f ticks", interp_, 4.0f},
                        {"corrections/s", "%.0f /s", corrections_, 5.0f},
                        {"error per correction", "%.2f cm", error_, 5.0f},
                        {"down", "%.1f kbps", kbps_down_, 50.0f}};
    const float plot_h = 22.0f;
    for (const Row& r : rows) {
        if (y + kLine + plot_h > height) break;  // a short window shows what fits
        y += 4.0f;
        char value[48];
        std::snprintf(value, sizeof value, r.fmt, static_cast<double>(r.plot.last()));
        std::snprintf(line, sizeof line, "%s  %s", r.label, value);
        say(kText);
        r.plot.draw(canvas, Point{x, y - 10.0f}, Point{width - 2 * x, plot_h}, kPlotLine, r.floor);
        y += plot_h;
    }
    if (y + kLine < height) {
        std::snprintf(line, sizeof line, "up %.1f kbps  jitter %.1f ms", s.kbps_sent, s.jitter.millis());
        y += 4.0f;
        say(kDim);
    }
}

void Overlay::draw_scoreboard(Canvas& canvas, const ArenaClient& client, float right) const {
    if (client.phase() != cs::ClientPhase::playing || client.slot() < 0) return;
    struct Row {
        int slot;
        std::int32_t score, deaths;
    };
    std::vector<Row> rows;
    const auto& st = client.predicted_state();
    for (int i = 0; i < arena::kMaxPlayers; ++i) {
        const auto& p = st.players[static_cast<std::size_t>(i)];
        if (p.present()) rows.push_back(Row{i, p.score, p.deaths});
    }
    std::sort(rows.begin(), rows.end(), [](const Row& a, const Row& b) { return a.score > b.score; });
    const float w = 170.0f;
    const float x = right - w - 10.0f;
    const std::size_t shown = std::min<std::size_t>(rows.size(), 10);
    const float h = kLine * static_cast<float>(shown + 3) + 10.0f;
    canvas.fill_rect(Point{x, 10.0f}, Point{x + w, 10.0f + h}, kPanel);
    float y = 28.0f;
    char line[96];
    canvas.text(Point{x + 8.0f, y}, "slot  kills  deaths", kDim, kFont);
    for (std::size_t i = 0; i < shown; ++i) {
        y += kLine;
        const Row& r = rows[i];
        std::snprintf(line, sizeof line, "%s%3d  %5d  %6d", r.slot == client.slot() ? ">" : " ", r.slot,
                      r.score, r.deaths);
        canvas.text(Point{x + 8.0f, y}, line,
                    r.slot == client.slot() ? Colour{apps::palette::kOwnRing} : kText, kFont);
    }
    const auto& self = st.players[static_cast<std::size_t>(client.slot())];
    y += kLine * 1.5f;
    std::snprintf(line, sizeof line, "hp %d  ammo %u%s", self.hp, static_cast<unsigned>(self.ammo),
                  self.reload_timer ? "  reloading" : "");
    canvas.text(Point{x + 8.0f, y}, line, kText, kFont);
}

}  // namespace web
