// The lab's reconnect pass: two bot clients lose their link, one for less than the seat grace and one for
// more; graded on the seat each gets back, the score kept, and every reliable chat line delivered.
#include "cs_reconnect.hpp"

#include "client/net_player.hpp"

#include <arena/arena_game.hpp>
#include <arena/bot.hpp>
#include <rewind/session/client_server/client.hpp>
#include <rewind/session/client_server/server.hpp>
#include <rewind/transport/sim_network.hpp>

#include <chrono>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <vector>

namespace lab {
namespace {

namespace cs = rwd::client_server;
namespace tr = rwd::transport;
using rwd::Micros;

using Server = cs::Server<arena::ArenaGame>;
using Client = cs::Client<arena::ArenaGame>;

/// One bot-driven client and what the pass counts of it.
struct Player {
    tr::Address addr;
    std::unique_ptr<Client> client;
    arena::Bot bot;
    rwd::Tick last_tick{};
    bool has_tick = false;
    std::uint64_t said = 0;  ///< chat lines it sent (numbered from 0)
    Micros next_chat{};
    std::map<int, std::uint64_t> next_from;  ///< speaker slot -> the line expected next from it
    std::map<int, ChatTally> tally;          ///< speaker slot -> its lines (the steady ones are graded)
    std::uint64_t aways = 0, backs = 0;

