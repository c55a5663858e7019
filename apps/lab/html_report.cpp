// html_report: plain HTML and CSS, no script; the charts are the same PNGs --plot writes, base64-encoded by
// libsodium into data URIs so that the page is one file.
#include "html_report.hpp"

#include <sodium.h>

#include <string_view>

namespace lab {
namespace {

std::string escape(std::string_view text) {
    std::string out;
    out.reserve(text.size());
    for (char c : text) {
        switch (c) {
            case '&':
                out += "&amp;";
                break;
            case '<':
                out += "&lt;";
                break;
            case '>':
                out += "&gt;";
                break;
            case '"':
                out += "&quot;";
                break;
            default:
                out += c;
        }
    }
    return out;
}

std::string base64(const std::vector<unsigned char>& bytes) {
    const int variant = sodium_base64_VARIANT_ORIGINAL;
    std::string out(sodium_base64_ENCODED_LEN(bytes.size(), variant), '\0');
    sodium_bin2base64(out.data(), out.size(), bytes.data(), bytes.size(), variant);
    out.resize(out.size() - 1);  // the terminating NUL
    return out;
}

constexpr const char* kStyle = R"(
body { font-family: sans-serif; margin: 16px; color: #222; background: #fafafa; }
h1 { font-size: 20px; margin: 0 0 8px 0; }
pre { background: #fff; border: 1px solid #ddd; padding: 8px; font-size: 12px; }
.page { display: grid; grid-template-columns: minmax(420px, 1fr) 2fr; gap: 16px; align-items: start; }
table { border-collapse: collapse; background: #fff; font-size: 13px; width: 100%; }
td, th { border: 1px solid #ddd; padding: 4px 6px; text-align: left; vertical-align: top; }
td.PASS { background: #d9f2dc; font-weight: bold; }
td.FAIL { background: #f8d7da; font-weight: bold; }
td.INFO { background: #eee; }
.why { color: #a01020; font-size: 12px; }
.charts { display: grid; grid-template-columns: repeat(auto-fill, minmax(420px, 1fr)); gap: 12px; }
figure { margin: 0; background: #fff; border: 1px solid #ddd; padding: 4px; }
figure img { width: 100%; height: auto; }
figcaption { font-size: 12px; color: #444; }
)";

}  // namespace

std::string html_report(const LabOptions& o, const ModelResult& r) {
    (void)o;
    std::string h = "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n<title>rewind-lab: ";
    h += escape(r.header.empty() ? std::string("report") : r.header.front());
    h += "</title>\n<style>";
    h += kStyle;
    h += "</style></head><body>\n<h1>rewind-lab</h1>\n<pre>";
    for (const std::string& line : r.header) h += escape(line) + "\n";
    h += "</pre>\n<div class=\"page\"><div>\n<table><tr><th></th><th>item</th><th>figures "
         "(bounds)</th></tr>\n";
    for (const Grade& g : r.verdict.grades) {
        const char* mark = !g.graded ? "INFO" : g.pass ? "PASS" : "FAIL";
        h += "<tr><td class=\"" + std::string(mark) + "\">" + (g.graded ? mark : "-") + "</td><td>" +
             escape(g.item) + "</td><td>" + escape(g.figure);
        if (g.graded && !g.pass && !g.why.empty()) h += "<div class=\"why\">why: " + escape(g.why) + "</div>";
        h += "</td></tr>\n";
    }
    h += "</table>\n<p>checklist: " + std::to_string(r.verdict.passed()) + " passed, " +
         std::to_string(r.verdict.failed()) + " failed</p>\n</div>\n<div class=\"charts\">\n";
    for (const auto& [stem, chart] : r.charts) {
        const std::vector<unsigned char> png = chart_png_bytes(chart);
        if (png.empty()) continue;
        h += "<figure id=\"" + escape(stem) + "\"><img alt=\"" + escape(chart.title) +
             "\" src=\"data:image/png;base64," + base64(png) + "\"><figcaption>" + escape(chart.caption) +
             "</figcaption></figure>\n";
    }
    h += "</div></div>\n</body></html>\n";
    return h;
}

}  // namespace lab
