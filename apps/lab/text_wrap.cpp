// Word wrapping by columns (UTF-8 code points), for report lines and failure reasons.
#include "text_wrap.hpp"

#include <algorithm>

namespace lab {

int text_columns(std::string_view text) {
    int n = 0;
    for (char c : text)
        if ((static_cast<unsigned char>(c) & 0xC0) != 0x80) ++n;  // continuation bytes take no column
    return n;
}

std::vector<std::string> wrap(std::string_view text, std::string_view first, std::string_view rest,
                              int width) {
    // Words keep the spaces before them (aligned columns stay aligned); a break drops them.
    std::vector<std::string> lines;
    std::string line(first);
    int used = text_columns(first);
    bool empty = true;  // no word on this line yet
    std::size_t i = 0;
    while (i < text.size()) {
        const std::size_t start = text.find_first_not_of(' ', i);
        if (start == std::string_view::npos) break;
        const std::size_t end = std::min(text.find(' ', start), text.size());
        const std::string_view gap = empty && i == 0 ? std::string_view{} : text.substr(i, start - i);
        const std::string_view word = text.substr(start, end - start);
        const int w = text_columns(word);
        if (!empty && used + text_columns(gap) + w > width) {
            lines.push_back(std::move(line));
            line = std::string(rest);
            used = text_columns(rest);
            empty = true;
        }
        if (!empty) {
            line += gap;
            used += text_columns(gap);
        }
        line += word;
        used += w;
        empty = false;
        i = end;
    }
    lines.push_back(std::move(line));
    return lines;
}

}  // namespace lab
