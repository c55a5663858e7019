// The one piece of process-wide state in rewind: ENet's own initialization, counted so transports can come
// and go.
#include "transport/enet/enet_library.hpp"

#include <enet/enet.h>

#include <cstddef>
#include <mutex>

namespace rwd::transport::enet {

namespace {

// Why a static here, against the house rule: enet_initialize() / enet_deinitialize() act on the whole process
// (on Windows they start and stop Winsock) whether we like it or not. Two transports in one process (a test's
// client and server, the relay's test) must not deinitialize ENet under each other, so the count of live
// holds has to live exactly as long as the process does. It holds no rewind state, no clock and no
// configuration; it is a function-local static (constructed on first use, thread-safe) guarded by a mutex.
struct InitCount {
    std::mutex mutex;
    std::size_t holds = 0;
};

InitCount& init_count() {
    static InitCount count;
    return count;
}

}  // namespace

Result<EnetLibrary> EnetLibrary::acquire() {
    InitCount& c = init_count();
    const std::lock_guard lock(c.mutex);
    if (c.holds == 0 && enet_initialize() != 0) return Error{Errc::io_error, "enet_initialize failed"};
    ++c.holds;
    EnetLibrary lib;
    lib.held_ = true;
    return lib;
}

EnetLibrary& EnetLibrary::operator=(EnetLibrary&& other) noexcept {
    if (this != &other) {
        release();
        held_ = other.held_;
        other.held_ = false;
    }
    return *this;
}

EnetLibrary::~EnetLibrary() { release(); }

void EnetLibrary::release() {
    if (!held_) return;
    held_ = false;
    InitCount& c = init_count();
    const std::lock_guard lock(c.mutex);
    if (--c.holds == 0) enet_deinitialize();
}

}  // namespace rwd::transport::enet
