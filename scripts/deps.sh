# Shared by ./play and ./check: installs missing Debian/Ubuntu packages (with sudo when not
# root) and points cargo at a target directory outside the clone, so builds stay warm.

export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$HOME/.cache/dicetable/target}"

# Bevy's Linux build dependencies.
BEVY_PACKAGES="pkg-config libasound2-dev libudev-dev libwayland-dev libxkbcommon-dev"
# A virtual display and Mesa's software Vulkan, for windows on machines without a display or GPU.
HEADLESS_PACKAGES="xvfb xauth xdotool mesa-vulkan-drivers libvulkan1"
# The overlay page's three.js comes from npm; its browser tests drive Debian's chromium.
WEB_PACKAGES="nodejs npm"
# openssl makes the hosting test's self-signed certificates.
BROWSER_PACKAGES="chromium openssl"
# The odds are checked against icepool, in a virtual environment (scripts/icepool-python.sh).
PYTHON_PACKAGES="python3 python3-venv"
# The online table's tests run two table servers on one NATS JetStream.
NATS_PACKAGES="nats-server"
# The hosting tests put a real reverse proxy in front of the table server.
PROXY_PACKAGES="nginx"

ensure_packages() {
    if ! command -v dpkg-query >/dev/null 2>&1; then
        echo "note: not a Debian/Ubuntu system; make sure these are installed: $*" >&2
        return 0
    fi
    local missing=()
    for pkg in "$@"; do
        dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "install ok installed" || missing+=("$pkg")
    done
    [ ${#missing[@]} -eq 0 ] && return 0
    echo "installing: ${missing[*]}" >&2
    local sudo=""
    if [ "$(id -u)" -ne 0 ]; then
        if command -v sudo >/dev/null 2>&1; then
            sudo="sudo"
        else
            echo "error: need root or sudo to install: ${missing[*]}" >&2
            return 1
        fi
    fi
    $sudo env DEBIAN_FRONTEND=noninteractive apt-get update -qq
    $sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}"
}

# True when a window can be shown without Xvfb.
has_display() {
    [ -n "${DISPLAY:-}" ] || [ -n "${WAYLAND_DISPLAY:-}" ]
}

# Installs the web folder's npm packages (three.js for the overlay page, playwright-core for its
# tests) from the lockfile, when they are missing or older than the lockfile.
ensure_web() {
    if ! command -v npm >/dev/null 2>&1; then
        ensure_packages $WEB_PACKAGES
    fi
    local stamp=web/node_modules/.package-lock.json
    if [ ! -f "$stamp" ] || [ web/package-lock.json -nt "$stamp" ]; then
        echo "installing the web page's npm packages (npm ci)" >&2
        (cd web && npm ci --no-audit --no-fund --loglevel=error)
    fi
}
