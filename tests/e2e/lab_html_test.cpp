// End to end: rewind-lab --html writes one page that headless Chromium opens and renders: the graded table
// (PASS cells in their colour) beside every chart.
#include "e2e_common.hpp"

#include <stb_image.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>
#include <string>

namespace e2e {
namespace {

bool have_chromium() { return std::system("command -v chromium >/dev/null 2>&1") == 0; }

std::size_t count(const std::string& text, const std::string& needle) {
    std::size_t n = 0;
    for (std::size_t at = text.find(needle); at != std::string::npos; at = text.find(needle, at + 1)) ++n;
    return n;
}

TEST(LabHtml, HeadlessChromiumRendersTheSummaryPage) {
    if (!have_chromium()) GTEST_SKIP() << "chromium is not installed (scripts/setup.sh installs it)";
    const std::string dir = test_dir("lab_html");
    const std::string page = dir + "/lab.html", shot = dir + "/lab.png";
    Process lab({kLabBin, "--players", "4", "--duration", "10", "--seed", "3", "--quiet", "--html", page},
                dir + "/lab.log");
    const auto code = lab.wait(180s);
    ASSERT_TRUE(code) << lab.log();
    EXPECT_TRUE(*code == 0 || *code == 1) << "the run itself failed:\n" << lab.log();  // 1: an item failed
    std::ifstream in(page);
    std::stringstream text;
    text << in.rdbuf();
    const std::string html = text.str();
    EXPECT_EQ(count(html, "<figure"), 8u) << "every chart of the run, embedded";
    EXPECT_EQ(count(html, "data:image/png;base64,"), 8u);
    EXPECT_GE(count(html, "<td class=\"PASS\">") + count(html, "<td class=\"FAIL\">"), 12u);
    EXPECT_NE(html.find("checklist: "), std::string::npos);

    // Chromium runs as root here without its sandbox; its profile stays in the test's own folder.
    const std::string cmd =
        "chromium --headless --no-sandbox --disable-gpu --hide-scrollbars --user-data-dir=" + dir +
        "/profile --window-size=1400,1500 --screenshot=" + shot + " file://" + page + " >" + dir +
        "/chromium.log 2>&1";
    ASSERT_EQ(std::system(cmd.c_str()), 0) << "see " << dir << "/chromium.log";
    int w = 0, h = 0, comp = 0;
    unsigned char* px = stbi_load(shot.c_str(), &w, &h, &comp, 4);
    ASSERT_NE(px, nullptr) << shot;
    EXPECT_EQ(w, 1400);
    EXPECT_EQ(h, 1500);
    const std::size_t n = static_cast<std::size_t>(w) * static_cast<std::size_t>(h);
    std::size_t pass_cells = 0;
    std::set<std::uint32_t> colours;
    for (std::size_t i = 0; i < n; ++i) {
        const unsigned char* p = px + i * 4;
        if (p[0] == 0xd9 && p[1] == 0xf2 && p[2] == 0xdc) ++pass_cells;  // td.PASS's background
        colours.insert(std::uint32_t{p[0]} << 16 | std::uint32_t{p[1]} << 8 | p[2]);
    }
    stbi_image_free(px);
    std::printf("[ measured ] %s: %dx%d, %zu colours, %zu px of PASS cells\n", shot.c_str(), w, h,
                colours.size(), pass_cells);
    EXPECT_GT(pass_cells, 2000u) << "the graded table is not drawn";
    EXPECT_GT(colours.size(), 500u) << "the charts are not drawn";
}

}  // namespace
}  // namespace e2e
