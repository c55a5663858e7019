// EndScreen: what the windowed client shows when the connection is in trouble: a banner while the server is
// silent, and a full-screen message in words (with a hint and the way back) once the session has ended.
#pragma once

#include "client/net_player.hpp"

#include <imgui.h>

#include <string>

namespace apps {

/// Why a session ended, in words for a player: a title and a line of detail or advice.
struct EndReason {
    std::string title;
    std::string detail;
};

/// The words for how `player`'s session ended (it must have ended). `played` says whether it ever played:
/// a session that timed out before that never found the server.
EndReason end_reason(const NetPlayer& player, bool played);

/// Draws, over the arena: while `interrupted`, a banner saying how long the server has been silent; once
/// the session ended, the full-screen message with "Enter: reconnect, Esc: quit". Colours come from the
/// palette (kWarnText, kEndText) so tests can find them.
void draw_connection_state(ImDrawList* dl, const NetPlayer& player, bool interrupted, rwd::Micros silence,
                           bool played, ImVec2 display);

}  // namespace apps
