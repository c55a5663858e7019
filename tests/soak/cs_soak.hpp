/// The client-server soak: bot clients against one arena server on the soak network for a simulated stretch.
#pragma once

#include "soak/heap_meter.hpp"
#include "soak/soak_options.hpp"

#include <cstdint>
#include <string>

namespace soak {

/// What a client-server soak measured.
struct CsSoakReport {
    int clients = 0;                   ///< bot clients started
    int playing_at_end = 0;            ///< still playing when the run ended
    double simulated_seconds = 0.0;    ///< simulated time of the match (after everyone played)
    double real_seconds = 0.0;         ///< wall-clock time the run took
    std::uint64_t server_ticks = 0;    ///< ticks the server simulated
    std::uint64_t events_checked = 0;  ///< events whose delivery was checked against the server's log
    std::uint64_t chats_checked = 0;   ///< chat events (bot lines relayed by the server) checked per speaker
    std::uint64_t chat_gaps = 0;       ///< chat lines missing, repeated or reordered for some receiver
    std::uint64_t event_mismatches = 0;        ///< clients whose received events differ from what was sent
    std::uint64_t events_out_of_sequence = 0;  ///< events received with an unexpected sequence number
    std::uint64_t client_disconnects = 0;      ///< clients that ended their session
    std::uint64_t server_disconnects = 0;      ///< unseats on the server
    std::uint64_t server_malformed = 0;        ///< malformed messages the server saw
    std::uint64_t client_malformed = 0;        ///< malformed messages the clients saw
    std::uint64_t shots = 0;                   ///< shots the server processed
    std::uint64_t outages = 0;                 ///< links cut for 8 s (one a minute)
    std::uint64_t client_reconnects = 0;       ///< reconnections the clients started
    std::uint64_t client_resumes = 0;          ///< ... that got the seat back
    std::uint64_t server_resumes = 0;          ///< seats the server gave back
    std::uint64_t resume_resyncs = 0;          ///< comebacks that could not resend every missed message
    std::uint64_t messages_unsent = 0;         ///< client messages lost with a link (beyond the resend log)
    std::uint64_t untracked_resumes = 0;       ///< comebacks the server's send log could not follow
    double max_input_buffer_depth = 0.0;       ///< deepest input queue seen on the server (cap bounds it)
    double max_prediction_error_m = 0.0;       ///< largest correction over all clients
    HeapMeter heap;                            ///< live heap, one sample per sample interval
    std::string summary;                       ///< one line of figures for the log
};

/// Runs the client-server soak of `o` (cs_clients bots, cs_minutes simulated).
CsSoakReport run_cs_soak(const SoakOptions& o);

}  // namespace soak
