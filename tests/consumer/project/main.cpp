// A game's own program built against the installed rewind package: uses the umbrella header.
#include <rewind/rewind.hpp>

#include <cstdio>

int main() {
    using namespace rwd::literals;
    rwd::Tick a{0xFFFFFFFFu};
    rwd::Tick b = a + 2;
    if (!(a < b) || (b - a) != 2) return 1;
    rwd::Micros t = 16_ms + 667_us;
    std::printf("consumer: tick %u after %u, step %lld us\n", b.value, a.value,
                static_cast<long long>(t.count));
    return 0;
}
