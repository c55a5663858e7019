// The commands of rewind-token: key files, token minting from the system clock, and token inspection.
#include "token_tool.hpp"

#include <rewind/session/auth/connect_token.hpp>
#include <rewind/session/auth/keys.hpp>

#include <fcntl.h>
#include <sodium.h>
#include <sys/stat.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <sstream>

namespace token_tool {

namespace auth = rwd::auth;
using rwd::Errc;
using rwd::Error;
using rwd::Micros;

namespace {

void print_error(std::FILE* err, std::string_view what, const Error& e) {
    std::fprintf(err, "rewind-token: %.*s: %s (%.*s)\n", static_cast<int>(what.size()), what.data(),
                 rwd::error_name(e.code).data(), static_cast<int>(e.detail.size()), e.detail.data());
}

bool write_file(const std::string& path, const std::string& text, bool secret, bool force, std::FILE* err) {
    namespace fs = std::filesystem;
    std::error_code ec;
    if (!force && fs::exists(path, ec)) {
        std::fprintf(err, "rewind-token: %s exists (use --force to overwrite)\n", path.c_str());
        return false;
    }
    // A secret file is created with mode 0600 (and an existing one narrowed to it) before a byte is written:
    // no other user can open it in between.
    const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, secret ? 0600 : 0644);
    bool ok = fd >= 0 && (!secret || ::fchmod(fd, 0600) == 0);
    const std::string line = text + "\n";
    for (std::size_t done = 0; ok && done < line.size();) {
        const ssize_t n = ::write(fd, line.data() + done, line.size() - done);
        if (n <= 0)
            ok = false;
        else
            done += static_cast<std::size_t>(n);
    }
    if (fd >= 0 && ::close(fd) != 0) ok = false;
    if (!ok) std::fprintf(err, "rewind-token: cannot write %s\n", path.c_str());
    return ok;
}

}  // namespace

rwd::Result<Micros> parse_duration(std::string_view text) {
    std::size_t digits = 0;
    while (digits < text.size() && text[digits] >= '0' && text[digits] <= '9') ++digits;
    if (digits == 0 || digits > 12) return Error{Errc::invalid_argument, "a duration is a number and a unit"};
    const std::int64_t n = std::stoll(std::string(text.substr(0, digits)));
    const std::string_view unit = text.substr(digits);
    std::int64_t scale = 0;
    if (unit == "us")
        scale = 1;
    else if (unit == "ms")
        scale = 1'000;
    else if (unit == "s" || unit.empty())
        scale = 1'000'000;
    else if (unit == "m")
        scale = 60'000'000;
    else if (unit == "h")
        scale = 3'600'000'000;
    else
        return Error{Errc::invalid_argument, "units: us, ms, s, m, h"};
    constexpr std::int64_t kDay = 86'400'000'000;
    if (n <= 0 || n > kDay / scale) return Error{Errc::invalid_argument, "duration must be 1us..24h"};
    return Micros{n * scale};
}

rwd::Result<std::uint32_t> parse_game_id(std::string_view text) {
    try {
        std::size_t used = 0;
        const unsigned long long v = std::stoull(std::string(text), &used, 0);
        if (used != text.size() || v > 0xFFFFFFFFull)
            return Error{Errc::invalid_argument, "game id is 32 bits"};
        return static_cast<std::uint32_t>(v);
    } catch (const std::exception&) {
        return Error{Errc::invalid_argument, "game id is a decimal or 0x number"};
    }
}

Micros wall_clock_now() {
    using namespace std::chrono;
    return Micros{duration_cast<microseconds>(system_clock::now().time_since_epoch()).count()};
}

rwd::Result<std::string> read_text_file(const std::string& path) {
    std::ifstream f(path);
    if (!f) return Error{Errc::io_error, "cannot open file"};
    std::ostringstream s;
    s << f.rdbuf();
    return s.str();
}

int keygen(const KeygenOptions& o, std::FILE* out, std::FILE* err) {
    if (sodium_init() < 0) return std::fprintf(err, "rewind-token: libsodium failed to start\n"), 1;
    auth::KeySeed seed{};
    if (o.seed_hex.empty()) {
        randombytes_buf(seed.data(), seed.size());  // the tool's randomness; the library never draws any
    } else {
        auto raw = auth::from_hex(o.seed_hex, seed.size());
        if (!raw.ok() || raw->size() != seed.size())
            return std::fprintf(err, "rewind-token: --seed must be 64 hex digits\n"), 2;
        std::copy(raw->begin(), raw->end(), seed.begin());
    }
    const auth::KeyPair kp = auth::generate_keypair(seed);
    const auth::SealingKey sealing = auth::derive_sealing_key(seed);
    sodium_memzero(seed.data(), seed.size());
    std::string secret_hex = auth::to_hex(kp.secret_key.bytes);
    std::string sealing_hex = auth::to_hex(sealing.bytes);
    const bool ok = write_file(o.secret_key_file, secret_hex, true, o.force, err) &&
                    write_file(o.public_key_file, auth::to_hex(kp.public_key.bytes), false, o.force, err) &&
                    write_file(o.sealing_key_file, sealing_hex, true, o.force, err);
    sodium_memzero(secret_hex.data(), secret_hex.size());
    sodium_memzero(sealing_hex.data(), sealing_hex.size());
    if (!ok) return 1;
    std::fprintf(out, "secret_key_file=%s public_key_file=%s sealing_key_file=%s public_key=%s\n",
                 o.secret_key_file.c_str(), o.public_key_file.c_str(), o.sealing_key_file.c_str(),
                 auth::to_hex(kp.public_key.bytes).c_str());
    return 0;
}

