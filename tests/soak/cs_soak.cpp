// The client-server soak: 64 (or fewer) arena bots on SimNetwork with the soak link, events checked against
// the server's own send log, heap sampled every simulated interval.
#include "soak/cs_soak.hpp"

#include "soak/event_ledger.hpp"
#include "soak/recording_transport.hpp"

#include <arena/arena_game.hpp>
#include <arena/bot.hpp>
#include <arena/bot_view.hpp>

#include <rewind/session/client_server/client.hpp>
#include <rewind/session/client_server/server.hpp>
#include <rewind/transport/sim_network.hpp>

#include <algorithm>
#include <array>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace soak {
namespace {

using arena::ArenaGame;
using rwd::Micros;
namespace cs = rwd::client_server;
namespace tp = rwd::transport;

constexpr Micros kFrame{4'000};       // every machine updates at 250 Hz
constexpr Micros kDrain{20'000'000};  // after the match: reliable retransmissions finish, no new events

struct BotClient {
    tp::Address addr;
    std::unique_ptr<cs::Client<ArenaGame>> client;
    arena::Bot bot{0};
    EventLedger received;
    rwd::Tick last_think{};
    bool thought = false;
    std::uint32_t chats_sent = 0;  // this bot's chat lines numbered from 0
    Micros next_chat{};
    std::array<std::int64_t, arena::kMaxPlayers> last_chat{};  // per speaker slot: the last number heard
};

constexpr Micros kChatEvery{4'000'000};  // each bot says something every 4 s: reliable traffic both ways
// Every minute (from 30 s in) one bot loses its link for 8 s, past the transport's 5 s timeout: it reconnects
// and takes its seat back, and its reliable streams must go on as if nothing happened.
constexpr Micros kReconnectEvery{60'000'000};
constexpr Micros kFirstReconnect{30'000'000};
constexpr Micros kOutage{8'000'000};

/// The number in a soak chat line "bot<i> #<n>", or -1.
std::int64_t chat_number(const std::string& text) {
    const auto hash = text.find('#');
    if (hash == std::string::npos) return -1;
    return std::strtoll(text.c_str() + hash + 1, nullptr, 10);
}

}  // namespace

CsSoakReport run_cs_soak(const SoakOptions& o) {
    const auto wall0 = std::chrono::steady_clock::now();
    CsSoakReport r;
    r.clients = o.cs_clients;
    tp::SimNetworkConfig nc;
    nc.seed = o.seed;
    nc.default_link = soak_link();
    tp::SimNetwork net(nc);
    const tp::Address server_addr{"server", 1};
    RecordingTransport server_ep(
        *net.listen(server_addr, static_cast<std::size_t>(o.cs_clients) + 4).value());
    cs::ServerConfig sc;
    sc.max_clients = std::min(o.cs_clients, ArenaGame::kMaxPlayers);
    cs::Server<ArenaGame> server(server_ep, sc, arena::new_match(o.seed));

    std::vector<BotClient> bots(static_cast<std::size_t>(o.cs_clients));
    Micros now{1'000'000};
    // The soak reads its clients' stats, never their correction logs. A log is bounded (1024 records by
    // default, a unit test checks the bound) but takes longer than the short run to fill, which the heap
    // check would read as growth: keep the smallest one (a config must keep at least one).
    cs::ClientConfig cc;
    cc.correction_log_size = 1;
    for (int i = 0; i < o.cs_clients; ++i) {
        BotClient& b = bots[static_cast<std::size_t>(i)];
        b.addr = tp::Address{"bot" + std::to_string(i), static_cast<std::uint16_t>(1000 + i)};
        b.client = std::make_unique<cs::Client<ArenaGame>>(*net.create_endpoint(b.addr).value(), cc);
        b.bot = arena::Bot(o.seed * 1000 + static_cast<std::uint64_t>(i));
        b.last_chat.fill(-1);
        if (!b.client->connect(server_addr, now).ok()) return r;
    }
    auto take_events = [&](BotClient& b) {
        cs::Message e;
        while (b.client->poll_message(e)) {
            if (e.reliable) b.received.add(e.sequence, e.type, e.tick, e.payload);
            cs::Chat chat;
            if (!b.client->read(e, chat) || chat.speaker >= arena::kMaxPlayers) continue;
            // A speaker's lines cross two reliable hops (client -> server -> every client): exactly once, in
            // order.
            std::int64_t& last = b.last_chat[chat.speaker];
            const std::int64_t n = chat_number(chat.text);
            if (n != last + 1) ++r.chat_gaps;
            last = n;
            ++r.chats_checked;
        }
    };
    bool chatting = false;
    auto frame = [&](bool tick_server) {
        now += kFrame;
        if (tick_server) {
            server.update(now);
        } else {
            net.advance_to(now);  // transports only: retransmissions go on, the game stands still
        }
        for (BotClient& b : bots) {
            b.client->update(now);
            take_events(b);
            if (b.client->phase() != cs::ClientPhase::playing) continue;
            if (chatting && now >= b.next_chat) {
                b.next_chat = now + kChatEvery;
                if (b.client->send_chat(b.addr.host + " #" + std::to_string(b.chats_sent)).ok())
                    ++b.chats_sent;
            }
            if (!b.thought || b.client->tick() != b.last_think) {  // think once per client tick
                b.thought = true;
                b.last_think = b.client->tick();
                b.client->set_input(b.bot.think(arena::bot_view_of(*b.client, now)));
            }
        }
    };
    // Everyone connects and syncs (through 25 % loss the handshake takes a few seconds).
    const Micros join_limit = now + Micros{120'000'000};
    while (now < join_limit) {
        frame(true);
        if (std::all_of(bots.begin(), bots.end(),
                        [](const BotClient& b) { return b.client->phase() == cs::ClientPhase::playing; }))
            break;
    }
    const Micros start = now;
    chatting = true;
    for (std::size_t i = 0; i < bots.size(); ++i)  // staggered over the first interval
        bots[i].next_chat = start + Micros{kChatEvery.count * static_cast<std::int64_t>(i) / o.cs_clients};
    const Micros end = start + Micros::from_seconds(o.cs_minutes * 60.0);
    const Micros every = Micros::from_seconds(o.sample_seconds);
    Micros next_sample = start;
    Micros next_outage = start + kFirstReconnect;
    std::optional<std::pair<std::size_t, Micros>> outage;  // the bot whose link is down, and until when
    tp::LinkConfig cut = soak_link();
    cut.loss = 1.0;
    while (now < end) {
        if (!outage && now >= next_outage && now + kOutage + Micros{20'000'000} < end) {
            const std::size_t i = static_cast<std::size_t>(r.outages) % bots.size();
            (void)net.set_links(bots[i].addr, server_addr, cut);
            outage = std::pair<std::size_t, Micros>{i, now + kOutage};
            ++r.outages;
            next_outage += kReconnectEvery;
        }
        if (outage && now >= outage->second) {
            (void)net.set_links(bots[outage->first].addr, server_addr, soak_link());
            outage.reset();
        }
        frame(true);
        for (int s = 0; s < server.max_clients(); ++s)
            r.max_input_buffer_depth =
                std::max(r.max_input_buffer_depth, server.client_stats(s).input_buffer_depth);
        if (now >= next_sample) {
            r.heap.sample();
            next_sample += every;
        }
    }
    r.simulated_seconds = (now - start).seconds();
    const Micros drained = now + kDrain;
    chatting = false;
    while (now < drained) frame(false);

    r.server_ticks = server.stats().ticks;
    r.server_resumes = server.stats().resumes;
    r.untracked_resumes = server_ep.untracked_resumes();
    r.server_disconnects = server.stats().disconnects;
    r.server_malformed = server.stats().malformed;
    for (BotClient& b : bots) {
        const auto& st = b.client->stats();
        r.playing_at_end += b.client->phase() == cs::ClientPhase::playing ? 1 : 0;
        r.client_disconnects += b.client->phase() == cs::ClientPhase::disconnected ? 1 : 0;
        r.client_malformed += st.malformed;
        r.client_reconnects += st.reconnects;
        r.client_resumes += st.resumes;
        r.messages_unsent += st.messages_unsent;
        r.resume_resyncs += st.resume_resyncs;
        r.max_prediction_error_m = std::max(r.max_prediction_error_m, st.max_error_m);
        r.events_out_of_sequence += b.received.out_of_sequence + st.events_out_of_order;
        const int slot = b.client->slot();
        if (slot < 0) continue;
        const EventLedger sent = server_ep.sent_to_seat(slot);
        if (!(sent == b.received)) ++r.event_mismatches;
        r.events_checked += b.received.count;
        r.shots += server.client_stats(slot).shots;
    }
    r.real_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - wall0).count();
    char line[512];
    std::snprintf(
        line, sizeof line,
        "cs soak seed=%llu: %d clients, %.0f s simulated in %.1f s real; %llu ticks, %llu shots; events "
        "checked %llu (chat lines %llu, gaps %llu), mismatched clients %llu, out of sequence %llu; "
        "disconnects client %llu server %llu; outages %llu, reconnects %llu, resumes client %llu server "
        "%llu, resyncs %llu, unsent %llu; "
        "malformed server %llu client %llu; max input queue %.0f; max prediction error %.3f m; heap MiB "
        "early peak %.2f late peak %.2f",
        static_cast<unsigned long long>(o.seed), r.clients, r.simulated_seconds, r.real_seconds,
        static_cast<unsigned long long>(r.server_ticks), static_cast<unsigned long long>(r.shots),
        static_cast<unsigned long long>(r.events_checked), static_cast<unsigned long long>(r.chats_checked),
        static_cast<unsigned long long>(r.chat_gaps), static_cast<unsigned long long>(r.event_mismatches),
        static_cast<unsigned long long>(r.events_out_of_sequence),
        static_cast<unsigned long long>(r.client_disconnects),
        static_cast<unsigned long long>(r.server_disconnects), static_cast<unsigned long long>(r.outages),
        static_cast<unsigned long long>(r.client_reconnects),
        static_cast<unsigned long long>(r.client_resumes), static_cast<unsigned long long>(r.server_resumes),
        static_cast<unsigned long long>(r.resume_resyncs), static_cast<unsigned long long>(r.messages_unsent),
        static_cast<unsigned long long>(r.server_malformed),
        static_cast<unsigned long long>(r.client_malformed), r.max_input_buffer_depth,
        r.max_prediction_error_m, static_cast<double>(r.heap.early_peak()) / 1048576.0,
        static_cast<double>(r.heap.late_peak()) / 1048576.0);
    r.summary = std::string(line) + " [" + r.heap.describe() + "]";
    return r;
}

}  // namespace soak
