/// Compile-cost probe: one translation unit that instantiates Server, Client and P2PSession for the arena.
/// scripts/compile_cost.sh compiles it (never linked or run) and reports time, memory and preprocessed lines.
#include <arena/arena_game.hpp>
#include <arena/state.hpp>

#include <rewind/session/client_server/client.hpp>
#include <rewind/session/client_server/server.hpp>
#include <rewind/session/rollback/p2p_session.hpp>
#include <rewind/transport/transport.hpp>

#include <cstddef>
#include <cstdint>

namespace compile_cost {

namespace cs = rwd::client_server;
namespace rb = rwd::rollback;
using arena::ArenaGame;

/// A server, a client and a rollback peer driven for `frames` frames on three transports: every member a game
/// loop calls is used, so the compiler instantiates what a real game pays for.
std::uint64_t drive_sessions(rwd::transport::Transport& server_end, rwd::transport::Transport& client_end,
                             rwd::transport::Transport& peer_end, rwd::transport::PeerId remote, int frames) {
    cs::Server<ArenaGame> server(server_end, cs::ServerConfig{}, arena::new_match(1));
    cs::Client<ArenaGame> client(client_end, cs::ClientConfig{});
    rb::P2PConfig pc;
    pc.num_players = 2;
    rb::P2PSession<ArenaGame> peer(peer_end, pc, arena::new_match(2));
    (void)peer.add_local_player(0);
    (void)peer.add_remote_player(1, remote);

    std::uint64_t sum = 0;
    rwd::Micros now{0};
    (void)client.connect({"server", 1}, now);
    for (int f = 0; f < frames; ++f) {
        now += rwd::Micros{16'667};
        ArenaGame::Input in{};
        in.move_x = static_cast<std::int8_t>(f % 100);
        client.set_input(in);
        server.update(now);
        client.update(now);
        cs::Message m;
        while (client.poll_message(m)) ++sum;
        sum += client.render_entities(now).size();
        (void)peer.add_local_input(0, in);
        if (peer.advance(now).advanced()) ++sum;
        sum += ArenaGame::checksum(server.state()) ^ ArenaGame::checksum(peer.state());
    }
    client.disconnect(now);
    peer.close(now);
    return sum;
}

}  // namespace compile_cost
