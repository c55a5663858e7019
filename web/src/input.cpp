// Input: HTML5 key, mouse and blur callbacks into InputState; read() builds the arena input like window.cpp.
#include "input.hpp"

#include <emscripten/html5.h>

#include <cmath>
#include <cstring>

namespace web {

namespace {

InputState* owner(void* user) { return static_cast<InputState*>(user); }

EM_BOOL key_cb(int type, const EmscriptenKeyboardEvent* e, void* user) {
    // True (the browser's default action suppressed: no scrolling on arrows or space) only for our keys.
    return owner(user)->on_key(e->code, type == EMSCRIPTEN_EVENT_KEYDOWN) ? EM_TRUE : EM_FALSE;
}

EM_BOOL mouse_cb(int, const EmscriptenMouseEvent* e, void* user) {
    owner(user)->on_mouse(static_cast<float>(e->targetX), static_cast<float>(e->targetY), e->buttons);
    return EM_TRUE;
}

EM_BOOL blur_cb(int, const EmscriptenFocusEvent*, void* user) {
    owner(user)->release_all();
    return EM_FALSE;
}

bool is(const char* code, const char* name) { return std::strcmp(code, name) == 0; }

}  // namespace

void InputState::attach() {
    const char* window = EMSCRIPTEN_EVENT_TARGET_WINDOW;
    emscripten_set_keydown_callback(window, this, EM_TRUE, key_cb);
    emscripten_set_keyup_callback(window, this, EM_TRUE, key_cb);
    emscripten_set_blur_callback(window, this, EM_TRUE, blur_cb);
    emscripten_set_mousemove_callback("#arena", this, EM_TRUE, mouse_cb);
    emscripten_set_mousedown_callback("#arena", this, EM_TRUE, mouse_cb);
    emscripten_set_mouseup_callback("#arena", this, EM_TRUE, mouse_cb);
}

bool InputState::on_key(const char* code, bool down) {
    if (is(code, "KeyW") || is(code, "ArrowUp")) return up_ = down, true;
    if (is(code, "KeyS") || is(code, "ArrowDown")) return down_ = down, true;
    if (is(code, "KeyA") || is(code, "ArrowLeft")) return left_ = down, true;
    if (is(code, "KeyD") || is(code, "ArrowRight")) return right_ = down, true;
    if (is(code, "KeyR")) return reload_ = down, true;
    if (is(code, "Space")) return dash_ = down, true;
    if (is(code, "F1")) return toggle_overlay_ = toggle_overlay_ || down, true;
    if (is(code, "F2")) return toggle_ghosts_ = toggle_ghosts_ || down, true;
    return false;
}

void InputState::on_mouse(float x, float y, int buttons) {
    mouse_x_ = x;
    mouse_y_ = y;
    has_mouse_ = true;
    fire_ = (buttons & 1) != 0;
    alt_fire_ = (buttons & 2) != 0;
}

void InputState::release_all() { up_ = down_ = left_ = right_ = reload_ = dash_ = fire_ = alt_fire_ = false; }

bool InputState::take_toggle_overlay() {
    const bool t = toggle_overlay_;
    toggle_overlay_ = false;
    return t;
}

bool InputState::take_toggle_ghosts() {
    const bool t = toggle_ghosts_;
    toggle_ghosts_ = false;
    return t;
}

arena::Input InputState::read(const ArenaView& view, const arena::Input& previous) const {
    arena::Input in;
    in.move_x = static_cast<std::int8_t>((right_ ? arena::kAxisMax : 0) - (left_ ? arena::kAxisMax : 0));
    in.move_y = static_cast<std::int8_t>((up_ ? arena::kAxisMax : 0) - (down_ ? arena::kAxisMax : 0));
    if (reload_) in.buttons |= arena::kReload;
    if (dash_) in.buttons |= arena::kDash;
    if (fire_) in.buttons |= arena::kFire;
    if (alt_fire_) in.buttons |= arena::kAltFire;
    in.aim = previous.aim;
    Point self;
    if (has_mouse_ && view.own_position(self)) {
        const double dx = static_cast<double>(mouse_x_) - static_cast<double>(self.x);
        const double dy = static_cast<double>(self.y) - static_cast<double>(mouse_y_);  // canvas y is down
        if (dx * dx + dy * dy > 4.0) {
            const double turns = std::atan2(dy, dx) / 6.283185307179586;
            in.aim =
                static_cast<std::uint16_t>(static_cast<std::int64_t>(std::lround(turns * 65536.0)) & 0xFFFF);
        }
    }
    return in;
}

}  // namespace web
