// EndScreen: the disconnect codes and token errors in a player's words, and the banner and the end screen.
#include "client/end_screen.hpp"

#include "client/palette.hpp"

#include <rewind/session/auth/connect_token.hpp>

#include <algorithm>
#include <cstdio>

namespace apps {

namespace {

namespace cs = rwd::client_server;

ImU32 col(palette::Rgb c, int alpha = 255) { return IM_COL32(c.r, c.g, c.b, alpha); }

std::string address(const NetPlayer& p) { return p.server().host + ":" + std::to_string(p.server().port); }

void centered(ImDrawList* dl, float y, float size, ImU32 colour, const std::string& text, float width) {
    ImFont* font = ImGui::GetFont();
    const float wide = font->CalcTextSizeA(size, 1e9f, 0.0f, text.c_str()).x;
    const float fit =
        wide > width * 0.92f ? size * width * 0.92f / wide : size;  // never wider than the window
    const ImVec2 ts = font->CalcTextSizeA(fit, 1e9f, 0.0f, text.c_str());
    dl->AddText(font, fit, ImVec2((width - ts.x) * 0.5f, y), colour, text.c_str());
}

}  // namespace

EndReason end_reason(const NetPlayer& player, bool played) {
    const auto& st = player.client().stats();
    const std::string at = address(player);
    switch (st.disconnect_code) {
        case cs::DisconnectCode::server_shutdown:
            return {"The server closed", "It is shutting down (" + at + ")."};
        case cs::DisconnectCode::client_quit:
            return {"You left the match", ""};
        case cs::DisconnectCode::server_full:
            return {"The server is full", "Every seat at " + at + " is taken. Try again in a moment."};
        case cs::DisconnectCode::bad_protocol:
            return {"Wrong version", "The server at " + at + " speaks another version of the game."};
        case cs::DisconnectCode::garbage:
            return {"Disconnected by the server", "It received too many messages it could not read."};
        case cs::DisconnectCode::cheating:
            return {"Disconnected by the server", "It received too many invalid inputs."};
        case cs::DisconnectCode::unauthorized: {
            std::string why;
            switch (st.token_error) {
                case rwd::auth::TokenError::expired:
                    why = "your connect token has expired";
                    break;
                case rwd::auth::TokenError::not_yet_valid:
                    why = "your connect token is not valid yet (clock?)";
                    break;
                case rwd::auth::TokenError::missing:
                    why = "this server needs a connect token (--token)";
                    break;
                case rwd::auth::TokenError::wrong_server:
                    why = "your connect token is for another server";
                    break;
                case rwd::auth::TokenError::client_in_use:
                    why = "your account is already playing there";
                    break;
                default:
                    why = "your connect token was refused";
                    break;
            }
            return {"Not admitted", "The server at " + at + " refused you: " + why + "."};
        }
        case cs::DisconnectCode::timed_out:
        case cs::DisconnectCode::transport:
            if (!played)
                return {"No server answers at " + at,
                        "Is rewind-server running there? Check the address, the port, and any firewall "
                        "between (" +
                            std::to_string(st.connect_attempts) + " attempts)."};
            if (st.reconnects > 0)
                return {"Connection lost", "The server at " + at + " stopped answering, and " +
                                               std::to_string(st.connect_attempts) +
                                               " attempts to get your seat back failed."};
            return {"Connection lost", "The server at " + at + " stopped answering."};
        case cs::DisconnectCode::none:
            break;
    }
    return {"Disconnected", ""};
}

void draw_connection_state(ImDrawList* dl, const NetPlayer& player, bool interrupted, rwd::Micros silence,
                           bool played, ImVec2 display) {
    const float size = ImGui::GetFontSize();
    if (player.ended()) {
        dl->AddRectFilled(ImVec2(0, 0), display, IM_COL32(0, 0, 0, 200));
        const EndReason r = end_reason(player, played);
        const float mid = display.y * 0.42f;
        centered(dl, mid - size * 2.4f, size * 2.0f, col(palette::kEndText), r.title, display.x);
        centered(dl, mid + size * 0.4f, size, IM_COL32(230, 230, 230, 255), r.detail, display.x);
        centered(dl, mid + size * 2.4f, size, IM_COL32(200, 200, 200, 255), "Enter: reconnect    Esc: quit",
                 display.x);
        return;
    }
    if (!interrupted && !player.reconnecting()) return;
    char line[160];
    const cs::ClientStats& st = player.client().stats();
    if (player.client().needs_credentials())
        std::snprintf(line, sizeof line,
                      "link lost - reconnecting to slot %d needs a fresh connect token (%s)",
                      player.client().slot(), rwd::auth::token_error_name(st.token_error).data());
    else if (player.reconnecting() && st.reconnect_retry_in.count > 0)
        std::snprintf(line, sizeof line, "link lost - reconnecting to slot %d: next attempt in %.1f s",
                      player.client().slot(), st.reconnect_retry_in.seconds());
    else if (player.reconnecting())
        std::snprintf(line, sizeof line,
                      "link lost - reconnecting to slot %d: attempt %llu under way (no word for %.1f s)",
                      player.client().slot(), static_cast<unsigned long long>(st.connect_attempts),
                      silence.seconds());
    else
        std::snprintf(line, sizeof line, "connection interrupted - no word from the server for %.1f s",
                      silence.seconds());
    const ImVec2 ts = ImGui::GetFont()->CalcTextSizeA(size * 1.3f, 1e9f, 0.0f, line);
    const ImVec2 at((display.x - ts.x) * 0.5f, display.y * 0.08f);
    dl->AddRectFilled(ImVec2(at.x - 10, at.y - 6), ImVec2(at.x + ts.x + 10, at.y + ts.y + 6),
                      IM_COL32(0, 0, 0, 190), 4.0f);
    dl->AddText(ImGui::GetFont(), size * 1.3f, at, col(palette::kWarnText), line);
}

}  // namespace apps
