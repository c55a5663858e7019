// libsodium's C functions the library calls, in the browser: the crypto goes to libsodium's own wasm build
// (npm libsodium-wrappers, loaded by the page as `sodium`), the byte helpers are plain C++ here.
#include "sodium_bridge.hpp"

#include <emscripten/emscripten.h>
#include <sodium.h>

#include <climits>
#include <cstddef>
#include <cstdint>
#include <cstring>

// Each bridge copies its inputs out of the wasm heap, calls the wrapper, and copies the result back; a
// missing or not yet ready `sodium`, or a wrapper that throws (a forged packet, a bad key), returns -1.
// Lengths cross as int: the callers below refuse anything larger first.

// clang-format off
EM_JS(int, rwd_sodium_ready, (), {
    const s = globalThis.sodium;
    return s && typeof s.crypto_generichash == "function" ? 1 : 0;
});
// clang-format on

// clang-format off
EM_JS(int, rwd_sodium_generichash,
      (std::uint8_t * out, int outlen, const std::uint8_t* msg, int inlen, const std::uint8_t* key,
       int keylen),
      {
          try {
              const s = globalThis.sodium;
              const h = s.crypto_generichash(outlen, HEAPU8.slice(msg, msg + inlen),
                                             keylen ? HEAPU8.slice(key, key + keylen) : null);
              HEAPU8.set(h, out);
              return 0;
          } catch (e) {
              return -1;
          }
      });
// clang-format on

// `x` selects XChaCha20 (24-byte nonce) over the IETF ChaCha20 construction (12-byte nonce).
// clang-format off
EM_JS(int, rwd_sodium_aead_encrypt,
      (int x, std::uint8_t* c, const std::uint8_t* m, int mlen, const std::uint8_t* ad, int adlen,
       const std::uint8_t* npub, const std::uint8_t* k),
      {
          try {
              const s = globalThis.sodium;
              const f = x ? s.crypto_aead_xchacha20poly1305_ietf_encrypt
                          : s.crypto_aead_chacha20poly1305_ietf_encrypt;
              const out = f(HEAPU8.slice(m, m + mlen), adlen ? HEAPU8.slice(ad, ad + adlen) : null, null,
                            HEAPU8.slice(npub, npub + (x ? 24 : 12)), HEAPU8.slice(k, k + 32));
              HEAPU8.set(out, c);
              return out.length;
          } catch (e) {
              return -1;
          }
      });
// clang-format on

// clang-format off
EM_JS(int, rwd_sodium_aead_decrypt,
      (int x, std::uint8_t* m, const std::uint8_t* c, int clen, const std::uint8_t* ad, int adlen,
       const std::uint8_t* npub, const std::uint8_t* k),
      {
          try {
              const s = globalThis.sodium;
              const f = x ? s.crypto_aead_xchacha20poly1305_ietf_decrypt
                          : s.crypto_aead_chacha20poly1305_ietf_decrypt;
              const out = f(null, HEAPU8.slice(c, c + clen), adlen ? HEAPU8.slice(ad, ad + adlen) : null,
                            HEAPU8.slice(npub, npub + (x ? 24 : 12)), HEAPU8.slice(k, k + 32));
              HEAPU8.set(out, m);
              return out.length;
          } catch (e) {
              return -1;
          }
      });
// clang-format on

// clang-format off
EM_JS(int, rwd_sodium_sign_seed_keypair, (std::uint8_t * pk, std::uint8_t* sk, const std::uint8_t* seed), {
    try {
        const kp = globalThis.sodium.crypto_sign_seed_keypair(HEAPU8.slice(seed, seed + 32));
        HEAPU8.set(kp.publicKey, pk);
        HEAPU8.set(kp.privateKey, sk);
        return 0;
    } catch (e) {
        return -1;
    }
});
// clang-format on

// clang-format off
EM_JS(int, rwd_sodium_sign_detached,
      (std::uint8_t * sig, const std::uint8_t* m, int mlen, const std::uint8_t* sk), {
          try {
              const out = globalThis.sodium.crypto_sign_detached(HEAPU8.slice(m, m + mlen),
                                                                 HEAPU8.slice(sk, sk + 64));
              HEAPU8.set(out, sig);
              return 0;
          } catch (e) {
              return -1;
          }
      });
// clang-format on

