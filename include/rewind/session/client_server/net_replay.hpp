/// replay_client, replay_server: re-run a client or a server offline from a network recording, exactly as it
/// ran (docs/REPLAY.md).
#pragma once

#include <rewind/session/client_server/client.hpp>
#include <rewind/session/client_server/config.hpp>
#include <rewind/session/client_server/server.hpp>
#include <rewind/transport/address_text.hpp>
#include <rewind/transport/net_recording.hpp>
#include <rewind/wire/stream.hpp>

#include <cstdint>
#include <deque>
#include <vector>

namespace rwd::client_server {

/// What a re-run found.
template <class G>
struct ClientReplay {
    transport::PlaybackTransport::Divergence divergence;  ///< where it did differently from the recording
    std::uint64_t calls = 0;      ///< program calls made (update, input, render, connect, ...)
    std::uint64_t bad_calls = 0;  ///< recorded calls that could not be made (an undecodable input)
    std::vector<std::uint8_t> recorded_result;  ///< the outcome the program noted when it recorded
    ClientStats stats;                          ///< the re-run client's stats at the end
    std::deque<CorrectionRecord<typename G::EntitySnapshot>> corrections;  ///< its correction log
};

/// The bytes a correction log is compared by: per correction its tick, position error and differing fields.
template <class EntitySnapshot>
std::vector<std::uint8_t> correction_log_bytes(const std::deque<CorrectionRecord<EntitySnapshot>>& log) {
    std::vector<std::uint8_t> out;
    out.reserve(log.size() * 16);
    const auto put = [&out](std::uint64_t v, int n) {
        for (int i = 0; i < n; ++i) out.push_back(static_cast<std::uint8_t>(v >> (8 * i)));
    };
    for (const auto& c : log) {
        put(c.tick.value, 4);
        put(static_cast<std::uint64_t>(c.error_q), 8);
        put(c.fields, 4);
    }
    return out;
}

/// Builds a Client<G> with `config` (as the recorded one was built) on a PlaybackTransport of `data` and
/// makes every recorded program call in order. A deterministic client then takes the same events, sends the
/// same datagrams (each compared) and makes the same corrections.
template <class G>
[[nodiscard]] ClientReplay<G> replay_client(const transport::NetRecordingData& data,
                                            const ClientConfig& config) {
    using Kind = transport::NetRecord::Kind;
    ClientReplay<G> out;
    transport::PlaybackTransport t(data);
    Client<G> c(t, config);
    for (const transport::NetRecord* r = t.next_app(); r != nullptr; r = t.next_app()) {
        ++out.calls;
        switch (r->kind) {
            case Kind::app_update:
                c.update(r->now);
                break;
            case Kind::app_render:
                (void)c.render_entities(r->now);
                break;
            case Kind::app_disconnect:
                c.disconnect(r->now);
                break;
            case Kind::app_input: {
                typename G::Input in{};
                wire::ReadStream s(std::span<const std::uint8_t>(r->bytes));
                if (serialize(s, in) && s.ok())
                    c.set_input(in);
                else
                    ++out.bad_calls;
                break;
            }
            case Kind::app_connect: {
                const std::string text(r->bytes.begin(), r->bytes.end());
                auto address = transport::parse_address(text);
                if (!address.ok() || !c.connect(address.value(), r->now).ok()) ++out.bad_calls;
                break;
            }
            default:
                ++out.bad_calls;
                break;
        }
    }
    out.divergence = t.divergence();
    out.recorded_result = t.recorded_result();
    out.stats = c.stats();
    out.corrections = c.corrections();
    return out;
}

/// What a server re-run found.
template <class G>
struct ServerReplay {
    transport::PlaybackTransport::Divergence divergence;  ///< where it did differently from the recording
    std::uint64_t calls = 0;                              ///< program calls made (update, kick)
    std::uint64_t bad_calls = 0;                          ///< recorded calls that could not be made
    std::vector<std::uint8_t> recorded_result;            ///< the outcome the program noted when it recorded
    std::vector<std::uint8_t> result;                     ///< the same for the re-run (server_outcome_bytes)
    ServerStats stats;                                    ///< the re-run server's stats at the end
};

/// The bytes a server's outcome is compared by: its next tick and the checksum of its world.
template <class G>
std::vector<std::uint8_t> server_outcome_bytes(const Server<G>& server) {
    std::vector<std::uint8_t> out;
    const auto put = [&out](std::uint64_t v, int n) {
        for (int i = 0; i < n; ++i) out.push_back(static_cast<std::uint8_t>(v >> (8 * i)));
    };
    put(server.tick().value, 4);
    put(G::checksum(server.state()), 8);
    return out;
}

/// Builds a Server<G> with `config` and `initial` (as the recorded one was built) on a PlaybackTransport of
/// `data` and makes every recorded update() and kick() in order. `config.resume_key` must be the recorded
/// server's: a zero key is drawn at random, and other secrets in the accepts are a divergence.
template <class G>
[[nodiscard]] ServerReplay<G> replay_server(const transport::NetRecordingData& data,
                                            const ServerConfig& config, const typename G::State& initial) {
    using Kind = transport::NetRecord::Kind;
    ServerReplay<G> out;
    transport::PlaybackTransport t(data);
    Server<G> s(t, config, initial);
    for (const transport::NetRecord* r = t.next_app(); r != nullptr; r = t.next_app()) {
        ++out.calls;
        if (r->kind == Kind::app_update) {
            s.update(r->now);
        } else if (r->kind == Kind::app_kick && r->bytes.size() == 2 && r->bytes[0] < s.max_clients() &&
                   r->bytes[1] <= static_cast<std::uint8_t>(DisconnectCode::unauthorized)) {
            s.kick(r->bytes[0], static_cast<DisconnectCode>(r->bytes[1]), r->now);
        } else {
            ++out.bad_calls;
        }
    }
    out.divergence = t.divergence();
    out.recorded_result = t.recorded_result();
    out.result = server_outcome_bytes(s);
    out.stats = s.stats();
    return out;
}

}  // namespace rwd::client_server
