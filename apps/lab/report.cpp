// Writes the lab's report, its JSON and its charts.
#include "report.hpp"

#include "html_report.hpp"
#include "text_wrap.hpp"

#include <algorithm>
#include <filesystem>
#include <fstream>

namespace lab {

nlohmann::json report_json(const LabOptions& o, const ModelResult& r) {
    nlohmann::json j;
    j["model"] = o.model;
    j["transport"] = o.transport;
    j["options"] = {{"players", o.player_count()},
                    {"duration_s", o.duration_s},
                    {"seed", o.seed},
                    {"tick_rate", o.tick_rate},
                    {"snapshot_rate", o.snapshot_rate},
                    {"fps", o.render_fps},
                    {"frame_jitter", o.frame_jitter},
                    {"max_rewind_ms", o.max_rewind_ms},
                    {"max_compensated_rtt_ms", o.max_compensated_rtt_ms},
                    {"shots_hit_unseen", o.shots_hit_unseen},
                    {"profile", o.profile},
                    {"transport", o.transport},
                    {"snapshot_budget", o.snapshot_budget},
                    {"snapshot_codec", o.snapshot_codec},
                    {"encrypt", o.encrypt}};
    j["header"] = r.header;
    j["figures"] = r.figures;
    nlohmann::json rows = nlohmann::json::array();
    for (const Grade& g : r.verdict.grades)
        rows.push_back({{"item", g.item},
                        {"figure", g.figure},
                        {"measured", g.measured},
                        {"target", g.target},
                        {"pass", g.pass},
                        {"graded", g.graded},
                        {"why", g.why}});
    j["checklist"] = rows;
    j["passed"] = r.verdict.passed();
    j["failed"] = r.verdict.failed();
    return j;
}

int report(const LabOptions& o, const ModelResult& r, std::FILE* out) {
    auto put = [out](const std::string& line) {  // keeps the line's indent, continues 4 columns in
        const std::string lead(std::min(line.find_first_not_of(' '), line.size()), ' ');
        for (const std::string& l : wrap(std::string_view(line).substr(lead.size()), lead, lead + "    "))
            std::fprintf(out, "%s\n", l.c_str());
    };
    if (!o.quiet) {  // --quiet: the table alone
        for (const auto& line : r.header) put(line);
        std::fprintf(out, "\n");
    }
    print_verdict(r.verdict, out, o.verbose);
    if (!o.quiet)
        for (const auto& line : r.notes) put(line);
    if (o.verbose)
        for (const auto& line : r.details) std::fprintf(out, "%s\n", line.c_str());
    int code = r.verdict.all_pass() ? 0 : 1;
    if (!o.json_path.empty()) {
        std::ofstream f(o.json_path);
        f << report_json(o, r).dump(2) << "\n";
        if (!f) {
            std::fprintf(stderr, "rewind-lab: cannot write %s\n", o.json_path.c_str());
            code = 3;
        } else if (!o.quiet) {
            std::fprintf(out, "figures written to %s\n", o.json_path.c_str());
        }
    }
    if (!o.html_path.empty()) {
        std::ofstream f(o.html_path);
        f << html_report(o, r);
        if (!f) {
            std::fprintf(stderr, "rewind-lab: cannot write %s\n", o.html_path.c_str());
            code = 3;
        } else if (!o.quiet) {
            std::fprintf(out, "summary page written to %s\n", o.html_path.c_str());
        }
    }
    if (!o.plot_dir.empty()) {
        std::error_code ec;
        std::filesystem::create_directories(o.plot_dir, ec);
        int written = 0;
        for (const auto& [stem, chart] : r.charts) {
            std::string error;
            const std::string path = (std::filesystem::path(o.plot_dir) / (stem + ".png")).string();
            if (!write_chart_png(chart, path, error)) {
                // Checked writable before the run: whatever broke since breaks the others too, so say it
                // once.
                std::fprintf(stderr, "rewind-lab: cannot write %s: %s (%zu charts not written)\n",
                             path.c_str(), error.c_str(),
                             r.charts.size() - static_cast<std::size_t>(written));
                code = 3;
                break;
            }
            ++written;
        }
        if (!o.quiet) std::fprintf(out, "%d charts written to %s\n", written, o.plot_dir.c_str());
    }
    return code;
}

}  // namespace lab
