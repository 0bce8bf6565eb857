#!/usr/bin/env bash
# Builds the Debian packages (cargo-deb): `dicetable` (the table, the server and every command)
# and `dicetable-server` (built without the window: the server and the headless commands), each
# with the systemd unit of `dicetable serve` (its own user, a state folder, hardening), the
# manual pages and shell completions made from the command line (`dicetable package-files`).
# Then shows what is in them and checks the unit. Not part of the test run (it builds the crate
# twice in release mode). Usage: scripts/package.sh [OUT_DIR] (default target/debian under
# CARGO_TARGET_DIR).
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/deps.sh
ensure_packages dpkg-dev
command -v cargo-deb >/dev/null 2>&1 || cargo install cargo-deb --locked --version "^3"
out=${1:-$CARGO_TARGET_DIR/debian}
mkdir -p "$out"
files=$CARGO_TARGET_DIR/release/package-files

build_variant() {
    local variant=$1
    shift
    cargo build --release "$@"
    rm -rf "$files"
    "$CARGO_TARGET_DIR/release/dicetable" package-files "$files"
    if [ "$variant" = main ]; then
        cargo deb --no-build --output "$out"
    else
        cargo deb --no-build --variant "$variant" --output "$out"
    fi
}

build_variant main
build_variant server --no-default-features

for deb in "$out"/*.deb; do
    echo "== $deb ($(stat -c %s "$deb") bytes)"
    dpkg-deb --info "$deb"
    dpkg-deb --contents "$deb"
done
if command -v systemd-analyze >/dev/null 2>&1; then
    unit=$(mktemp -d)
    cp packaging/dicetable.service "$unit/"
    # The unit names /usr/bin/dicetable, which this machine may not have installed.
    sed -i "s|/usr/bin/dicetable|$CARGO_TARGET_DIR/release/dicetable|" "$unit/dicetable.service"
    # Its Documentation= names the manual page made above.
    MANPATH="$files/man" systemd-analyze verify "$unit/dicetable.service" \
        && echo "systemd-analyze verify: the unit is accepted"
    rm -rf "$unit"
fi
