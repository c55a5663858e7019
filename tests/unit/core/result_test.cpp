// Tests for Errc names, Error, Result<T> and Status.
#include <rewind/core/result.hpp>

#include <gtest/gtest.h>

#include <memory>
#include <set>
#include <string>

namespace rwd {
namespace {

constexpr int kLastErrc = static_cast<int>(Errc::desync);

TEST(Errc, EveryCodeHasAUniqueReadableName) {
    std::set<std::string_view> names;
    for (int i = 0; i <= kLastErrc; ++i) {
        const std::string_view name = error_name(static_cast<Errc>(i));
        EXPECT_NE(name, "unknown_error") << i;
        EXPECT_FALSE(name.empty()) << i;
        for (char ch : name) EXPECT_TRUE((ch >= 'a' && ch <= 'z') || ch == '_') << name;
        EXPECT_TRUE(names.insert(name).second) << "duplicate name " << name;
    }
    EXPECT_EQ(names.size(), static_cast<std::size_t>(kLastErrc + 1));
    EXPECT_EQ(error_name(static_cast<Errc>(kLastErrc + 1)), "unknown_error") << "update kLastErrc";
    EXPECT_EQ(error_name(Errc::ok), "ok");
    EXPECT_EQ(error_name(Errc::end_of_data), "end_of_data");
    static_assert(error_name(Errc::malformed) == "malformed");
}

Result<int> parse_digit(char c) {
    if (c < '0' || c > '9') return Error{Errc::malformed, "not a digit"};
    return c - '0';
}

TEST(Result, HoldsValueOrError) {
    const Result<int> good = parse_digit('7');
    ASSERT_TRUE(good.ok());
    EXPECT_TRUE(static_cast<bool>(good));
    EXPECT_EQ(good.value(), 7);
    EXPECT_EQ(*good, 7);
    EXPECT_EQ(good.code(), Errc::ok);
    EXPECT_EQ(good.error().code, Errc::ok);

    const Result<int> bad = parse_digit('x');
    EXPECT_FALSE(bad.ok());
    EXPECT_FALSE(static_cast<bool>(bad));
    EXPECT_EQ(bad.code(), Errc::malformed);
    EXPECT_EQ(bad.error().detail, "not a digit");

    const Result<int> from_code = Errc::timed_out;
    EXPECT_EQ(from_code.code(), Errc::timed_out);
    EXPECT_TRUE(from_code.error().detail.empty());
}

TEST(Result, ArrowMoveAndMutation) {
    Result<std::string> r = std::string("abc");
    EXPECT_EQ(r->size(), 3u);
    r.value() += "d";
    *r += "e";
    EXPECT_EQ(r.value(), "abcde");
    const std::string moved = std::move(r).value();
    EXPECT_EQ(moved, "abcde");

    Result<std::unique_ptr<int>> p = std::make_unique<int>(5);
    std::unique_ptr<int> owned = std::move(p).value();
    EXPECT_EQ(*owned, 5);
}

TEST(Result, ValueTypeMayBeAnErrcLikeEnum) {
    enum class Color { red, green };
    Result<Color> c = Color::green;
    EXPECT_TRUE(c.ok());
    EXPECT_EQ(*c, Color::green);
}

Status check_positive(int v) {
    if (v <= 0) return Error{Errc::invalid_argument, "must be positive"};
    return {};
}

TEST(Status, OkOrError) {
    const Status ok = check_positive(3);
    EXPECT_TRUE(ok.ok());
    EXPECT_TRUE(static_cast<bool>(ok));
    EXPECT_EQ(ok.code(), Errc::ok);
    const Status bad = check_positive(0);
    EXPECT_FALSE(bad.ok());
    EXPECT_EQ(bad.code(), Errc::invalid_argument);
    EXPECT_EQ(bad.error().detail, "must be positive");
    EXPECT_EQ(error_name(bad.code()), "invalid_argument");
    const Status from_code = Errc::out_of_space;
    EXPECT_EQ(from_code.code(), Errc::out_of_space);
    EXPECT_TRUE(Status{}.ok());
    EXPECT_TRUE(Status{Errc::ok}.ok());
}

}  // namespace
}  // namespace rwd
