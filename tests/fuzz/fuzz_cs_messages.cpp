/// libFuzzer target: every client-server message decoder (toy game types) on arbitrary bytes; re-encode must
/// agree.
#include "../unit/session/client_server/toy_game.hpp"

#include <rewind/session/client_server/message_codec.hpp>
#include <rewind/session/client_server/packets.hpp>

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <span>
#include <vector>

namespace cs = rwd::client_server;

namespace {

/// Decodes `data` as Msg; whatever decodes must encode again to the very same bytes (one encoding per value).
template <class Msg>
void check(std::span<const std::uint8_t> data) {
    Msg m{};
    if (!cs::decode_message(data, m).ok()) return;
    std::vector<std::uint8_t> again;
    if (!cs::encode_message(m, again).ok()) std::abort();
    if (again.size() != data.size() || !std::equal(again.begin(), again.end(), data.begin())) std::abort();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    std::span<const std::uint8_t> bytes(data, size);
    (void)cs::peek_message_type(bytes);
    check<cs::ConnectRequest>(bytes);
    check<cs::ConnectAccept>(bytes);
    check<cs::InputPacket<toy::ToyGame::Input>>(bytes);
    check<cs::SnapshotPacket<toy::ToyGame::EntityRecord>>(bytes);
    check<cs::ServerMessage>(bytes);
    check<cs::Disconnect>(bytes);
    check<cs::ClientMessage>(bytes);
    check<cs::UnreliableMessage>(bytes);
    return 0;
}
