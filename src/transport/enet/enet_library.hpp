// EnetLibrary: a reference-counted hold on ENet's process-wide enet_initialize / enet_deinitialize.
#pragma once

#include <rewind/core/result.hpp>

namespace rwd::transport::enet {

/// While at least one EnetLibrary is alive, ENet is initialized. Movable, not copyable.
class EnetLibrary {
public:
    /// Takes a hold, initializing ENet if this is the first; io_error if enet_initialize fails.
    [[nodiscard]] static Result<EnetLibrary> acquire();
    EnetLibrary(EnetLibrary&& other) noexcept : held_(other.held_) { other.held_ = false; }
    EnetLibrary& operator=(EnetLibrary&& other) noexcept;
    EnetLibrary(const EnetLibrary&) = delete;
    EnetLibrary& operator=(const EnetLibrary&) = delete;
    ~EnetLibrary();

private:
    EnetLibrary() = default;
    void release();
    bool held_ = false;
};

}  // namespace rwd::transport::enet