    Player(tr::Address a, std::unique_ptr<Client> c, std::uint64_t seed)
        : addr(std::move(a)), client(std::move(c)), bot(seed) {}
};

/// Takes `p`'s messages: chat lines are tallied in order per speaker, Away and Back counted. Every speaker
/// from the first line on: which ones are steady is known only once all play, and a slow start (a lost
/// handshake on a stream) can relay a first line before that.
void take_messages(Player& p) {
    cs::Message m;
    while (p.client->poll_message(m)) {
        cs::Chat chat;
        cs::Away away;
        cs::Back back;
        if (p.client->read(m, away)) ++p.aways;
        if (p.client->read(m, back) && back.slot != p.client->slot()) ++p.backs;
        if (!p.client->read(m, chat)) continue;
        const std::uint64_t n = std::stoull(chat.text);
        std::uint64_t& expected = p.next_from[chat.speaker];
        ChatTally& tally = p.tally[chat.speaker];
        if (n < expected) {
            ++tally.repeats;
            continue;
        }
        tally.gaps += n - expected;
        ++tally.received;
        expected = n + 1;
    }
}

}  // namespace

ReconnectFigures run_reconnect_pass(const ReconnectPassConfig& c) {
    const auto wall_start = std::chrono::steady_clock::now();
    ReconnectFigures f;
    f.players = c.players;
    tr::SimNetworkConfig nc;
    nc.seed = c.seed;
    nc.timeout = Micros::from_seconds(c.transport_timeout_s);
    tr::SimNetwork net(nc);
    const tr::Address server_addr{"server", 1};
    const auto socket = c.stream ? tr::SimSocket::stream : tr::SimSocket::datagram;
    auto* server_ep = net.listen(server_addr, static_cast<std::size_t>(c.players) + 2, socket).value();
    cs::ServerConfig sc;
    sc.max_clients = c.players;
    sc.seat_grace = Micros::from_seconds(c.seat_grace_s);
    Server server(*server_ep, sc, arena::new_match(c.seed));
    cs::ClientConfig cc;
    cc.reconnect_for = Micros::from_seconds(c.long_outage_s + 20.0);  // it outlives the long outage
    std::vector<Player> players;
    players.reserve(static_cast<std::size_t>(c.players));
    for (int i = 0; i < c.players; ++i) {
        tr::Address a{"client" + std::to_string(i), static_cast<std::uint16_t>(100 + i)};
        auto* ep = net.create_endpoint(a, socket).value();
        (void)net.set_link(a, server_addr, c.up);
        (void)net.set_link(server_addr, a, c.down);
        players.emplace_back(a, std::make_unique<Client>(*ep, cc),
                             c.seed * 1000 + static_cast<std::uint64_t>(i));
    }
    Micros now{1'000'000};
    for (Player& p : players) (void)p.client->connect(server_addr, now);
    std::set<int> steady;  // the slots of the clients that keep their link: the speakers tallied
    Micros chat_until = Micros{1LL << 60};
    const auto step = [&] {
        now += Micros{5'000};
        server.update(now);
        for (Player& p : players) {
            p.client->update(now);
            if (p.client->phase() != cs::ClientPhase::playing) continue;
            if (!p.has_tick || p.client->tick() != p.last_tick) {
                p.has_tick = true;
                p.last_tick = p.client->tick();
                p.client->set_input(p.bot.think(arena::bot_view_of(*p.client, now)));
            }
            if (now >= p.next_chat && now < chat_until) {
                if (p.client->send_chat(std::to_string(p.said)).ok()) ++p.said;
                p.next_chat = now + Micros{1'000'000};
            }
        }
        for (Player& p : players) take_messages(p);
    };
    const auto all_playing = [&] {
        for (const Player& p : players)
            if (p.client->phase() != cs::ClientPhase::playing) return false;
        return true;
    };
    const Micros start = now;
    while (!all_playing() && now - start < Micros{15'000'000}) step();
    f.all_started = all_playing();
    for (int i = 2; i < c.players; ++i) steady.insert(players[static_cast<std::size_t>(i)].client->slot());
    const Micros play_until = now + Micros{5'000'000};
    while (now < play_until) step();

    Player& brief = players[0];
    Player& gone = players[1];
    f.short_slot_before = brief.client->slot();
    if (f.short_slot_before >= 0)
        f.score_before = server.state().players[static_cast<std::size_t>(f.short_slot_before)].score;
    tr::LinkConfig cut = c.up;
    cut.loss = 1.0;
    (void)net.set_links(brief.addr, server_addr, cut);
    (void)net.set_links(gone.addr, server_addr, cut);
    const Micros cut_at = now;
    const Micros brief_back = cut_at + Micros::from_seconds(c.short_outage_s);
    const Micros gone_back = cut_at + Micros::from_seconds(c.long_outage_s);
    const Micros end = gone_back + Micros{15'000'000};
    chat_until = end - Micros{3'000'000};  // the last lines have time to arrive
    bool brief_restored = false, gone_restored = false;
    while (now < end) {
        if (!brief_restored && now >= brief_back) {
            (void)net.set_link(brief.addr, server_addr, c.up);
            (void)net.set_link(server_addr, brief.addr, c.down);
            brief_restored = true;
        }
        if (!gone_restored && now >= gone_back) {
            (void)net.set_link(gone.addr, server_addr, c.up);
            (void)net.set_link(server_addr, gone.addr, c.down);
            gone_restored = true;
        }
        step();
        if (brief_restored && f.short_back_after_s < 0 && brief.client->phase() == cs::ClientPhase::playing) {
            f.short_back_after_s = (now - brief_back).seconds();
            f.short_slot_after = brief.client->slot();
            f.score_after = server.state().players[static_cast<std::size_t>(f.short_slot_after)].score;
        }
        if (gone_restored && f.long_back_after_s < 0 && gone.client->phase() == cs::ClientPhase::playing)
            f.long_back_after_s = (now - gone_back).seconds();
    }

    const cs::ClientStats& bs = brief.client->stats();
    f.short_reconnects = bs.reconnects;
    f.short_resumes = bs.resumes;
    f.short_seats_lost = bs.seats_lost;
    f.short_resyncs = bs.resume_resyncs;
    f.short_out_of_order = bs.events_out_of_order;
    for (int slot : steady) {
        const ChatTally& t = brief.tally[slot];
        f.short_chat.received += t.received;
        f.short_chat.gaps += t.gaps;
        f.short_chat.repeats += t.repeats;
    }
    for (int i = 2; i < c.players; ++i) f.short_chat_expected += players[static_cast<std::size_t>(i)].said;
    const cs::ClientStats& gs = gone.client->stats();
    f.long_reconnects = gs.reconnects;
    f.long_resumes = gs.resumes;
    f.long_seats_lost = gs.seats_lost;
    f.long_playing_at_end = gone.client->phase() == cs::ClientPhase::playing;
    const cs::ServerStats& ss = server.stats();
    f.seats_held = ss.seats_held;
    f.seats_expired = ss.seats_expired;
    f.resumes = ss.resumes;
    f.messages_resent = ss.messages_resent;
    f.resume_resyncs = ss.resume_resyncs;
    for (int i = 2; i < c.players; ++i) {
        const Player& p = players[static_cast<std::size_t>(i)];
        f.others_reconnects += p.client->stats().reconnects;
        f.others_out_of_order += p.client->stats().events_out_of_order;
        f.others_aways += p.aways;
        f.others_backs += p.backs;
    }
    f.simulated_s = (now - start).seconds();
    f.wall_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - wall_start).count();
    return f;
}

void add_reconnect_items(const ReconnectFigures& f, const ReconnectPassConfig& c, Verdict& verdict) {
    const auto u = [](std::uint64_t v) { return static_cast<unsigned long long>(v); };
    const int others = c.players - 2;
    Checks kept;
    kept.need(f.all_started, "not every client was playing before the outages");
    kept.need(f.short_reconnects == 1, "client 0 started %llu reconnections (1 expected: its link went once)",
              u(f.short_reconnects));
    kept.need(f.short_resumes == 1 && f.short_seats_lost == 0,
              "client 0 got its seat back %llu times, lost it %llu", u(f.short_resumes),
              u(f.short_seats_lost));
    kept.need(f.short_slot_after == f.short_slot_before, "client 0 came back in slot %d, not %d",
              f.short_slot_after, f.short_slot_before);
    kept.need(f.short_back_after_s >= 0, "client 0 never played again");
    kept.need(f.score_after >= f.score_before, "its score went from %d to %d", f.score_before, f.score_after);
    kept.need(
        f.short_chat.gaps == 0 && f.short_chat.repeats == 0 && f.short_chat.received == f.short_chat_expected,
        "client 0 received %llu of %llu chat lines (%llu skipped, %llu repeated)", u(f.short_chat.received),
        u(f.short_chat_expected), u(f.short_chat.gaps), u(f.short_chat.repeats));
    kept.need(f.short_resyncs == 0 && f.short_out_of_order == 0,
              "client 0 saw %llu resyncs and %llu messages out of order", u(f.short_resyncs),
              u(f.short_out_of_order));
    kept.need(f.others_reconnects == 0 && f.others_out_of_order == 0,
              "the other clients reconnected %llu times, %llu messages out of order", u(f.others_reconnects),
              u(f.others_out_of_order));
    kept.need(f.others_aways == 2u * static_cast<std::uint64_t>(others) &&
                  f.others_backs == static_cast<std::uint64_t>(others),
              "the others were told of %llu aways and %llu comebacks (%d and %d expected)", u(f.others_aways),
              u(f.others_backs), 2 * others, others);
    verdict.add(
        "- Seat kept",
        fmt("slot %d back %.1f s after the link, %llu msgs resent", f.short_slot_after, f.short_back_after_s,
            u(f.messages_resent)),
        fmt("client 0 lost its link for %.0f s (transport timeout %.0f s): back in slot %d (was %d) "
            "%.2f s after the link returned, score %d (was %d), %llu reliable messages resent on "
            "resume, %llu/%llu chat lines of the others received in order (%llu skipped, %llu "
            "repeated); the %d others: %llu aways and %llu backs told, %llu reconnections",
            c.short_outage_s, c.transport_timeout_s, f.short_slot_after, f.short_slot_before,
            f.short_back_after_s, f.score_after, f.score_before, u(f.messages_resent),
            u(f.short_chat.received), u(f.short_chat_expected), u(f.short_chat.gaps), u(f.short_chat.repeats),
            others, u(f.others_aways), u(f.others_backs), u(f.others_reconnects)),
        fmt("a link lost for %.0f s (< the %.0f s seat grace) comes back to its seat with its score and "
            "every reliable message, exactly once, in order",
            c.short_outage_s, c.seat_grace_s),
        kept);
    Checks anew;
    anew.need(f.long_reconnects == 1, "client 1 started %llu reconnections", u(f.long_reconnects));
    anew.need(f.seats_expired == 1, "the server freed %llu held seats (1 expected)", u(f.seats_expired));
    anew.need(f.long_resumes == 0 && f.long_seats_lost == 1,
              "client 1 resumed %llu times, was seated anew %llu", u(f.long_resumes), u(f.long_seats_lost));
    anew.need(f.long_playing_at_end, "client 1 is not playing at the end");
    verdict.add(
        "- Seat after grace", fmt("seated anew %.1f s after the link", f.long_back_after_s),
        fmt("client 1 lost its link for %.0f s: its held seat was freed after the %.0f s grace "
            "(%llu seat expired), and it was seated anew %.2f s after its link returned "
            "(%llu reconnection, %llu resumes, %llu seat lost)",
            c.long_outage_s, c.seat_grace_s, u(f.seats_expired), f.long_back_after_s, u(f.long_reconnects),
            u(f.long_resumes), u(f.long_seats_lost)),
        fmt("a link lost for %.0f s (> the grace) frees the seat, and the client gets a new one when it "
            "returns",
            c.long_outage_s),
        anew);
}

nlohmann::json reconnect_json(const ReconnectFigures& f) {
    return {{"simulated_s", f.simulated_s},
            {"wall_s", f.wall_s},
            {"players", f.players},
            {"short_slot_before", f.short_slot_before},
            {"short_slot_after", f.short_slot_after},
            {"short_back_after_s", f.short_back_after_s},
            {"score_before", f.score_before},
            {"score_after", f.score_after},
            {"short_reconnects", f.short_reconnects},
            {"short_resumes", f.short_resumes},
            {"short_chat_received", f.short_chat.received},
            {"short_chat_expected", f.short_chat_expected},
            {"short_chat_gaps", f.short_chat.gaps},
            {"short_chat_repeats", f.short_chat.repeats},
            {"long_back_after_s", f.long_back_after_s},
            {"long_seats_lost", f.long_seats_lost},
            {"seats_held", f.seats_held},
            {"seats_expired", f.seats_expired},
            {"resumes", f.resumes},
            {"messages_resent", f.messages_resent},
            {"resume_resyncs", f.resume_resyncs},
            {"others_reconnects", f.others_reconnects},
            {"others_aways", f.others_aways},
            {"others_backs", f.others_backs}};
}

}  // namespace lab
