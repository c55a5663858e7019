// WebClient: start (config, credentials, connect), the frame (input, update, messages, scene) and leaving.
#include "web_client.hpp"

#include "page_stats.hpp"
#include "sodium_bridge.hpp"

#include <rewind/session/auth/connect_token.hpp>
#include <rewind/session/auth/keys.hpp>

#include <algorithm>
#include <cstdio>

namespace web {

using rwd::Micros;
namespace cs = rwd::client_server;

WebClient::WebClient(PageConfig config, Micros now) : config_(std::move(config)) {
    BrowserTransportConfig tc;
    tc.url = config_.server_url;
    transport_ = std::make_unique<BrowserTransport>(tc);
    input_.attach();
    start(now);
}

void WebClient::start(Micros now) {
    cs::ClientConfig cc;
    cc.game_id = kArenaGameId;
    if (!config_.token_hex.empty()) {
        // Credentials as rewind-token prints them: the token goes in the hello, its keys seal every packet
        // after it (through libsodium's own wasm build, which the page loaded).
        auto bytes = rwd::auth::from_hex(config_.token_hex,
                                         4 + rwd::auth::kSessionKeysBytes + rwd::auth::kMaxTokenBytes);
        auto creds = bytes.ok() ? rwd::auth::decode_credentials(bytes.value())
                                : rwd::Result<rwd::auth::ClientCredentials>(bytes.error());
        if (!creds.ok()) {
            problem_ = "the token is not valid credentials: " + std::string(creds.error().detail);
        } else {
            cc.connect_token = creds->token;
            cc.session_keys = creds->keys;
        }
    }
    if (problem_.empty() && !cc.connect_token.empty() && !sodium_loaded())
        problem_ = "libsodium did not load (libsodium.js, libsodium-wrappers.js): a token needs it";
    if (problem_.empty())
        if (auto s = cc.validate(); !s.ok())
            problem_ = "invalid client config: " + std::string(s.error().detail);
    client_ = std::make_unique<ArenaClient>(*transport_, problem_.empty() ? cc : cs::ClientConfig{});
    if (!problem_.empty()) return;
    if (config_.server_url.empty()) {
        problem_ = config_.problem.empty() ? "no server: open the page with ?server=ws://HOST:PORT/rewind"
                                           : config_.problem;
        return;
    }
    rwd::transport::Address server;
    if (!address_of(config_.server_url, server)) {
        problem_ = "not a ws:// URL: " + config_.server_url;
        return;
    }
    if (auto s = client_->connect(server, now); !s.ok()) {
        problem_ = "cannot connect: " + std::string(s.error().detail);
        return;
    }
    if (config_.autoplay_s > 0.0) autoplay_.emplace(config_.seed, config_.autoplay_s);
}

void WebClient::leave(Micros now) {
    if (!client_ || client_->phase() == cs::ClientPhase::disconnected ||
        client_->phase() == cs::ClientPhase::idle)
        return;
    client_->disconnect(now);  // the goodbye, then the close (4001) once the browser has written it
    transport_->update(now);
}

void WebClient::frame(Micros now) {
    if (frames_ > 0 && now > last_frame_) {
        const double inst = 1.0 / (now - last_frame_).seconds();
        fps_ = fps_ == 0.0 ? inst : fps_ * 0.95 + inst * 0.05;
    }
    last_frame_ = now;
    ++frames_;
    if (input_.take_toggle_overlay()) config_.overlay = !config_.overlay;
    if (input_.take_toggle_ghosts()) config_.ghosts = !config_.ghosts;
    if (!autoplay_) {
        human_ = input_.read(view_, human_);
        client_->set_input(human_);
    }
    client_->update(now);
    if (autoplay_ && !left_) {
        client_->set_input(autoplay_->input(*client_, now));
        if (autoplay_->finished(now)) {
            leave(now);
            left_ = true;
        }
    }
    if (!played_ && client_->phase() == cs::ClientPhase::playing) {
        played_ = true;
        play_start_ = now;
    }
    overlay_.sample(*client_, now);
    for (cs::Message m; client_->poll_message(m);) {
    }  // the page shows no kill feed yet: events are taken so they do not pile up
    draw(now);
    publish(now);
}

void WebClient::draw(Micros now) {
    const Point size = canvas_.begin_frame(Colour{{8, 10, 14}});
    const float left = config_.overlay ? std::min(300.0f, size.x * 0.30f) : 0.0f;
    const float right = size.x - left - 190.0f >= 300.0f ? 190.0f : 0.0f;
    view_.layout(Point{left, 0.0f}, Point{size.x - left - right, size.y});
    entities_.clear();
    ghosts_.clear();
    visible_.clear();
    own_visible_ = false;
    if (client_->phase() == cs::ClientPhase::playing) {
        const std::uint32_t own_id = arena::ArenaGame::player_entity(client_->slot());
        for (const auto& re : client_->render_entities(now)) {
            DrawnEntity d{re.id, re.snap, re.id == own_id};
            if (d.own)
                if (auto s = client_->smoothed_own_entity()) d.snap = *s;  // prediction + decaying correction
            if (d.snap.kind == arena::EntityKind::kPlayer) {
                if (d.own)
                    own_visible_ = true;
                else
                    visible_.push_back(d.id);
            }
            entities_.push_back(d);
        }
        if (config_.ghosts)  // the server's newest word, uninterpolated
            for (const auto& rec : client_->newest_snapshot_entities())
                ghosts_.push_back(DrawnEntity{rec.id, rec.snap, false});
    }
    view_.set_stale(client_->connection_interrupted(now));
    view_.draw(canvas_, entities_, ghosts_, now);
    if (config_.overlay)
        overlay_.draw(canvas_, *client_, left, size.y, static_cast<float>(fps_), transport_->url());
    if (right > 0.0f) overlay_.draw_scoreboard(canvas_, *client_, size.x);
    draw_status(size, left, now);
}

void WebClient::draw_status(Point size, float arena_left, Micros now) {
    // One line over the arena's middle whenever the page is not simply playing: why, or what it waits for.
    char line[600];
    Colour colour{apps::palette::kWarnText};
    const cs::ClientPhase phase = client_->phase();
    if (!problem_.empty()) {
        std::snprintf(line, sizeof line, "%s", problem_.c_str());
        colour = Colour{apps::palette::kEndText};
    } else if (phase == cs::ClientPhase::disconnected) {
        std::snprintf(line, sizeof line, "disconnected: %s%s",
                      rwd::client_server::disconnect_code_name(client_->stats().disconnect_code).data(),
                      left_ ? " (the script finished)" : "  (reload the page to play again)");
        colour = Colour{apps::palette::kEndText};
    } else if (phase == cs::ClientPhase::playing && client_->connection_interrupted(now)) {
        std::snprintf(line, sizeof line, "connection interrupted: nothing from the server for %.1f s",
                      client_->server_silence(now).seconds());
    } else if (phase != cs::ClientPhase::playing) {
        std::snprintf(line, sizeof line, "%s %s", phase_name(phase).data(), transport_->url().c_str());
        if (client_->stats().connect_attempts > 1)
            std::snprintf(line + std::char_traits<char>::length(line), 80, "  (attempt %llu)",
                          static_cast<unsigned long long>(client_->stats().connect_attempts));
    } else {
        return;
    }
    // Wrapped at spaces to the arena's width, centred over its middle.
    const float max_w = std::max(200.0f, size.x - arena_left - 40.0f);
    std::vector<std::string> lines;
    std::string current;
    for (const char* p = line; *p;) {
        const char* end = p;
        while (*end && *end != ' ') ++end;
        const std::string word(p, end);
        const std::string joined = current.empty() ? word : current + " " + word;
        if (!current.empty() && canvas_.text_width(joined, 16.0f) > max_w) {
            lines.push_back(current);
            current = word;
        } else {
            current = joined;
        }
        p = *end ? end + 1 : end;
    }
    if (!current.empty()) lines.push_back(current);
    float w = 0.0f;
    for (const auto& l : lines) w = std::max(w, canvas_.text_width(l, 16.0f));
    w += 24.0f;
    const float h = 22.0f * static_cast<float>(lines.size());
    const Point at{arena_left + (size.x - arena_left) * 0.5f, size.y * 0.5f - h * 0.5f};
    canvas_.fill_rect(Point{at.x - w * 0.5f, at.y - 8.0f}, Point{at.x + w * 0.5f, at.y + h + 8.0f},
                      Colour{{12, 14, 20}, 220});
    for (std::size_t i = 0; i < lines.size(); ++i)
        canvas_.text(Point{at.x, at.y + 16.0f + 22.0f * static_cast<float>(i)}, lines[i], colour, 16.0f,
                     Align::centre);
}

void WebClient::publish(Micros now) {
    PageFacts f;
    f.frames = frames_;
    f.visible = visible_;
    f.own_visible = own_visible_;
    f.autoplay = autoplay_.has_value();
    f.played_s = autoplay_ ? autoplay_->played_s(now) : played_ ? (now - play_start_).seconds() : 0.0;
    // Done: the script played its time and left, or the session ended on its own (the test reads why).
    f.done = (autoplay_ && left_) || client_->phase() == cs::ClientPhase::disconnected || !problem_.empty();
    f.problem = problem_;
    f.url = transport_->url();
    publish_stats(*client_, *transport_, f);
}

}  // namespace web