// clang-format off
EM_JS(int, rwd_sodium_sign_verify_detached,
      (const std::uint8_t* sig, const std::uint8_t* m, int mlen, const std::uint8_t* pk), {
          try {
              const ok = globalThis.sodium.crypto_sign_verify_detached(
                  HEAPU8.slice(sig, sig + 64), HEAPU8.slice(m, m + mlen), HEAPU8.slice(pk, pk + 32));
              return ok ? 0 : -1;
          } catch (e) {
              return -1;
          }
      });
// clang-format on

namespace {

/// A length that fits the bridge's int (the library's packets and tokens are far below it).
bool fits(unsigned long long n) { return n <= static_cast<unsigned long long>(INT_MAX) - 64; }

int aead_encrypt(int x, unsigned char* c, unsigned long long* clen_p, const unsigned char* m,
                 unsigned long long mlen, const unsigned char* ad, unsigned long long adlen,
                 const unsigned char* npub, const unsigned char* k) {
    if (clen_p) *clen_p = 0;
    if (!fits(mlen) || !fits(adlen)) return -1;
    const int n =
        rwd_sodium_aead_encrypt(x, c, m, static_cast<int>(mlen), ad, static_cast<int>(adlen), npub, k);
    if (n < 0) return -1;
    if (clen_p) *clen_p = static_cast<unsigned long long>(n);
    return 0;
}

int aead_decrypt(int x, unsigned char* m, unsigned long long* mlen_p, const unsigned char* c,
                 unsigned long long clen, const unsigned char* ad, unsigned long long adlen,
                 const unsigned char* npub, const unsigned char* k) {
    if (mlen_p) *mlen_p = 0;
    // An attacker chooses clen: below the tag there is nothing to open, above int it cannot cross.
    if (clen < crypto_aead_chacha20poly1305_ietf_ABYTES || !fits(clen) || !fits(adlen)) return -1;
    const int n =
        rwd_sodium_aead_decrypt(x, m, c, static_cast<int>(clen), ad, static_cast<int>(adlen), npub, k);
    if (n < 0) return -1;
    if (mlen_p) *mlen_p = static_cast<unsigned long long>(n);
    return 0;
}

}  // namespace

bool web::sodium_loaded() { return rwd_sodium_ready() != 0; }

int sodium_init(void) { return rwd_sodium_ready() ? 0 : -1; }

void sodium_memzero(void* const pnt, const size_t len) {
    // Through a volatile pointer so the compiler cannot drop the stores as dead.
    volatile unsigned char* p = static_cast<volatile unsigned char*>(pnt);
    for (size_t i = 0; i < len; ++i) p[i] = 0;
}

int sodium_memcmp(const void* const b1_, const void* const b2_, size_t len) {
    // Constant time: every byte is compared whatever the first difference.
    const volatile unsigned char* a = static_cast<const volatile unsigned char*>(b1_);
    const volatile unsigned char* b = static_cast<const volatile unsigned char*>(b2_);
    unsigned char d = 0;
    for (size_t i = 0; i < len; ++i) d = static_cast<unsigned char>(d | (a[i] ^ b[i]));
    return d == 0 ? 0 : -1;
}

char* sodium_bin2hex(char* const hex, const size_t hex_maxlen, const unsigned char* const bin,
                     const size_t bin_len) {
    static constexpr char kDigits[] = "0123456789abcdef";
    if (hex_maxlen < bin_len * 2 + 1) return nullptr;  // libsodium aborts here; the library never asks so
    for (size_t i = 0; i < bin_len; ++i) {
        hex[2 * i] = kDigits[bin[i] >> 4];
        hex[2 * i + 1] = kDigits[bin[i] & 15];
    }
    hex[bin_len * 2] = '\0';
    return hex;
}

