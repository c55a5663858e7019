/// RWD_WIRE_FOR_EACH_STREAM: every stream type rewind serializes with, for a game that compiles its codec
/// once.
#pragma once

#include <rewind/wire/range_coder.hpp>
#include <rewind/wire/range_training.hpp>
#include <rewind/wire/stream.hpp>

/// Expands X(Stream) once for each stream type rewind's sessions, tools and tests call a game's serialize
/// functions with: the bit-packing streams (write, read, measure), the range-coding streams (write, read,
/// measure) and the range model's training stream.
///
/// A game whose serialize templates live in its headers compiles them again in every translation unit that
/// instantiates a session. To compile them once, declare them in the header, define them in one .cpp and
/// instantiate them there for every stream:
///
///     // input_codec.cpp
///     template <class Stream> bool serialize(Stream& s, Input& in) { ... }
///     #define MYGAME_INPUT_CODEC(S) template bool serialize<S>(S&, Input&);
///     RWD_WIRE_FOR_EACH_STREAM(MYGAME_INPUT_CODEC)
///
/// A stream type missing from the list then fails at link time (an undefined `serialize<...>`), never
/// silently.
// An explicit instantiation needs a type list at namespace scope, hence a macro.
// NOLINTNEXTLINE(cppcoreguidelines-macro-usage)
#define RWD_WIRE_FOR_EACH_STREAM(X)    \
    X(::rwd::wire::WriteStream)        \
    X(::rwd::wire::ReadStream)         \
    X(::rwd::wire::MeasureStream)      \
    X(::rwd::wire::RangeWriteStream)   \
    X(::rwd::wire::RangeReadStream)    \
    X(::rwd::wire::RangeMeasureStream) \
    X(::rwd::wire::RangeTrainingStream)
