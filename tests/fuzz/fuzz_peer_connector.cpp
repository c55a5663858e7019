/// libFuzzer target: PeerConnector's handling of untrusted connections and introductions.
///
/// A connector waits on a SimNetwork for the machines of a slot list the input chooses (2..8 slots, some
/// local); up to four strangers connect, send arbitrary messages (forged introductions among them), and
/// disconnect, in an order the input chooses, while time passes. Nothing may crash; a local slot never gets a
/// peer; once ready, every remote slot has a peer that introduced itself with exactly that machine's slots,
/// and two machines never share a peer.
#include <rewind/session/rollback/peer_connector.hpp>
#include <rewind/transport/address_text.hpp>
#include <rewind/transport/sim_network.hpp>

#include <fuzzer/FuzzedDataProvider.h>

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <set>
#include <string>
#include <vector>

namespace {

using rwd::Micros;
namespace rb = rwd::rollback;
namespace tp = rwd::transport;

[[noreturn]] void fail(const char* what) {
    std::fprintf(stderr, "peer connector invariant broken: %s\n", what);
    std::abort();
}

tp::Address machine(int m) {
    std::string host = "m";
    host += std::to_string(m);
    return tp::Address{host, 7000};
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    FuzzedDataProvider in(data, size);
    tp::SimNetworkConfig nc;
    nc.seed = 5;
    tp::SimNetwork net(nc);
    // The slot list: slot s is played on machine hosts[s] (0 = this one), slot 0 here or elsewhere.
    const int slots = in.ConsumeIntegralInRange<int>(2, 8);
    std::vector<int> hosts;
    for (int s = 0; s < slots; ++s) hosts.push_back(in.ConsumeIntegralInRange<int>(0, 3));
    hosts[static_cast<std::size_t>(in.ConsumeIntegralInRange<int>(0, slots - 1))] = 0;  // one local at least
    if (std::all_of(hosts.begin(), hosts.end(), [](int h) { return h == 0; })) hosts.back() = 1;
    rb::ConnectorConfig cc;
    for (int h : hosts) cc.players.push_back(h == 0 ? std::string("local") : tp::address_text(machine(h)));
    cc.session_tag = in.ConsumeIntegral<std::uint32_t>();
    cc.timeout = Micros{60'000'000};
    tp::Transport* own = net.listen(machine(0), 16).value();
    auto made = rb::PeerConnector::create(*own, cc);
    if (!made.ok()) fail("a valid slot list was refused");
    rb::PeerConnector conn = std::move(made.value());

    std::array<tp::Transport*, 4> strangers{};
    std::array<tp::PeerId, 4> links{};
    for (std::size_t i = 0; i < strangers.size(); ++i)
        strangers[i] = net.create_endpoint(tp::Address{"s" + std::to_string(i), 9}).value();
    Micros now{1'000'000};
    const auto pass = [&](Micros d) {
        for (const Micros end = now + d; now < end;) {
            now += Micros{1000};
            net.advance_to(now);
            conn.update(now);
            tp::TransportEvent e;
            for (tp::Transport* s : strangers)
                while (s->poll(e)) {
                }
        }
    };
    while (in.remaining_bytes() > 0) {
        const int op = in.ConsumeIntegralInRange<int>(0, 3);
        const auto k = static_cast<std::size_t>(in.ConsumeIntegralInRange<int>(0, 3));
        if (op == 0 && links[k] == tp::kInvalidPeer) {
            auto c = strangers[k]->connect(machine(0));
            if (c.ok()) links[k] = c.value();
        } else if (op == 1 && links[k] != tp::kInvalidPeer) {
            std::vector<std::uint8_t> msg =
                in.ConsumeBytes<std::uint8_t>(in.ConsumeIntegralInRange<int>(0, 16));
            if (in.ConsumeBool() && msg.size() >= 4) msg[0] = 'R', msg[1] = 'W', msg[2] = 'I', msg[3] = 'N';
            (void)strangers[k]->send(
                links[k], in.ConsumeBool() ? tp::Delivery::reliable_ordered : tp::Delivery::unreliable, msg);
        } else if (op == 2 && links[k] != tp::kInvalidPeer) {
            strangers[k]->disconnect(links[k]);
            links[k] = tp::kInvalidPeer;
        }
        pass(Micros{in.ConsumeIntegralInRange<int>(1, 300) * 1000});
    }
    pass(Micros{200'000});

    std::set<tp::PeerId> used;
    for (int s = 0; s < slots; ++s) {
        const tp::PeerId p = conn.peer_of(s);
        if (hosts[static_cast<std::size_t>(s)] == 0 && p != tp::kInvalidPeer) fail("a local slot got a peer");
        if (conn.state() != rb::ConnectorState::ready) {
            if (p != tp::kInvalidPeer) fail("a peer before ready");
            continue;
        }
        if (hosts[static_cast<std::size_t>(s)] != 0) {
            if (p == tp::kInvalidPeer) fail("ready with a remote slot unbound");
            used.insert(p);
        }
    }
    if (conn.state() == rb::ConnectorState::ready) {
        std::set<int> remote_machines;
        for (int h : hosts)
            if (h != 0) remote_machines.insert(h);
        if (used.size() != remote_machines.size()) fail("two machines share a peer");
    }
    return 0;
}
