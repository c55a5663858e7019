// Network recording session descriptions: written as key=value text, read back field by field (untrusted).
#include "client/net_recording_config.hpp"

#include <rewind/session/auth/keys.hpp>

#include <algorithm>
#include <charconv>
#include <string_view>

namespace apps {

namespace cs = rwd::client_server;
using rwd::Micros;

namespace {

/// The number after `key` in `text` (from_chars, range-checked by the type), or false.
template <class T>
bool field(const std::string& text, std::string_view key, T& out) {
    const std::size_t at = text.find(key);
    if (at == std::string::npos) return false;
    const char* first = text.data() + at + key.size();
    const auto [end, ec] = std::from_chars(first, text.data() + text.size(), out);
    return ec == std::errc{} && end != first;
}

}  // namespace

bool set_snapshot_codec(cs::SnapshotConfig& snapshots, std::string_view name) {
    if (std::find(kSnapshotCodecs.begin(), kSnapshotCodecs.end(), name) == kSnapshotCodecs.end())
        return false;
    snapshots.predicted_deltas = name != "plain";
    snapshots.range_coded = name == "range" || name == "range-untrained";
    snapshots.trained_model = name != "range-untrained";
    return true;
}

std::string_view snapshot_codec_name(const cs::SnapshotConfig& snapshots) {
    if (snapshots.range_coded) return snapshots.trained_model ? "range" : "range-untrained";
    return snapshots.predicted_deltas ? "predicted" : "plain";
}

std::string client_config_text(const cs::ClientConfig& c) {
    return "game=arena tick_rate=" + std::to_string(c.tick_rate_hz) +
           " game_id=" + std::to_string(c.game_id) +
           " correction_log=" + std::to_string(c.correction_log_size);
}

rwd::Result<cs::ClientConfig> client_config_from_text(const std::string& text) {
    cs::ClientConfig cc;
    std::uint32_t tick_rate = 0, game_id = 0, log = 0;
    if (text.rfind("game=arena ", 0) != 0 || !field(text, " tick_rate=", tick_rate) ||
        !field(text, " game_id=", game_id) || !field(text, " correction_log=", log) || tick_rate > 1000 ||
        log > 1'000'000)
        return rwd::Error{rwd::Errc::invalid_config, "not an arena client's recording"};
    cc.tick_rate_hz = static_cast<int>(tick_rate);
    cc.game_id = game_id;
    cc.correction_log_size = log;
    if (auto s = cc.validate(); !s.ok()) return s.error();
    return cc;
}

std::string server_config_text(const cs::ServerConfig& c, std::uint64_t seed) {
    std::string text = "game=arena-server tick_rate=";
    text += std::to_string(c.tick_rate_hz);
    text += " snapshot_rate=" + std::to_string(c.snapshot_rate_hz);
    text += " max_players=" + std::to_string(c.max_clients);
    text += " game_id=" + std::to_string(c.game_id);
    text += " seed=" + std::to_string(seed);
    text += " seat_grace_ms=" + std::to_string(c.seat_grace.count / 1000);
    text += " resume_key=" + rwd::auth::to_hex(c.resume_key);
    text += " snapshot_codec=";
    text += snapshot_codec_name(c.snapshots);
    return text;
}

rwd::Result<RecordedServer> server_config_from_text(const std::string& text) {
    RecordedServer r;
    std::uint32_t tick_rate = 0, snapshot_rate = 0, players = 0, game_id = 0;
    if (text.rfind("game=arena-server ", 0) != 0 || !field(text, " tick_rate=", tick_rate) ||
        !field(text, " snapshot_rate=", snapshot_rate) || !field(text, " max_players=", players) ||
        !field(text, " game_id=", game_id) || !field(text, " seed=", r.seed) || tick_rate > 1000 ||
        snapshot_rate > 1000 || players > 64)
        return rwd::Error{rwd::Errc::invalid_config, "not an arena server's recording"};
    r.config.tick_rate_hz = static_cast<int>(tick_rate);
    r.config.snapshot_rate_hz = static_cast<int>(snapshot_rate);
    r.config.max_clients = static_cast<int>(players);
    r.config.game_id = game_id;
    // The seat grace and the key of the resume secrets (a recording made before them has neither).
    std::int64_t grace_ms = 0;
    if (field(text, " seat_grace_ms=", grace_ms)) r.config.seat_grace = Micros{grace_ms * 1000};
    if (const std::size_t at = text.find(" resume_key="); at != std::string::npos) {
        const std::string_view rest = std::string_view(text).substr(at + 12);
        auto key = rwd::auth::from_hex(rest.substr(0, rest.find(' ')), r.config.resume_key.size());
        if (!key.ok() || key->size() != r.config.resume_key.size())
            return rwd::Error{rwd::Errc::invalid_config,
                              "a server recording's resume_key is not 64 hex digits"};
        std::copy(key->begin(), key->end(), r.config.resume_key.begin());
    }
    // The snapshot codec (a recording made before it was selectable used the default).
    if (const std::size_t at = text.find(" snapshot_codec="); at != std::string::npos) {
        const std::string_view rest = std::string_view(text).substr(at + 16);
        if (!set_snapshot_codec(r.config.snapshots, rest.substr(0, rest.find(' '))))
            return rwd::Error{rwd::Errc::invalid_config, "a server recording's snapshot_codec is unknown"};
    }
    if (auto s = r.config.validate(); !s.ok()) return s.error();
    return r;
}

}  // namespace apps
