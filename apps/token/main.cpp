// rewind-token: backend key pairs and connect tokens for local testing of rewind-server --public-key.
#include "token_tool.hpp"

#include "common/command_line.hpp"

#include <CLI/CLI.hpp>

#include <cstdio>

int main(int argc, char** argv) {
    CLI::App app{
        "rewind-token: make a backend key pair and mint connect tokens for local testing.\n"
        "  rewind-token keygen\n"
        "  rewind-server --public-key backend.public --public-address 127.0.0.1:7777\n"
        "  rewind-client --connect 127.0.0.1:7777 --token $(rewind-token mint --client-id 1 "
        "--server 127.0.0.1:7777)\n"
        "A real game backend mints tokens the same way after it has authenticated the player."};
    app.require_subcommand(1);

    token_tool::KeygenOptions k;
    auto* keygen =
        app.add_subcommand("keygen", "Write a new Ed25519 key pair as hex (the secret file is mode 0600)");
    keygen->add_option("--secret-key", k.secret_key_file, "Secret key file to write")->capture_default_str();
    keygen->add_option("--public-key", k.public_key_file, "Public key file to write")->capture_default_str();
    keygen
        ->add_option("--sealing-key", k.sealing_key_file,
                     "Sealing key file to write (the servers' --sealing-key; secret like the secret key)")
        ->capture_default_str();
    keygen->add_option("--seed", k.seed_hex,
                       "64 hex digits: derive the pair from this seed (tests) instead of "
                       "fresh randomness");
    keygen->add_flag("--force", k.force, "Overwrite existing key files");

    token_tool::MintOptions m;
    auto* mint = app.add_subcommand("mint", "Print a signed connect token (hex), valid from now");
    mint->add_option("--secret-key", m.secret_key_file, "The backend's secret key file")
        ->capture_default_str();
    mint->add_option("--sealing-key", m.sealing_key_file, "The servers' sealing key file")
        ->capture_default_str();
    mint->add_option("--client-id", m.client_id, "The client's id (unique per account)")->required();
    mint->add_option("--server", m.server, "HOST:PORT the token admits to (as the server's --public-address)")
        ->required();
    mint->add_option("--expires-in", m.expires_in, "Lifetime: 500ms, 30s, 5m, 2h")->capture_default_str();
    mint->add_option("--game-id", m.game_id, "Game id, decimal or 0x hex (default: the arena's)")
        ->capture_default_str();
    mint->add_option("--user-data", m.user_data_hex,
                     "Application data for the server, hex (at most 256 bytes)");
    mint->add_option("--out", m.out_file, "Also write the credentials to this file");

    token_tool::InspectOptions i;
    auto* inspect = app.add_subcommand("inspect", "Print a token's fields; with --public-key, verify it now");
    inspect->add_option("token", i.token, "The credentials (or a bare token) as hex, or @FILE")->required();
    inspect->add_option("--public-key", i.public_key_file, "The backend's public key file");
    inspect->add_option("--sealing-key", i.sealing_key_file,
                        "The servers' sealing key file (needed with --public-key)");
    inspect->add_option("--server", i.server, "HOST:PORT to verify against (default: the token's own)");
    inspect->add_option("--game-id", i.game_id, "Game id to verify against")->capture_default_str();

    if (auto code = apps::parse_command_line(app, argc, argv, "rewind-token")) return *code;
    if (*keygen) return token_tool::keygen(k, stdout, stderr);
    if (*mint) return token_tool::mint(m, stdout, stderr);
    return token_tool::inspect(i, stdout, stderr);
}
