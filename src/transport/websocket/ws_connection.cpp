// ws::Connection: the HTTP upgrade (server) or connect and handshake (client), the read loop that classifies
// every message, the write queue, and the time limit of every phase.
#include "transport/websocket/ws_connection.hpp"

#include <boost/asio/connect.hpp>
#include <boost/beast/http/read.hpp>
#include <boost/beast/http/write.hpp>
#include <boost/beast/websocket/rfc6455.hpp>

#if defined(__linux__)
#include <linux/sockios.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#endif

#include <string>
#include <utility>

namespace rwd::transport::ws {

namespace {
constexpr std::size_t kMaxRequestHeaderBytes = 8 * 1024;

std::chrono::steady_clock::duration chrono_of(Micros m) { return std::chrono::microseconds(m.count); }

bool in_websocket_category(const beast::error_code& ec) {
    return ec.category() == websocket::make_error_code(websocket::error::bad_opcode).category();
}
}  // namespace

Connection::Connection(WebSocketTransport::Impl& owner, tcp::socket socket, bool outgoing_side)
    : outgoing(outgoing_side), owner_(owner), ws_(Socket(std::move(socket))), deadline_(owner.io_) {
    state = outgoing ? ConnState::handshaking : ConnState::http_request;
    in_handshake_ = !outgoing;  // the server counted it when it accepted the socket
}

void Connection::set_timeouts() {
    websocket::stream_base::timeout t{};
    t.handshake_timeout = chrono_of(owner_.config_.handshake_timeout);
    t.idle_timeout = chrono_of(owner_.config_.timeout);
    t.keep_alive_pings = true;  // a ping at half the idle timeout; a peer that sends nothing is dropped
    ws_.set_option(t);
    ws_.read_message_max(std::max(owner_.config_.max_reliable_size, owner_.config_.max_message_size) + 1);
    ws_.binary(true);
    ws_.auto_fragment(false);
}

void Connection::begin_phase() {
    const std::uint64_t phase = ++phase_;
    deadline_.expires_after(chrono_of(owner_.config_.handshake_timeout));
    deadline_.async_wait([self = shared_from_this(), phase](beast::error_code ec) {
        if (ec || self->phase_ != phase || self->state == ConnState::closed) return;  // the phase ended
        self->on_deadline();
    });
}

void Connection::on_deadline() {
    switch (state) {
        case ConnState::http_request:
            ++owner_.counters_.handshake_failures;
            break;
        case ConnState::handshaking:  // client: the TCP connect
        case ConnState::awaiting_accept:
            owner_.ended(*this, DisconnectReason::timed_out);
            break;
        case ConnState::connected:
        case ConnState::closing:
        case ConnState::closed:
            break;
    }
    abort();
}

void Connection::leave_handshake() {
    if (!in_handshake_) return;
    in_handshake_ = false;
    owner_.handshake_done();
}

void Connection::start_server() {
    beast::error_code ignored;
    ws_.next_layer().next_layer().set_option(tcp::no_delay(true), ignored);
    begin_phase();
    auto parser = std::make_shared<http::request_parser<http::string_body>>();
    parser->header_limit(kMaxRequestHeaderBytes);
    parser->body_limit(0);
    http::async_read(ws_.next_layer(), buffer_, *parser,
                     [self = shared_from_this(), parser](beast::error_code ec, std::size_t) {
                         if (!ec) self->request_ = parser->release();
                         self->on_request(ec);
                     });
}

void Connection::on_request(beast::error_code ec) {
    if (state != ConnState::http_request) return;  // timed out meanwhile
    if (ec) {
        ++owner_.counters_.handshake_failures;
        abort();
        return;
    }
    http::status refusal = http::status::ok;
    if (request_.target() != std::string_view(kPath))
        refusal = http::status::not_found;
    else if (!websocket::is_upgrade(request_) ||
             !offers_subprotocol(std::string_view(request_[http::field::sec_websocket_protocol])) ||
             buffer_.size() != 0)  // frames before the handshake's answer: not a WebSocket client
        refusal = http::status::bad_request;
    if (refusal != http::status::ok) {
        ++owner_.counters_.refused_protocol;
        answer_http(refusal);
        return;
    }
    state = ConnState::handshaking;
    ++phase_;  // the websocket stream's own timers take over
    deadline_.cancel();
    set_timeouts();
    ws_.set_option(websocket::stream_base::decorator([](websocket::response_type& res) {
        res.set(http::field::sec_websocket_protocol, std::string(kSubprotocol));
        res.set(http::field::server, "rewind");
    }));
    ws_.async_accept(request_,
                     [self = shared_from_this()](beast::error_code e) { self->on_server_handshake(e); });
}

void Connection::answer_http(http::status status) {
    state = ConnState::closing;
    begin_phase();  // a client that does not read the answer is dropped in time
    auto res = std::make_shared<http::response<http::string_body>>(status, request_.version());
    res->set(http::field::server, "rewind");
    res->set(http::field::content_type, "text/plain");
    res->body() = "rewind: WebSocket clients ask for GET /rewind with Sec-WebSocket-Protocol: rewind.1\n";
    res->keep_alive(false);
    res->prepare_payload();
    http::async_write(ws_.next_layer(), *res,
                      [self = shared_from_this(), res](beast::error_code, std::size_t) { self->abort(); });
}

void Connection::on_server_handshake(beast::error_code ec) {
    if (state != ConnState::handshaking) return;
    leave_handshake();
    if (ec) {
        ++owner_.counters_.handshake_failures;
        abort();
        return;
    }
    owner_.seat(shared_from_this());
    read();
}

void Connection::start_client(const tcp::resolver::results_type& endpoints, std::string host) {
    begin_phase();
    asio::async_connect(
        ws_.next_layer().next_layer(), endpoints,
        [self = shared_from_this(), host = std::move(host)](beast::error_code ec, const tcp::endpoint&) {
            if (self->state != ConnState::handshaking) return;
            if (ec) {
                self->owner_.ended(*self, DisconnectReason::timed_out);
                self->abort();
                return;
            }
            ++self->phase_;  // the websocket handshake has its own timer
            self->deadline_.cancel();
            beast::error_code ignored;
            self->ws_.next_layer().next_layer().set_option(tcp::no_delay(true), ignored);
            self->set_timeouts();
            self->ws_.set_option(websocket::stream_base::decorator([](websocket::request_type& req) {
                req.set(http::field::sec_websocket_protocol, std::string(kSubprotocol));
                req.set(http::field::user_agent, "rewind");
            }));
            self->ws_.async_handshake(host, std::string(kPath),
                                      [self](beast::error_code e) { self->on_client_handshake(e); });
        });
}

void Connection::on_client_handshake(beast::error_code ec) {
    if (state != ConnState::handshaking) return;
    if (ec) {
        // An HTTP refusal (404, 400) means the server will not take us; anything else may pass.
        owner_.ended(*this, ec == websocket::error::upgrade_declined ? DisconnectReason::refused
                                                                     : DisconnectReason::timed_out);
        abort();
        return;
    }
    state = ConnState::awaiting_accept;
    begin_phase();  // the accept must follow within the time limit
    read();
}

void Connection::read() {
    if (reading_ || state == ConnState::closed) return;
    if (reads_ >= kMaxReadsPerUpdate) {
        read_paused_ = true;
        return;
    }
    reading_ = true;
    ws_.async_read(buffer_, [self = shared_from_this()](beast::error_code ec, std::size_t bytes) {
        self->reading_ = false;
        self->on_read(ec, bytes);
    });
}

void Connection::on_read(beast::error_code ec, std::size_t bytes) {
    if (state == ConnState::closed) return;
    if (ec) {
        fail(ec);
        return;
    }
    ++reads_;
    const auto data = buffer_.cdata();
    const std::span<const std::uint8_t> message(static_cast<const std::uint8_t*>(data.data()), data.size());
    bytes_in += bytes + frame_overhead(bytes, !outgoing);
    owner_.counters_.bytes_received += bytes + frame_overhead(bytes, !outgoing);
    ++owner_.counters_.messages_received;
    if (state == ConnState::closing) {  // closed locally: what still arrives is read and dropped
        buffer_.consume(buffer_.size());
        read();
        return;
    }
    const Limits limits{owner_.config_.max_message_size, owner_.config_.max_reliable_size};
    const Incoming in = classify(message, ws_.got_text(), limits, state == ConnState::awaiting_accept);
    if (in.refusal != Refusal::none) {
        refuse(in.refusal);
        return;
    }
    if (in.accept) {
        state = ConnState::connected;
        accepted = true;
        ++phase_;
        deadline_.cancel();
        owner_.accepted(shared_from_this());
    } else {
        ++messages_in;
        owner_.deliver(*this, in.delivery, in.payload);
    }
    buffer_.consume(buffer_.size());
    read();
}

void Connection::refuse(Refusal r) {
    ++owner_.counters_.messages_refused;
    // The server drops a client that broke the rules; a client gives up on a server that did (and a server
    // that sends anything but the accept first is not a rewind server: refused, not retried).
    owner_.ended(*this, !outgoing  ? DisconnectReason::kicked
                        : accepted ? DisconnectReason::timed_out
                                   : DisconnectReason::refused);
    buffer_.consume(buffer_.size());
    close(close_code_of(r));  // Beast's close reads until the peer's close frame (or the time limit)
}

void Connection::fail(beast::error_code ec) {
    DisconnectReason reason = DisconnectReason::timed_out;  // a reset, an EOF, a timeout
    if (ec == websocket::error::closed) {
        reason = reason_of_close(ws_.reason().code, accepted || !outgoing);
    } else if (ec == websocket::error::message_too_big || in_websocket_category(ec)) {
        // Beast refused a frame and closed with 1009 or 1002: the peer broke the protocol.
        ++(ec == websocket::error::message_too_big ? owner_.counters_.messages_refused
                                                   : owner_.counters_.protocol_errors);
        reason = outgoing ? DisconnectReason::timed_out : DisconnectReason::kicked;
    }
    owner_.ended(*this, reason);
    abort();
}

void Connection::queue(std::vector<std::uint8_t> bytes) {
    queued_bytes_ += bytes.size();
    out_.push_back(std::move(bytes));
    write_next();
}

bool Connection::hold(std::vector<std::uint8_t> bytes) {
    const bool replaced = held_.has_value();
    held_ = std::move(bytes);
    return replaced;
}

void Connection::service() {
    if (state == ConnState::closed) return;
    if (held_ && state == ConnState::connected && !backed_up()) {
        auto bytes = std::move(*held_);
        held_.reset();
        queue(std::move(bytes));
    }
    write_next();
    reads_ = 0;
    if (read_paused_) {
        read_paused_ = false;
        read();
    }
}

bool Connection::backed_up() {
    std::size_t unsent = queued_bytes_;
    if (writing_ && !out_.empty()) unsent -= out_.front().size();  // handed to the socket: the kernel's now
#if defined(__linux__)
    int kernel_unsent = 0;
    auto& sock = ws_.next_layer().next_layer();
    if (sock.is_open() && ::ioctl(sock.native_handle(), SIOCOUTQNSD, &kernel_unsent) == 0 &&
        kernel_unsent > 0)
        unsent += static_cast<std::size_t>(kernel_unsent);
#endif
    return unsent > owner_.config_.max_backlog_bytes || in_loss_state;
}

void Connection::write_next() {
    if (writing_ || state == ConnState::closed) return;
    if (out_.empty()) {
        if (close_code_ && !closing_sent_) {
            closing_sent_ = true;
            writing_ = true;
            ws_.async_close(websocket::close_reason(*close_code_),
                            [self = shared_from_this()](beast::error_code) {
                                self->writing_ = false;
                                self->abort();  // the closing handshake is over (or failed): the socket goes
                            });
        }
        return;
    }
    if (closing_sent_) return;
    writing_ = true;
    const auto& front = out_.front();
    ws_.async_write(boost::asio::buffer(front.data(), front.size()),
                    [self = shared_from_this()](beast::error_code ec, std::size_t) { self->on_write(ec); });
}

void Connection::on_write(beast::error_code ec) {
    writing_ = false;
    if (state == ConnState::closed) {
        out_.clear();  // the socket is gone: the buffers were held until this handler ran
        queued_bytes_ = 0;
        return;
    }
    const std::size_t size = out_.front().size();
    queued_bytes_ -= size;
    out_.pop_front();
    if (ec) {
        fail(ec);
        return;
    }
    ++messages_out;
    bytes_out += size + frame_overhead(size, outgoing);
    owner_.counters_.bytes_sent += size + frame_overhead(size, outgoing);
    ++owner_.counters_.messages_sent;
    write_next();
}

void Connection::close(std::uint16_t code) {
    if (state == ConnState::closed || state == ConnState::closing) return;
    state = ConnState::closing;
    held_.reset();
    close_code_ = code;
    begin_phase();  // a peer that neither reads nor closes is dropped after the time limit
    write_next();
}

void Connection::abort() {
    if (state == ConnState::closed) return;
    state = ConnState::closed;
    leave_handshake();
    ++phase_;
    deadline_.cancel();
    ws_.next_layer().close();
    held_.reset();
    if (!writing_) {  // a write in flight keeps its buffer until its handler runs
        out_.clear();
        queued_bytes_ = 0;
    }
}

Connection::TcpSample Connection::tcp_sample() {
    TcpSample s;
#if defined(__linux__)
    auto& sock = ws_.next_layer().next_layer();
    if (!sock.is_open()) return s;
    tcp_info info{};
    socklen_t len = sizeof(info);
    if (::getsockopt(sock.native_handle(), IPPROTO_TCP, TCP_INFO, &info, &len) == 0) {
        s.rtt = Micros{static_cast<std::int64_t>(info.tcpi_rtt)};
        s.jitter = Micros{static_cast<std::int64_t>(info.tcpi_rttvar)};
        s.retransmitted = info.tcpi_total_retrans;
        // The loss state (TCP_CA_Loss, 4) after a retransmission timeout: the congestion window is one
        // segment, nothing new is sent until the hole is filled. Fast recovery (3) is not: what is written
        // then is sent, and arrives the moment the hole is filled.
        s.loss_state = info.tcpi_ca_state == 4;
    }
#endif
    return s;
}

}  // namespace rwd::transport::ws
