// The page's entry point: reads window.rewindConfig, makes the WebClient and runs it on
// requestAnimationFrame.
#include "page_config.hpp"
#include "web_client.hpp"

#include <emscripten/emscripten.h>
#include <emscripten/html5.h>

#include <memory>

namespace {

rwd::Micros now() { return rwd::Micros{static_cast<std::int64_t>(emscripten_get_now() * 1000.0)}; }

// The client lives as long as the page: main() returns while the browser keeps calling frame().
std::unique_ptr<web::WebClient> g_client;

void frame(void*) { g_client->frame(now()); }

const char* on_unload(int, const void*, void*) {
    g_client->leave(now());
    return nullptr;  // no "leave this page?" prompt
}

}  // namespace

int main() {
    g_client = std::make_unique<web::WebClient>(web::read_page_config(), now());
    emscripten_set_beforeunload_callback(nullptr, on_unload);
    emscripten_set_main_loop_arg(frame, nullptr, 0, 0);  // 0 fps: requestAnimationFrame
    return 0;
}