int mint(const MintOptions& o, std::FILE* out, std::FILE* err) {
    if (sodium_init() < 0) return std::fprintf(err, "rewind-token: libsodium failed to start\n"), 1;
    auto text = read_text_file(o.secret_key_file);
    if (!text.ok()) return print_error(err, o.secret_key_file, text.error()), 1;
    auto key = auth::secret_key_from_hex(*text);
    sodium_memzero(text->data(), text->size());
    if (!key.ok()) return print_error(err, o.secret_key_file, key.error()), 1;
    auto sealing_text = read_text_file(o.sealing_key_file);
    if (!sealing_text.ok()) return print_error(err, o.sealing_key_file, sealing_text.error()), 1;
    auto sealing = auth::sealing_key_from_hex(*sealing_text);
    sodium_memzero(sealing_text->data(), sealing_text->size());
    if (!sealing.ok()) return print_error(err, o.sealing_key_file, sealing.error()), 1;
    auto lifetime = parse_duration(o.expires_in);
    if (!lifetime.ok()) return print_error(err, "--expires-in", lifetime.error()), 2;
    auto game = parse_game_id(o.game_id);
    if (!game.ok()) return print_error(err, "--game-id", game.error()), 2;
    auto user = auth::from_hex(o.user_data_hex, auth::kMaxTokenUserDataBytes);
    if (!user.ok()) return print_error(err, "--user-data", user.error()), 2;

    auth::TokenFields f;
    f.game_id = *game;
    f.client_id = o.client_id;
    f.server_address = o.server;
    f.issued_at = wall_clock_now();
    f.expires_at = f.issued_at + *lifetime;
    randombytes_buf(f.nonce.data(), f.nonce.size());
    f.user_data = *user;
    randombytes_buf(f.keys.client_to_server.data(), f.keys.client_to_server.size());
    randombytes_buf(f.keys.server_to_client.data(), f.keys.server_to_client.size());
    auto token = auth::mint_token(f, *key, *sealing);
    if (!token.ok()) return print_error(err, "mint", token.error()), 2;
    std::vector<std::uint8_t> credentials = auth::encode_credentials({*token, f.keys});
    std::string hex = auth::to_hex(credentials);
    sodium_memzero(credentials.data(), credentials.size());
    // The credentials hold the connection's keys: secret like a key file (mode 0600).
    if (!o.out_file.empty() && !write_file(o.out_file, hex, true, true, err)) return 1;
    std::fprintf(out, "%s\n", hex.c_str());
    sodium_memzero(hex.data(), hex.size());
    return 0;
}

int inspect(const InspectOptions& o, std::FILE* out, std::FILE* err) {
    std::string hex = o.token;
    if (!hex.empty() && hex.front() == '@') {
        auto text = read_text_file(hex.substr(1));
        if (!text.ok()) return print_error(err, hex.substr(1), text.error()), 1;
        hex = *text;
    }
    auto raw = auth::from_hex(hex, 4 + auth::kSessionKeysBytes + auth::kMaxTokenBytes);
    if (!raw.ok()) return print_error(err, "token", raw.error()), 1;
    // Credentials hold the token after the keys; a bare token is taken as it is.
    auto credentials = auth::decode_credentials(*raw);
    const std::vector<std::uint8_t> token = credentials.ok() ? credentials->token : *raw;
    auto f = auth::decode_token(token);
    if (!f.ok()) return print_error(err, "token", f.error()), 1;
    const Micros now = wall_clock_now();
    std::fprintf(out,
                 "bytes=%zu game_id=0x%08X client_id=%llu server=%s issued_at_us=%lld expires_at_us=%lld "
                 "expires_in_s=%.1f nonce=%s user_data=%s\n",
                 token.size(), f->game_id, static_cast<unsigned long long>(f->client_id),
                 f->server_address.c_str(), static_cast<long long>(f->issued_at.count),
                 static_cast<long long>(f->expires_at.count), (f->expires_at - now).seconds(),
                 auth::to_hex(f->nonce).c_str(), auth::to_hex(f->user_data).c_str());
    if (o.public_key_file.empty()) {
        std::fprintf(out, "signature=unchecked (pass --public-key to verify)\n");
        return 0;
    }
    auto key_text = read_text_file(o.public_key_file);
    if (!key_text.ok()) return print_error(err, o.public_key_file, key_text.error()), 1;
    auto key = auth::public_key_from_hex(*key_text);
    if (!key.ok()) return print_error(err, o.public_key_file, key.error()), 1;
    if (o.sealing_key_file.empty())
        return std::fprintf(err, "rewind-token: --public-key needs --sealing-key to open the keys\n"), 2;
    auto sealing_text = read_text_file(o.sealing_key_file);
    if (!sealing_text.ok()) return print_error(err, o.sealing_key_file, sealing_text.error()), 1;
    auto sealing = auth::sealing_key_from_hex(*sealing_text);
    if (!sealing.ok()) return print_error(err, o.sealing_key_file, sealing.error()), 1;
    auto game = parse_game_id(o.game_id);
    if (!game.ok()) return print_error(err, "--game-id", game.error()), 2;
    const std::string server = o.server.empty() ? f->server_address : o.server;
    auto v = auth::verify_token(token, *key, *sealing, *game, server, now);
    // The keys must be those the credentials carry (else the client could not talk to the server).
    if (v.ok() && credentials.ok() && v->keys != credentials->keys)
        return std::fprintf(out, "verdict=keys_do_not_match_the_token\n"), 3;
    std::fprintf(out, "verdict=%s\n",
                 v.ok() ? "valid" : auth::token_error_name(auth::token_error(v.error())).data());
    return v.ok() ? 0 : 3;
}

}  // namespace token_tool