int sodium_hex2bin(unsigned char* const bin, const size_t bin_maxlen, const char* const hex,
                   const size_t hex_len, const char* const ignore, size_t* const bin_len,
                   const char** const hex_end) {
    // libsodium's contract: stops at the first character that is neither a hex digit nor (between pairs)
    // one of `ignore`; without hex_end everything must have been consumed; an odd digit count fails.
    size_t bin_pos = 0;
    size_t hex_pos = 0;
    int ret = 0;
    bool high = true;
    unsigned acc = 0;
    for (; hex_pos < hex_len; ++hex_pos) {
        const char c = hex[hex_pos];
        int v = -1;
        if (c >= '0' && c <= '9') v = c - '0';
        if (c >= 'a' && c <= 'f') v = c - 'a' + 10;
        if (c >= 'A' && c <= 'F') v = c - 'A' + 10;
        if (v < 0) {
            if (ignore != nullptr && high && std::strchr(ignore, c) != nullptr) continue;
            break;
        }
        if (bin_pos >= bin_maxlen) {
            ret = -1;
            break;
        }
        if (high) {
            acc = static_cast<unsigned>(v) << 4;
        } else {
            bin[bin_pos++] = static_cast<unsigned char>(acc | static_cast<unsigned>(v));
        }
        high = !high;
    }
    if (!high) {
        --hex_pos;
        ret = -1;
    }
    if (ret != 0) bin_pos = 0;
    if (hex_end != nullptr)
        *hex_end = &hex[hex_pos];
    else if (hex_pos != hex_len)
        ret = -1;
    if (bin_len != nullptr) *bin_len = bin_pos;
    return ret;
}

int crypto_generichash(unsigned char* out, size_t outlen, const unsigned char* in, unsigned long long inlen,
                       const unsigned char* key, size_t keylen) {
    if (!fits(inlen) || outlen > 64 || keylen > 64) return -1;
    return rwd_sodium_generichash(out, static_cast<int>(outlen), in, static_cast<int>(inlen), key,
                                  key ? static_cast<int>(keylen) : 0);
}

int crypto_aead_chacha20poly1305_ietf_encrypt(unsigned char* c, unsigned long long* clen_p,
                                              const unsigned char* m, unsigned long long mlen,
                                              const unsigned char* ad, unsigned long long adlen,
                                              const unsigned char* /*nsec*/, const unsigned char* npub,
                                              const unsigned char* k) {
    return aead_encrypt(0, c, clen_p, m, mlen, ad, ad ? adlen : 0, npub, k);
}

int crypto_aead_chacha20poly1305_ietf_decrypt(unsigned char* m, unsigned long long* mlen_p,
                                              unsigned char* /*nsec*/, const unsigned char* c,
                                              unsigned long long clen, const unsigned char* ad,
                                              unsigned long long adlen, const unsigned char* npub,
                                              const unsigned char* k) {
    return aead_decrypt(0, m, mlen_p, c, clen, ad, ad ? adlen : 0, npub, k);
}

int crypto_aead_xchacha20poly1305_ietf_encrypt(unsigned char* c, unsigned long long* clen_p,
                                               const unsigned char* m, unsigned long long mlen,
                                               const unsigned char* ad, unsigned long long adlen,
                                               const unsigned char* /*nsec*/, const unsigned char* npub,
                                               const unsigned char* k) {
    return aead_encrypt(1, c, clen_p, m, mlen, ad, ad ? adlen : 0, npub, k);
}

int crypto_aead_xchacha20poly1305_ietf_decrypt(unsigned char* m, unsigned long long* mlen_p,
                                               unsigned char* /*nsec*/, const unsigned char* c,
                                               unsigned long long clen, const unsigned char* ad,
                                               unsigned long long adlen, const unsigned char* npub,
                                               const unsigned char* k) {
    return aead_decrypt(1, m, mlen_p, c, clen, ad, ad ? adlen : 0, npub, k);
}

int crypto_sign_seed_keypair(unsigned char* pk, unsigned char* sk, const unsigned char* seed) {
    return rwd_sodium_sign_seed_keypair(pk, sk, seed);
}

int crypto_sign_detached(unsigned char* sig, unsigned long long* siglen_p, const unsigned char* m,
                         unsigned long long mlen, const unsigned char* sk) {
    if (siglen_p) *siglen_p = 0;
    if (!fits(mlen) || rwd_sodium_sign_detached(sig, m, static_cast<int>(mlen), sk) != 0) return -1;
    if (siglen_p) *siglen_p = crypto_sign_BYTES;
    return 0;
}

int crypto_sign_verify_detached(const unsigned char* sig, const unsigned char* m, unsigned long long mlen,
                                const unsigned char* pk) {
    if (!fits(mlen)) return -1;
    return rwd_sodium_sign_verify_detached(sig, m, static_cast<int>(mlen), pk);
}
