/// Process-lifetime storage for one large object that each fuzz execution builds and destroys anew.
///
/// The object is constructed from scratch every execution (constructor to destructor, as with make_unique),
/// but its pages stay mapped: under ASan an allocation above 128 KiB is a fresh mmap each time, and its page
/// faults and unmapping were a tenth of the server-session target's time. What a fresh allocation guarantees
/// stays: the bytes are filled with ASan's malloc fill byte before construction (never the last object's),
/// the storage is one heap block of exactly sizeof(T) (its redzones catch an overflow), and it is poisoned
/// while no object lives in it (a use after destruction is reported).
#pragma once

#include <sanitizer/asan_interface.h>

#include <cstddef>
#include <cstring>
#include <new>
#include <utility>

namespace fuzzing {

template <class T>
class WarmSlot {
public:
    WarmSlot() : bytes_(static_cast<std::byte*>(::operator new (sizeof(T), std::align_val_t{alignof(T)}))) {
        ASAN_POISON_MEMORY_REGION(bytes_, sizeof(T));
    }
    ~WarmSlot() {
        reset();
        ::operator delete (bytes_, std::align_val_t{alignof(T)});
    }
    WarmSlot(const WarmSlot&) = delete;
    WarmSlot& operator=(const WarmSlot&) = delete;

    /// Destroys the object held (if any) and constructs a new one from `args`.
    template <class... Args>
    T& emplace(Args&&... args) {
        reset();
        ASAN_UNPOISON_MEMORY_REGION(bytes_, sizeof(T));
        std::memset(bytes_, kMallocFill, sizeof(T));
        object_ = ::new (static_cast<void*>(bytes_)) T(std::forward<Args>(args)...);
        return *object_;
    }
    /// Destroys the object held, if any.
    void reset() {
        if (object_ == nullptr) return;
        object_->~T();
        object_ = nullptr;
        ASAN_POISON_MEMORY_REGION(bytes_, sizeof(T));
    }

    /// Whether an object lives in the slot.
    [[nodiscard]] explicit operator bool() const { return object_ != nullptr; }
    [[nodiscard]] T* operator->() const { return object_; }
    [[nodiscard]] T& operator*() const { return *object_; }

private:
    static constexpr int kMallocFill = 0xbe;  // ASan's malloc_fill_byte
    std::byte* bytes_;
    T* object_ = nullptr;
};

}  // namespace fuzzing
