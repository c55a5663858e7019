/// P2PMatch<G>: a rollback match from a local port and the players' addresses: it opens the UDP transport,
/// finds every peer (PeerConnector), creates and seats the P2PSession, and paces its frames.
#pragma once

#include <rewind/core/result.hpp>
#include <rewind/core/time.hpp>
#include <rewind/session/rollback/frame_pacer.hpp>
#include <rewind/session/rollback/p2p_session.hpp>
#include <rewind/session/rollback/peer_connector.hpp>
#include <rewind/session/rollback/types.hpp>
#include <rewind/transport/enet_transport.hpp>
#include <rewind/transport/transport.hpp>

#include <algorithm>
#include <cassert>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace rwd::rollback {

/// Settings of a P2PMatch.
struct P2PMatchConfig {
    std::string bind_host = "0.0.0.0";  ///< local address to bind (open() only)
    std::uint16_t local_port = 0;       ///< local UDP port (open() only; 0: any, see transport())
    /// One entry per slot: "local" for a player on this machine, else "host:port" of its machine. Every
    /// machine lists the same slots with "local" at its own (ConnectorConfig::players).
    std::vector<std::string> players;
    /// The session's settings; num_players is taken from `players`, session_tag is also the connector's.
    P2PConfig session{};
    Micros retry_interval{500'000};  ///< connection retry while the other machine is not up yet
    Micros timeout{30'000'000};      ///< give up finding the peers after this
};

/// A whole rollback match over one transport. Call advance(now, input) every frame of the app: it connects
/// until every peer is found, then runs the frames that are due with the inputs `input(slot, state)`
/// returns for the local slots. session() is the P2PSession (events, stats, state) once ready().
template <class G>
class P2PMatch {
public:
    using State = typename G::State;  ///< the game's state
    using Input = typename G::Input;  ///< one player's input

    /// A match over a new ENet endpoint on config.bind_host:config.local_port, or the error of the config,
    /// the connector or the socket.
    [[nodiscard]] static Result<std::unique_ptr<P2PMatch>> open(const P2PMatchConfig& config,
                                                                const State& initial) {
        transport::EnetConfig ec;
        ec.bind_host = config.bind_host;
        ec.port = config.local_port;
        ec.max_peers = config.players.size() +
                       static_cast<std::size_t>(std::max(config.session.max_spectators, 0)) +
                       4;  // room for strangers until their introduction deadline
        auto udp = transport::EnetTransport::create(ec);
        if (!udp.ok()) return udp.error();
        std::unique_ptr<transport::EnetTransport> owned = std::move(udp.value());
        auto m = over(*owned, config, initial);
        if (m.ok()) m.value()->owned_ = std::move(owned);
        return m;
    }

    /// A match over `transport` (not owned; it must outlive the match): a custom transport or a test's.
    [[nodiscard]] static Result<std::unique_ptr<P2PMatch>> over(transport::Transport& transport,
                                                                const P2PMatchConfig& config,
                                                                const State& initial) {
        ConnectorConfig cc;
        cc.players = config.players;
        cc.session_tag = config.session.session_tag;
        cc.retry_interval = config.retry_interval;
        cc.timeout = config.timeout;
        P2PConfig pc = config.session;
        pc.num_players = static_cast<int>(config.players.size());
        if (Status s = pc.validate(); !s.ok()) return s.error();
        if (G::kMaxPlayers < pc.num_players) return Error{Errc::invalid_config, "players > G::kMaxPlayers"};
        auto connector = PeerConnector::create(transport, cc);
        if (!connector.ok()) return connector.error();
        return std::unique_ptr<P2PMatch>(new P2PMatch(transport, std::move(connector.value()), pc, initial));
    }

    /// Until ready: connects (driving the transport). Then: runs the frames due at `now`, each with
    /// `input(slot, state)` for every local slot, and returns how many ran (0 while connecting, waiting for
    /// a peer, or failed).
    template <class InputFn>
    int advance(Micros now, InputFn&& input) {
        if (!session_) {
            connector_.update(now);
            if (connector_.state() == ConnectorState::ready) start_session();
            return 0;
        }
        int ran = 0;
        for (int due = pacer_.due(now, session_->time_scale()); due > 0; --due) {
            for (int slot : connector_.local_slots())
                (void)session_->add_local_input(slot, input(slot, session_->state()));
            if (!session_->advance(now).advanced()) break;
            pacer_.ran();
            ++ran;
        }
        if (ran == 0) session_->update(now);
        return ran;
    }

    /// True once every peer is found and the session exists (it then synchronizes: SessionEvent running).
    [[nodiscard]] bool ready() const { return session_ != nullptr; }
    /// True if finding the peers failed; error() says why.
    [[nodiscard]] bool failed() const { return connector_.state() == ConnectorState::failed; }
    /// Why it failed.
    [[nodiscard]] const Error& error() const { return connector_.error(); }
    /// The session (only when ready()).
    [[nodiscard]] P2PSession<G>& session() {
        assert(session_);
        return *session_;
    }
    /// The slots played here.
    [[nodiscard]] const std::vector<int>& local_slots() const { return connector_.local_slots(); }
    /// The connector's counters (introductions, retries).
    [[nodiscard]] const ConnectorStats& connector_stats() const { return connector_.stats(); }
    /// The transport the match runs on.
    [[nodiscard]] transport::Transport& transport() { return *transport_; }
    /// The address open() bound (its real port when local_port was 0); empty for over().
    [[nodiscard]] transport::Address local_address() const {
        return owned_ ? owned_->local_address() : transport::Address{};
    }
    /// Says goodbye to every peer.
    void close(Micros now) {
        if (session_) session_->close(now);
    }

private:
    P2PMatch(transport::Transport& transport, PeerConnector connector, const P2PConfig& config,
             const State& initial)
        : transport_(&transport),
          connector_(std::move(connector)),
          config_(config),
          initial_(initial),
          pacer_(config.frame_duration) {}

    void start_session() {
        session_ = std::make_unique<P2PSession<G>>(*transport_, config_, initial_);
        for (int slot = 0; slot < connector_.num_players(); ++slot) {
            const transport::PeerId peer = connector_.peer_of(slot);
            const Status s = peer == transport::kInvalidPeer ? session_->add_local_player(slot)
                                                             : session_->add_remote_player(slot, peer);
            assert(s.ok());  // slots and peers come from a validated list
            (void)s;
        }
    }

    std::unique_ptr<transport::EnetTransport> owned_;  // open()'s endpoint (destroyed after the session)
    transport::Transport* transport_;
    PeerConnector connector_;
    P2PConfig config_;
    State initial_;
    FramePacer pacer_;
    std::unique_ptr<P2PSession<G>> session_;
};

}  // namespace rwd::rollback
