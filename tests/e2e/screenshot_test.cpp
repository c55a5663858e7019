// End to end: the windowed client under Xvfb, connected to a local server with bots, saves a PNG of a frame
// with the overlay; the test checks it is a real rendering (many colours, the wall and player colours
// present, variance).
#include "e2e_common.hpp"

#include "client/palette.hpp"

#include <stb_image.h>

#include <cmath>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <set>

namespace e2e {
namespace {

bool have_xvfb_run() { return std::system("command -v xvfb-run >/dev/null 2>&1") == 0; }

std::size_t count_colour(const unsigned char* px, std::size_t n, apps::palette::Rgb c) {
    std::size_t k = 0;
    for (std::size_t i = 0; i < n; ++i)
        if (px[i * 4] == c.r && px[i * 4 + 1] == c.g && px[i * 4 + 2] == c.b) ++k;
    return k;
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
    // Under AddressSanitizer the system's GL driver and D-Bus (loaded by SDL) leak a few allocations at exit
    // that no rewind code owns; leak checking stays on for every other process of the e2e tests.
    const char* asan = std::getenv("ASAN_OPTIONS");
    const std::string saved_asan = asan ? asan : "";
    setenv("ASAN_OPTIONS",
           (saved_asan.empty() ? std::string("detect_leaks=0") : saved_asan + ":detect_leaks=0").c_str(), 1);
    Process client({"xvfb-run", "-a", "-s", "-screen 0 1280x800x24", kClientBin, "--connect",
                    "127.0.0.1:" + std::to_string(server.port), "--bot", "--ghosts", "--screenshot", png,
                    "--frames", "150", "--width", "1280", "--height", "800"},
                   dir + "/client.log");
    if (asan)
        setenv("ASAN_OPTIONS", saved_asan.c_str(), 1);
    else
        unsetenv("ASAN_OPTIONS");
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
