/// Addresses as text: "host:port" parsed into a transport::Address and printed back.
#pragma once

#include <rewind/core/result.hpp>
#include <rewind/transport/transport.hpp>

#include <string>
#include <string_view>

namespace rwd::transport {

/// "host:port" (a host name or numeric IPv4 address, a port 1..65535) as an Address; invalid_argument
/// naming what is wrong otherwise. The host is not resolved here.
[[nodiscard]] Result<Address> parse_address(std::string_view text);

/// "host:port".
[[nodiscard]] std::string address_text(const Address& address);

}  // namespace rwd::transport
