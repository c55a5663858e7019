// End to end: the windowed client under Xvfb, connected to a local server with bots, saves PNGs of frames
// with the overlay; the tests check it is a real rendering (many colours, the wall and player colours
// present, variance) and, at 1024x640 and 1600x900, that the whole arena shows, the local player is ringed
// and its death is told.
#include "e2e_common.hpp"

#include "client/palette.hpp"

#include <stb_image.h>

#include <algorithm>
#include <cmath>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <memory>
#include <set>
#include <string>
#include <thread>
#include <vector>

namespace e2e {
namespace {

bool have_xvfb_run() { return std::system("command -v xvfb-run >/dev/null 2>&1") == 0; }

std::size_t count_colour(const unsigned char* px, std::size_t n, apps::palette::Rgb c) {
    std::size_t k = 0;
    for (std::size_t i = 0; i < n; ++i)
        if (px[i * 4] == c.r && px[i * 4 + 1] == c.g && px[i * 4 + 2] == c.b) ++k;
    return k;
}

/// Pixels of colour `c` along row `at` (or column `at` when `column`) of a w x h RGBA image.
std::size_t on_line(const unsigned char* px, int w, int h, int at, bool column, apps::palette::Rgb c) {
    std::size_t k = 0;
    const int n = column ? h : w;
    for (int i = 0; i < n; ++i) {
        const int x = column ? at : i, y = column ? i : at;
        const unsigned char* p = px + (static_cast<std::size_t>(y) * static_cast<std::size_t>(w) + x) * 4;
        if (p[0] == c.r && p[1] == c.g && p[2] == c.b) ++k;
    }
    return k;
}

TEST(E2E, ClientShowsTheWholeArenaItsPlayerAndItsDeathAtTwoWindowSizes) {
    if (!have_xvfb_run()) GTEST_SKIP() << "xvfb-run is not installed (scripts/setup.sh installs it)";
    const std::string dir = test_dir("screenshot_sizes");
    auto server = start_server(dir, {"--bots", "3", "--status-interval", "0"});
    ASSERT_GT(server.port, 0);
    ASSERT_TRUE(server.proc->wait_for_line("slot 2", 15s)) << server.proc->log();
    struct Size {
        int w, h;
    };
    const std::vector<Size> sizes{{1024, 640}, {1600, 900}};
    std::vector<std::unique_ptr<Process>> clients;
    std::vector<std::string> pngs;
    for (const Size& s : sizes) {
        const std::string tag = std::to_string(s.w) + "x" + std::to_string(s.h);
        pngs.push_back(std::string(E2E_WORK_DIR) + "/dead_" + tag + ".png");
        std::filesystem::remove(pngs.back());
        // Both bots play the same match: each saves the first frame (after 60) on which it is dead.
        clients.push_back(
            start_windowed({"xvfb-run", "-a", "-s", "-screen 0 " + tag + "x24", kClientBin, "--connect",
                            "127.0.0.1:" + std::to_string(server.port), "--bot", "--screenshot", pngs.back(),
                            "--screenshot-when", "dead", "--frames", "60", "--width", std::to_string(s.w),
                            "--height", std::to_string(s.h)},
                           dir + "/client_" + tag + ".log"));
    }
    for (std::size_t i = 0; i < sizes.size(); ++i) {
        const auto code = clients[i]->wait(120s);
        ASSERT_TRUE(code) << "the client did not finish:\n" << clients[i]->log();
        EXPECT_EQ(*code, 0) << "no frame with the local player dead was saved:\n" << clients[i]->log();
        int w = 0, h = 0, comp = 0;
        unsigned char* px = stbi_load(pngs[i].c_str(), &w, &h, &comp, 4);
        ASSERT_NE(px, nullptr) << "not a PNG stb_image can read: " << pngs[i];
        EXPECT_EQ(w, sizes[i].w);
        EXPECT_EQ(h, sizes[i].h);
        const std::size_t n = static_cast<std::size_t>(w) * static_cast<std::size_t>(h);
        // The arena's outline (wall colour): its bounding box must be a square whose four sides show at least
        // 90 % of their length, so no panel (overlay, scoreboard, kill feed) and no window edge covers or
        // clips it; a player, HP bar or tracer at the border hides only a few pixels of it.
        int x0 = w, y0 = h, x1 = -1, y1 = -1;
        for (int y = 0; y < h; ++y)
            for (int x = 0; x < w; ++x) {
                const unsigned char* p = px + (static_cast<std::size_t>(y) * w + x) * 4;
                if (p[0] == apps::palette::kWall.r && p[1] == apps::palette::kWall.g &&
                    p[2] == apps::palette::kWall.b) {
                    x0 = std::min(x0, x);
                    y0 = std::min(y0, y);
                    x1 = std::max(x1, x);
                    y1 = std::max(y1, y);
                }
            }
        ASSERT_GT(x1, x0) << pngs[i];
        const int side = x1 - x0 + 1;
        EXPECT_LE(std::abs(side - (y1 - y0 + 1)), 3) << "the arena is not a square: clipped? " << pngs[i];
        std::size_t top = 0, bottom = 0, left = 0, right = 0;
        for (int d = 0; d < 3; ++d) {
            top = std::max(top, on_line(px, w, h, y0 + d, false, apps::palette::kWall));
            bottom = std::max(bottom, on_line(px, w, h, y1 - d, false, apps::palette::kWall));
            left = std::max(left, on_line(px, w, h, x0 + d, true, apps::palette::kWall));
            right = std::max(right, on_line(px, w, h, x1 - d, true, apps::palette::kWall));
        }
        const auto whole = static_cast<std::size_t>(side * 0.90);
        EXPECT_GE(top, whole) << "top edge covered " << pngs[i];
        EXPECT_GE(bottom, whole) << "bottom edge covered " << pngs[i];
        EXPECT_GE(left, whole) << "left edge covered " << pngs[i];
        EXPECT_GE(right, whole) << "right edge covered " << pngs[i];
        const std::size_t ring = count_colour(px, n, apps::palette::kOwnRing);
        const std::size_t death = count_colour(px, n, apps::palette::kDeathText);
        stbi_image_free(px);
        std::printf(
            "[ measured ] %s: arena %d px square at (%d, %d), own ring %zu px, death message %zu px\n",
            pngs[i].c_str(), side, x0, y0, ring, death);
        EXPECT_GT(side, std::min(w, h) / 2) << "the arena is drawn too small";
        EXPECT_GT(ring, 30u) << "the local player is not highlighted";
        EXPECT_GT(death, 100u) << "no death message";
    }
    server.proc->signal(SIGTERM);
    const auto server_code = server.proc->wait(10s);
    ASSERT_TRUE(server_code);
    EXPECT_EQ(*server_code, 0);
}

/// Pixels of colour `c` in the RGBA PNG at `path` (and its size), or -1 if it cannot be read.
long long colour_pixels(const std::string& path, apps::palette::Rgb c, int& w, int& h) {
    int comp = 0;
    unsigned char* px = stbi_load(path.c_str(), &w, &h, &comp, 4);
    if (px == nullptr) return -1;
    const auto n = count_colour(px, static_cast<std::size_t>(w) * static_cast<std::size_t>(h), c);
    stbi_image_free(px);
    return static_cast<long long>(n);
}

TEST(E2E, ClientShowsAnInterruptedThenLostConnectionWhenTheServerIsKilled) {
    if (!have_xvfb_run()) GTEST_SKIP() << "xvfb-run is not installed (scripts/setup.sh installs it)";
    const std::string dir = test_dir("server_killed");
    auto server = start_server(dir, {"--bots", "2", "--status-interval", "0"});
    ASSERT_GT(server.port, 0);
    const std::string interrupted_png = dir + "/interrupted.png", ended_png = dir + "/ended.png",
                      reconnecting_png = dir + "/reconnecting.png";
    // Each tries to get its seat back for 3 s after the transport gives up on the server, then ends.
    auto client = [&](const std::string& when, const std::string& png) {
        return start_windowed({"xvfb-run",
                               "-a",
                               "-s",
                               "-screen 0 1024x640x24",
                               kClientBin,
                               "--connect",
                               "127.0.0.1:" + std::to_string(server.port),
                               "--bot",
                               "--screenshot",
                               png,
                               "--screenshot-when",
                               when,
                               "--frames",
                               "30",
                               "--width",
                               "1024",
                               "--height",
                               "640",
                               "--reconnect-for",
                               "3"},
                              dir + "/client_" + when + ".log");
    };
    auto a = client("interrupted", interrupted_png);
    auto b = client("ended", ended_png);
    auto c = client("reconnecting", reconnecting_png);
    ASSERT_TRUE(a->wait_for_line("event=playing", 30s)) << a->log();
    ASSERT_TRUE(b->wait_for_line("event=playing", 30s)) << b->log();
    ASSERT_TRUE(c->wait_for_line("event=playing", 30s)) << c->log();
    std::this_thread::sleep_for(1s);
    server.proc->signal(SIGKILL);  // no goodbye: the server just vanishes
    const auto killed = std::chrono::steady_clock::now();

    // Within a second or so of silence the client says so (the notice is 1 s), and draws it.
    ASSERT_TRUE(a->wait_for_line("event=connection_interrupted", 10s)) << a->log();
    const double noticed_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - killed).count();
    const auto a_code = a->wait(20s);
    ASSERT_TRUE(a_code) << a->log();
    EXPECT_EQ(*a_code, 0) << a->log();
    int w = 0, h = 0;
    const long long warn = colour_pixels(interrupted_png, apps::palette::kWarnText, w, h);
    // After the transport's timeout: the end screen, in words.
    const auto b_code = b->wait(60s);
    ASSERT_TRUE(b_code) << b->log();
    EXPECT_EQ(*b_code, 0) << b->log();
    const double ended_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - killed).count();
    const long long title = colour_pixels(ended_png, apps::palette::kEndText, w, h);
    std::printf(
        "[ measured ] server killed: 'connection interrupted' logged after %.2f s (%lld px of banner), end "
        "screen after %.1f s (%lld px of title)\n",
        noticed_s, warn, ended_s, title);
    EXPECT_LT(noticed_s, 2.5) << "the interruption must show within about a second of silence";
    EXPECT_GT(warn, 100) << "no 'connection interrupted' banner in " << interrupted_png;
    // The transport gave up on the server; the client tried to get its seat back, then said so.
    const auto lost_at = b->log().find("event=link_lost");
    EXPECT_NE(lost_at, std::string::npos) << b->log();
    EXPECT_GT(b->log().find("event=ended code=timed_out title=\"Connection lost\""), lost_at) << b->log();
    const auto c_code = c->wait(60s);
    ASSERT_TRUE(c_code) << c->log();
    EXPECT_EQ(*c_code, 0) << c->log();
    const long long banner = colour_pixels(reconnecting_png, apps::palette::kWarnText, w, h);
    EXPECT_GT(banner, 100) << "no 'reconnecting' banner in " << reconnecting_png;
    EXPECT_NE(b->log().find("level=warn src=client event=ended"), std::string::npos)
        << "a lost server is a warning";
    EXPECT_GT(title, 200) << "no end screen in " << ended_png;
}

