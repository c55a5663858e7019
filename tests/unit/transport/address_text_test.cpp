// parse_address / address_text: "host:port" both ways, and every malformed form refused.
#include <rewind/transport/address_text.hpp>

#include <gtest/gtest.h>

namespace {

using rwd::transport::Address;
using rwd::transport::address_text;
using rwd::transport::parse_address;

TEST(AddressText, ParsesHostAndPort) {
    const auto a = parse_address("127.0.0.1:40000");
    ASSERT_TRUE(a.ok());
    EXPECT_EQ(a.value(), (Address{"127.0.0.1", 40000}));
    EXPECT_EQ(parse_address("game.example:1").value(), (Address{"game.example", 1}));
    EXPECT_EQ(address_text(Address{"h", 65535}), "h:65535");
    EXPECT_EQ(parse_address(address_text(Address{"peer3", 7000})).value(), (Address{"peer3", 7000}));
}

TEST(AddressText, RefusesWhatIsNotHostColonPort) {
    for (const char* bad :
         {"", "host", ":80", "host:", "host:0", "host:65536", "host:12x", "host:-1", "host: 80"}) {
        SCOPED_TRACE(bad);
        const auto a = parse_address(bad);
        ASSERT_FALSE(a.ok());
        EXPECT_EQ(a.code(), rwd::Errc::invalid_argument);
    }
}

}  // namespace
