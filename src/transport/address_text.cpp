// Addresses as text: "host:port" parsed and printed.
#include <rewind/transport/address_text.hpp>

#include <charconv>

namespace rwd::transport {

Result<Address> parse_address(std::string_view text) {
    const auto colon = text.rfind(':');
    if (colon == std::string_view::npos || colon == 0 || colon + 1 >= text.size())
        return Error{Errc::invalid_argument, "expected HOST:PORT"};
    unsigned port = 0;
    const char* first = text.data() + colon + 1;
    const char* last = text.data() + text.size();
    const auto [ptr, ec] = std::from_chars(first, last, port);
    if (ec != std::errc{} || ptr != last || port == 0 || port > 65535)
        return Error{Errc::invalid_argument, "port must be 1..65535"};
    return Address{std::string(text.substr(0, colon)), static_cast<std::uint16_t>(port)};
}

std::string address_text(const Address& address) { return address.host + ":" + std::to_string(address.port); }

}  // namespace rwd::transport