TEST(E2E, ClientRendersTheArenaWithTheOverlayUnderXvfb) {
    if (!have_xvfb_run()) GTEST_SKIP() << "xvfb-run is not installed (scripts/setup.sh installs it)";
    const std::string dir = test_dir("screenshot");
    auto server = start_server(dir, {"--bots", "3", "--status-interval", "0"});
    ASSERT_GT(server.port, 0);
    // Let the bots take their seats so there is something to draw besides ourselves.
    ASSERT_TRUE(server.proc->wait_for_line("slot 2", 15s)) << server.proc->log();

    const std::string png = std::string(E2E_WORK_DIR) + "/screenshot.png";
    std::filesystem::remove(png);
    auto started =
        start_windowed({"xvfb-run", "-a", "-s", "-screen 0 1280x800x24", kClientBin, "--connect",
                        "127.0.0.1:" + std::to_string(server.port), "--bot", "--ghosts", "--screenshot", png,
                        "--frames", "150", "--width", "1280", "--height", "800"},
                       dir + "/client.log");
    Process& client = *started;
    const auto code = client.wait(60s);
    ASSERT_TRUE(code) << "the client did not finish:\n" << client.log();
    EXPECT_EQ(*code, 0) << client.log();
    ASSERT_TRUE(std::filesystem::exists(png)) << client.log();

    int w = 0, h = 0, comp = 0;
    unsigned char* px = stbi_load(png.c_str(), &w, &h, &comp, 4);
    ASSERT_NE(px, nullptr) << "not a PNG stb_image can read: " << png;
    EXPECT_EQ(w, 1280);
    EXPECT_EQ(h, 800);
    const std::size_t n = static_cast<std::size_t>(w) * static_cast<std::size_t>(h);
    std::set<std::uint32_t> colours;
    double sum = 0.0, sum2 = 0.0;
    for (std::size_t i = 0; i < n; ++i) {
        const unsigned char* p = px + i * 4;
        colours.insert(std::uint32_t{p[0]} << 16 | std::uint32_t{p[1]} << 8 | p[2]);
        const double y = 0.299 * p[0] + 0.587 * p[1] + 0.114 * p[2];
        sum += y;
        sum2 += y * y;
    }
    const double mean = sum / static_cast<double>(n);
    const double variance = sum2 / static_cast<double>(n) - mean * mean;
    const std::size_t floor = count_colour(px, n, apps::palette::kBackground);
    const std::size_t wall = count_colour(px, n, apps::palette::kWall);
    const std::size_t own = count_colour(px, n, apps::palette::kOwnPlayer);
    std::size_t others = 0;
    for (const auto& c : apps::palette::kOthers) others += count_colour(px, n, c);
    stbi_image_free(px);
    std::printf(
        "[ measured ] screenshot %s: %dx%d, %zu colours, luminance mean %.1f variance %.1f, floor %zu px, "
        "wall %zu px, own player %zu px, other players %zu px\n",
        png.c_str(), w, h, colours.size(), mean, variance, floor, wall, own, others);
    EXPECT_GE(colours.size(), 64u) << "too few colours for arena + overlay text and plots";
    EXPECT_GT(variance, 50.0) << "nearly uniform image";
    EXPECT_GT(floor, n / 10) << "the arena floor is missing";
    EXPECT_GT(wall, 2000u) << "walls are missing";
    // Bots fight: any one player (the own one included) may be dead at the saved frame, but not all four at
    // once.
    EXPECT_GT(own + others, 40u) << "no living player is drawn";

    server.proc->signal(SIGTERM);
    const auto server_code = server.proc->wait(10s);
    ASSERT_TRUE(server_code);
    EXPECT_EQ(*server_code, 0);
}

}  // namespace
}  // namespace e2e
