# The arena's predict_entity (docs/PROTOCOL.md "Arena encodings" > "Prediction"): a predicted section's reference.
from arena_entity import PROJECTILE

LIVING = 3  # flags: present (1) and alive (2)
ARENA_MIN, ARENA_MAX = 512, 65024  # a player's centre
GRID_MAX = 65536


def count_down(v, ticks):
    return max(0, v - ticks)


def predict_entity(e, ticks):
    """The entity `ticks` ticks on, as both ends guess it."""
    p = dict(e)
    if e["kind"] == PROJECTILE:
        p["x"] = min(max(e["x"] + ticks * e["vx"], 0), GRID_MAX)
        p["y"] = min(max(e["y"] + ticks * e["vy"], 0), GRID_MAX)
        p["ttl"] = count_down(e["ttl"], ticks)
        return p
    if e["flags"] != LIVING:
        p["respawn_timer"] = count_down(e["respawn_timer"], ticks)
        return p
    p["x"] = min(max(e["x"] + ticks * e["vx"], ARENA_MIN), ARENA_MAX)
    p["y"] = min(max(e["y"] + ticks * e["vy"], ARENA_MIN), ARENA_MAX)
    for name in ("fire_cooldown", "alt_cooldown", "dash_cooldown", "dash_timer", "reload_timer"):
        p[name] = count_down(e[name], ticks)
    if e["reload_timer"] > 0 and p["reload_timer"] == 0:
        p["ammo"] = 12
    return p
