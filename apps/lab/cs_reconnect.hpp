// The lab's reconnect pass: arena bots on SimNetwork, two of which lose their link (a short outage that
// comes back within the server's seat grace, a long one that outlasts it), graded on who gets which seat,
// the score kept and every reliable message delivered.
#pragma once

#include "grade.hpp"

#include <rewind/transport/link_config.hpp>

#include <cstdint>
#include <nlohmann/json.hpp>

namespace lab {

/// What the reconnect pass runs.
struct ReconnectPassConfig {
    int players = 4;                 ///< bot clients: 0 loses its link briefly, 1 for long, the rest keep it
    std::uint64_t seed = 1;          ///< network, bots
    double short_outage_s = 5.0;     ///< client 0's outage
    double long_outage_s = 40.0;     ///< client 1's outage
    double seat_grace_s = 30.0;      ///< ServerConfig::seat_grace
    double transport_timeout_s = 3;  ///< the simulated transport gives up on a silent peer after this
    rwd::transport::LinkConfig up;   ///< client -> server when the link is there
    rwd::transport::LinkConfig down;
    bool stream = false;  ///< every client and the server on a TCP-like stream (--transport websocket)
};

/// What one client saw of the others' chat lines (each speaker numbers its lines 0, 1, 2, ...).
struct ChatTally {
    std::uint64_t received = 0;  ///< lines taken
    std::uint64_t gaps = 0;      ///< lines skipped (a later one came first, or never)
    std::uint64_t repeats = 0;   ///< lines taken twice or out of order
};

/// What the pass measured.
struct ReconnectFigures {
    double simulated_s = 0.0, wall_s = 0.0;
    int players = 0;
    bool all_started = false;  ///< every client played before the outages
    // Client 0: back within the grace.
    int short_slot_before = -1, short_slot_after = -1;
    std::uint64_t short_reconnects = 0, short_resumes = 0, short_seats_lost = 0, short_resyncs = 0;
    std::int32_t score_before = 0, score_after = 0;  ///< its kills at the cut and when it plays again
    double short_back_after_s = -1.0;                ///< from its link's return to playing again
    ChatTally short_chat;                            ///< the others' lines it received over the whole pass
    std::uint64_t short_chat_expected = 0;  ///< lines the others had sent before the end (minus drain)
    // Client 1: back after the grace.
    std::uint64_t seats_expired = 0;  ///< server: held seats freed
    std::uint64_t long_reconnects = 0, long_resumes = 0, long_seats_lost = 0;
    double long_back_after_s = -1.0;
    bool long_playing_at_end = false;
    // The server and everyone else.
    std::uint64_t seats_held = 0, resumes = 0, messages_resent = 0, resume_resyncs = 0;
    std::uint64_t others_reconnects = 0, others_out_of_order = 0;
    std::uint64_t others_aways = 0, others_backs = 0;  ///< Away and Back messages the others received
    std::uint64_t short_out_of_order = 0;
};

/// Runs the pass.
ReconnectFigures run_reconnect_pass(const ReconnectPassConfig& config);
/// The pass's two graded items: "Seat kept" (client 0) and "Seat after grace" (client 1).
void add_reconnect_items(const ReconnectFigures& f, const ReconnectPassConfig& c, Verdict& verdict);
/// The figures as JSON (report.json).
nlohmann::json reconnect_json(const ReconnectFigures& f);

}  // namespace lab
