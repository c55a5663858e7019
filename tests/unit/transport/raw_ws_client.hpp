// Test helper: a raw TCP client that speaks WebSocket by hand, so tests can send what no library would.
#pragma once

#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace rwd::transport::testing {

/// One blocking-free TCP connection to 127.0.0.1:port; reads are drained by the pump's rounds.
class RawWsClient {
public:
    explicit RawWsClient(std::uint16_t port) {
        fd_ = ::socket(AF_INET, SOCK_STREAM, 0);
        sockaddr_in to{};
        to.sin_family = AF_INET;
        to.sin_port = htons(port);
        to.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
        connected_ = ::connect(fd_, reinterpret_cast<sockaddr*>(&to), sizeof(to)) == 0;
    }
    ~RawWsClient() {
        if (fd_ >= 0) ::close(fd_);
    }
    RawWsClient(const RawWsClient&) = delete;
    RawWsClient& operator=(const RawWsClient&) = delete;

    [[nodiscard]] bool connected() const { return connected_; }

    /// An upgrade request for `path`, naming `protocol` (none when empty).
    static std::string upgrade(const std::string& path, const std::string& protocol) {
        std::string r = "GET " + path +
                        " HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                        "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n";
        if (!protocol.empty()) r += "Sec-WebSocket-Protocol: " + protocol + "\r\n";
        return r + "\r\n";
    }

    /// A client frame: FIN set, `opcode`, masked with a fixed key unless `masked` is false.
    static std::vector<std::uint8_t> frame(std::uint8_t opcode, const std::vector<std::uint8_t>& payload,
                                           bool masked = true) {
        std::vector<std::uint8_t> f{static_cast<std::uint8_t>(0x80 | opcode)};
        const std::uint8_t mask_bit = masked ? 0x80 : 0x00;
        if (payload.size() < 126) {
            f.push_back(static_cast<std::uint8_t>(mask_bit | payload.size()));
        } else if (payload.size() <= 0xFFFF) {
            f.push_back(mask_bit | 126);
            f.push_back(static_cast<std::uint8_t>(payload.size() >> 8));
            f.push_back(static_cast<std::uint8_t>(payload.size()));
        } else {
            f.push_back(mask_bit | 127);
            for (int i = 7; i >= 0; --i) f.push_back(static_cast<std::uint8_t>(payload.size() >> (8 * i)));
        }
        const std::uint8_t key[4] = {0x12, 0x34, 0x56, 0x78};
        if (masked) f.insert(f.end(), key, key + 4);
        for (std::size_t i = 0; i < payload.size(); ++i)
            f.push_back(masked ? static_cast<std::uint8_t>(payload[i] ^ key[i % 4]) : payload[i]);
        return f;
    }

    void send(const std::string& text) { send_bytes({text.begin(), text.end()}); }
    void send_bytes(const std::vector<std::uint8_t>& bytes) {
        std::size_t done = 0;
        while (done < bytes.size()) {
            const auto n = ::send(fd_, bytes.data() + done, bytes.size() - done, MSG_NOSIGNAL);
            if (n <= 0) return;
            done += static_cast<std::size_t>(n);
        }
    }

    /// Reads whatever is ready (never blocks); false once the server closed the socket.
    bool drain() {
        while (true) {
            pollfd p{fd_, POLLIN, 0};
            if (::poll(&p, 1, 0) <= 0) return open_;
            std::uint8_t buf[4096];
            const auto n = ::recv(fd_, buf, sizeof(buf), 0);
            if (n <= 0) {
                open_ = false;
                return false;
            }
            received_.insert(received_.end(), buf, buf + n);
        }
    }
    [[nodiscard]] const std::vector<std::uint8_t>& received() const { return received_; }
    [[nodiscard]] std::string received_text() const { return {received_.begin(), received_.end()}; }
    [[nodiscard]] bool open() const { return open_; }

    /// The close code of the first close frame the server sent (0 if none yet). Server frames are unmasked.
    [[nodiscard]] int close_code() const {
        const auto start = received_text().find("\r\n\r\n");
        std::size_t i = start == std::string::npos ? 0 : start + 4;
        while (i + 2 <= received_.size()) {
            const std::uint8_t opcode = received_[i] & 0x0F;
            std::size_t len = received_[i + 1] & 0x7F;
            std::size_t at = i + 2;
            if (len == 126) {
                if (at + 2 > received_.size()) return 0;
                len = (std::size_t{received_[at]} << 8) | received_[at + 1];
                at += 2;
            }
            if (at + len > received_.size()) return 0;
            if (opcode == 0x8 && len >= 2) return (received_[at] << 8) | received_[at + 1];
            i = at + len;
        }
        return 0;
    }

private:
    int fd_ = -1;
    bool connected_ = false;
    bool open_ = true;
    std::vector<std::uint8_t> received_;
};

}  // namespace rwd::transport::testing
