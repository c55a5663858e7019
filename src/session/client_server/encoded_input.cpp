/// Writing an EncodedInput's bits into a wire stream, 32 at a time.
#include <rewind/session/client_server/detail/encoded_input.hpp>

#include <algorithm>

namespace rwd::client_server {
namespace {

template <class Stream>
bool append_bits(Stream& s, const EncodedInput& in) {
    if (in.bits > EncodedInput::kMaxBytes * 8) return s.fail(Errc::invalid_argument), false;
    // A WriteStream packs bits little-end first within little-endian 32-bit words, so the stored bytes read
    // back as words in the same order they were written.
    int left = in.bits;
    std::size_t byte = 0;
    while (left > 0) {
        std::uint32_t word = 0;
        for (std::size_t i = 0; i < 4 && byte + i < in.bytes.size(); ++i)
            word |= std::uint32_t{in.bytes[byte + i]} << (8 * i);
        const int n = std::min(left, 32);
        if (n < 32) word &= (std::uint32_t{1} << n) - 1u;
        if (!s.serialize_bits(word, n)) return false;
        left -= n;
        byte += 4;
    }
    return s.ok();
}

}  // namespace

bool write_encoded_input(wire::WriteStream& s, const EncodedInput& in) { return append_bits(s, in); }
bool write_encoded_input(wire::MeasureStream& s, const EncodedInput& in) { return append_bits(s, in); }

}  // namespace rwd::client_server
