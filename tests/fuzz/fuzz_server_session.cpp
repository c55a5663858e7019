/// libFuzzer target: the server session under fuzzed op programs from fake clients and one real client, its
/// invariants checked after every op (server_session_driver.hpp says what an input does).
#include "server_session_driver.hpp"

#include <cstddef>
#include <cstdint>

using fuzzing::server_session::Driver;
using fuzzing::server_session::Slots;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    static Slots slots;  // process lifetime: only the storage is reused, never a session
    FuzzedDataProvider in(data, size);
    Driver d(in, slots);
    d.run();
    return 0;
}
