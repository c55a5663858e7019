// PageStats: the figures written as one JSON text and parsed into window.rewindStats by EM_JS.
#include "page_stats.hpp"

#include <emscripten/emscripten.h>

#include <cstdio>

namespace web {

namespace {

// clang-format off
EM_JS(void, rwd_publish_stats, (const char* json), {
    try {
        globalThis.rewindStats = JSON.parse(UTF8ToString(json));
    } catch (e) {
        globalThis.rewindStats = {error : "stats did not parse: " + e};
    }
});
// clang-format on

/// `s` as a JSON string literal (quotes, backslashes and control characters escaped).
std::string quoted(const std::string& s) {
    std::string out = "\"";
    for (const char ch : s) {
        const auto c = static_cast<unsigned char>(ch);
        if (c == '"' || c == '\\') {
            out += '\\';
            out += ch;
        } else if (c < 0x20) {
            char esc[8];
            std::snprintf(esc, sizeof esc, "\\u%04x", c);
            out += esc;
        } else {
            out += ch;
        }
    }
    return out + "\"";
}

void add(std::string& j, const char* key, const std::string& value_json) {
    if (j.size() > 1) j += ',';
    j += quoted(key) + ':' + value_json;
}

void add(std::string& j, const char* key, double v) {
    char buf[40];
    std::snprintf(buf, sizeof buf, "%.6g", v);
    add(j, key, std::string(buf));
}

void add(std::string& j, const char* key, std::uint64_t v) { add(j, key, std::to_string(v)); }

}  // namespace

void publish_stats(const ArenaClient& client, const BrowserTransport& transport, const PageFacts& facts) {
    const auto& s = client.stats();
    std::string j = "{";
    add(j, "phase", quoted(std::string(phase_name(client.phase()))));
    add(j, "slot", std::to_string(client.slot()));
    add(j, "frames", facts.frames);
    add(j, "played_s", facts.played_s);
    add(j, "snapshots_received", s.snapshots_received);
    add(j, "snapshots_stale", s.snapshots_stale);
    add(j, "corrections", s.corrections);
    add(j, "snaps", s.snaps);
    add(j, "max_error_m", s.max_error_m);
    add(j, "rtt_ms", s.rtt.millis());
    add(j, "jitter_ms", s.jitter.millis());
    add(j, "loss", s.loss);
    add(j, "interp_starvations", s.interp_starvations);
    add(j, "interp_buffer_ticks", s.interp_buffer_ticks);
    add(j, "events_received", s.events_received);
    add(j, "events_out_of_order", s.events_out_of_order);
    add(j, "malformed", s.malformed);
    add(j, "inputs_sent", s.inputs_sent);
    add(j, "kbps_sent", s.kbps_sent);
    add(j, "kbps_received", s.kbps_received);
    add(j, "connect_attempts", s.connect_attempts);
    add(j, "encrypted", std::string(client.config().connect_token.empty() ? "false" : "true"));
    add(j, "reconnects", s.reconnects);
    add(j, "disconnect", quoted(std::string(rwd::client_server::disconnect_code_name(s.disconnect_code))));
    add(j, "close_code", std::to_string(transport.last_close_code()));
    add(j, "transport_refused", transport.counters().messages_refused);
    add(j, "unreliable_replaced", transport.counters().unreliable_replaced);
    std::string ids = "[";
    for (std::size_t i = 0; i < facts.visible.size(); ++i)
        ids += (i ? "," : "") + std::to_string(facts.visible[i]);
    add(j, "players_visible", ids + "]");
    add(j, "own_visible", std::string(facts.own_visible ? "true" : "false"));
    add(j, "autoplay", std::string(facts.autoplay ? "true" : "false"));
    add(j, "done", std::string(facts.done ? "true" : "false"));
    add(j, "problem", quoted(facts.problem));
    add(j, "url", quoted(facts.url));
    j += '}';
    rwd_publish_stats(j.c_str());
}

}  // namespace web
