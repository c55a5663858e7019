/// libFuzzer target: the rollback message decoder (input packets and join states above all) on arbitrary
/// bytes; whatever decodes must re-encode to the same bytes, and every carried input must either deserialize
/// canonically or be refused.
#include "../unit/session/rollback/toy_game.hpp"

#include <rewind/session/rollback/game_traits.hpp>
#include <rewind/session/rollback/protocol.hpp>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <span>
#include <vector>

namespace rb = rwd::rollback;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::span<const std::uint8_t> bytes(data, size);
    rb::Message m;
    if (!rb::decode_message(bytes, m).ok()) return 0;
    std::vector<std::uint8_t> again(size + 64);
    const auto n = rb::encode_message(m, again);
    if (!n.ok() || *n != size || !std::equal(bytes.begin(), bytes.end(), again.begin())) std::abort();
    if (rb::measure_message(m) > size * 8) std::abort();
    for (const rb::InputStream& st : m.streams) {
        if (st.player >= rb::kMaxSessionPlayers || st.inputs.size() > rb::kMaxInputsPerStream) std::abort();
        for (const rb::InputBits& b : st.inputs) {
            toy::Input in;
            if (!rb::bits_to_input<toy::Game>(b, in)) continue;
            rb::InputBits back;
            if (!rb::input_to_bits<toy::Game>(in, back) || !(back == b)) std::abort();
        }
    }
    if ((m.type == rb::MsgType::state_chunk || m.type == rb::MsgType::join_state) &&
        std::uint64_t{m.state_offset} + m.state_bytes.size() > m.state_total) {
        std::abort();
    }
    if (m.type == rb::MsgType::join_state && m.join_frame <= m.state_frame) std::abort();
    for (std::size_t p = 0; p < m.num_status;
         ++p) {  // a join's gap lies before it; no one leaves before joining
        const rb::PlayerStatus& st = m.status[p];
        if (st.join_frame == rb::kNullFrame) {
            if (st.gap_last != rb::kNullFrame) std::abort();
        } else if (st.gap_last >= st.join_frame || (st.disconnected && st.last_frame < st.join_frame - 1)) {
            std::abort();
        }
    }
    return 0;
}
