// End to end: rewind-lab's passes run on several threads (--jobs) give exactly the figures they give one
// after another; only the wall times differ.
#include "e2e_common.hpp"

#include <nlohmann/json.hpp>

#include <fstream>
#include <string>

namespace e2e {
namespace {

/// Every figure of a lab JSON file, flattened, without the real seconds each pass took (counted in `walls`).
nlohmann::json figures_without_wall_times(const std::string& path, int& walls) {
    std::ifstream in(path);
    nlohmann::json j = nlohmann::json::parse(in, nullptr, false);
    if (j.is_discarded()) return j;
    nlohmann::json flat = j.flatten();
    walls = 0;
    for (auto it = flat.begin(); it != flat.end();)
        if (it.key().ends_with("/wall_s"))
            it = flat.erase(it), ++walls;
        else
            ++it;
    return flat;
}

TEST(LabJobs, PassesOnThreadsGiveTheSameFiguresAsOneAfterAnother) {
    const std::string dir = test_dir("lab_jobs");
    nlohmann::json figures[2];
    const char* jobs[2] = {"1", "3"};
    for (int i = 0; i < 2; ++i) {
        const std::string json = dir + "/jobs" + jobs[i] + ".json";
        Process lab({kLabBin, "--players", "6", "--duration", "8", "--seed", "5", "--quiet", "--jobs",
                     jobs[i], "--json", json},
                    dir + "/jobs" + jobs[i] + ".log");
        const auto code = lab.wait(180s);
        ASSERT_TRUE(code) << lab.log();
        ASSERT_TRUE(*code == 0 || *code == 1) << "the run itself failed:\n"
                                              << lab.log();  // 1: an item failed
        int walls = 0;
        figures[i] = figures_without_wall_times(json, walls);
        ASSERT_FALSE(figures[i].is_discarded()) << json;
        ASSERT_GT(figures[i].size(), 500u) << json;
        EXPECT_EQ(walls, 6) << "one wall time per pass: " << json;
    }
    const nlohmann::json diff = nlohmann::json::diff(figures[0], figures[1]);
    EXPECT_TRUE(diff.empty()) << "--jobs 3 changed " << diff.size()
                              << " figures, first: " << diff.dump().substr(0, 400);
}

}  // namespace
}  // namespace e2e
