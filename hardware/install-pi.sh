#!/usr/bin/env bash
# Install Spielleiter on a Raspberry Pi running Raspberry Pi OS Bookworm or later.
# Run it from a checkout, as your normal user via sudo:  sudo hardware/install-pi.sh
# (docs/install-pi.md). The program is built into a wheel as that user, never as root;
# root installs the wheel and the pinned, hash-checked dependencies.
# See every action first:       hardware/install-pi.sh --dry-run
set -euo pipefail

usage() {
    cat <<'EOF'
Usage: hardware/install-pi.sh [--dry-run] [--wheel FILE] [--boot-dir DIR] [--force] [--help]

Installs the Spielleiter box program on this Raspberry Pi and starts it at boot:
  - apt packages: python3-venv python3-pip python3-setuptools python3-wheel
    python3-numpy python3-pil python3-lgpio i2c-tools (versions checked), and
    espeak-ng and alsa-utils, the box's German speech and its player; where
    the archive has no python3-lgpio (plain Debian), the lgpio wheel for this
    machine from PyPI, pinned by sha256 (hardware/requirements-pi-lgpio.txt)
  - a system user "spielleiter" in the groups gpio, i2c, dialout, audio
  - the data directory /var/lib/spielleiter
  - a wheel of this checkout, built as the user who ran sudo (not as root),
    offline, with apt's setuptools
  - a virtual environment /opt/spielleiter/venv that sees apt's numpy, Pillow
    and lgpio, with the pure-Python dependencies pinned by sha256
    (hardware/requirements-pi.txt, pip --require-hashes) and the wheel, checked
    by its sha256 too (an earlier install's program is replaced)
  - the pin map checked by the installed program (spielleiter --check-pins):
    a mistake in hardware/pins.toml stops the install before anything below
  - config.txt: I2C on at the baud rate from hardware/pins.toml, USB gadget mode
  - the USB gadget serial port (g_serial) with the USB identity from pins.toml
  - no login prompt on the gadget port (serial-getty@ttyGS0 masked)
  - the systemd unit spielleiter.service, enabled (and restarted when it runs)

Running it again updates the program and rewrites the same settings; the data
in /var/lib/spielleiter stays as it is.
Reboot afterwards so that config.txt and the gadget port take effect.
The network is needed only for apt and the pinned wheels from PyPI.

Options:
  -n, --dry-run     print every command and file edit without doing anything
                    (needs no root)
  --wheel FILE      install this wheel instead of building one (e.g. built on
                    the laptop: .venv/bin/python -m pip wheel --no-deps -w dist .)
  --boot-dir DIR    the boot partition (default: /boot/firmware on Bookworm,
                    else /boot)
  --force           install even though this is not a Raspberry Pi
                    (e.g. into a Pi image in a chroot; without a running
                    systemd the unit is enabled, not reloaded or restarted)
  -h, --help        show this help

Environment: PYTHON (default /usr/bin/python3) is the Python the virtual
environment is made from; it must be the system's, to see apt's Python packages.
EOF
}

SCRIPT_DIR=$(cd -- "$(dirname -- "${BASH_SOURCE[0]}")" && pwd)
SOURCE_DIR=$(dirname -- "$SCRIPT_DIR")
PINS_FILE="$SCRIPT_DIR/pins.toml"
UNIT_SOURCE="$SCRIPT_DIR/spielleiter.service"

PREFIX=/opt/spielleiter
VENV="$PREFIX/venv"
DATA_DIR=/var/lib/spielleiter
SERVICE_USER=spielleiter
SERVICE_GROUPS=(gpio i2c dialout audio)
UNIT_NAME=spielleiter.service
UNIT_PATH="/etc/systemd/system/$UNIT_NAME"
MODULES_LOAD_FILE=/etc/modules-load.d/spielleiter.conf
MODPROBE_FILE=/etc/modprobe.d/spielleiter.conf
# pip, setuptools and wheel build the program's wheel offline (pip wheel --no-build-isolation).
# espeak-ng speaks (its German voice is in espeak-ng-data), alsa-utils' aplay plays it.
APT_PACKAGES=(python3-venv python3-pip python3-setuptools python3-wheel python3-numpy
    python3-pil i2c-tools espeak-ng alsa-utils)
# Only Raspberry Pi OS's archive has it; elsewhere lgpio comes from LGPIO_LOCK_FILE.
LGPIO_APT_PACKAGE=python3-lgpio
LOCK_FILE="$SCRIPT_DIR/requirements-pi.txt"
LGPIO_LOCK_FILE="$SCRIPT_DIR/requirements-pi-lgpio.txt"
WHEEL_DIR="$PREFIX/wheels"
# systemd runs (sd_booted) when this is a directory: not in a chroot or a bare root.
SYSTEMD_RUN_DIR=/run/systemd/system
# From apt (lgpio maybe from PyPI), checked by version: distribution:module:lowest version.
APT_MODULES="numpy:numpy:1.24 Pillow:PIL:9.2 lgpio:lgpio:0.2"
PYTHON=${PYTHON:-/usr/bin/python3}
BLOCK_BEGIN="# >>> spielleiter (hardware/install-pi.sh) >>>"
BLOCK_END="# <<< spielleiter <<<"

DRY_RUN=0
FORCE=0
BOOT_DIR=""
WHEEL=""
WHEEL_FILE=""
LGPIO_FROM=""
STOPPED=""

say() { printf '%s\n' "$*"; }
die() { printf 'install-pi.sh: %s\n' "$*" >&2; exit 1; }

# Where the install cannot go on: stop, or in a dry run say so and show the rest.
stop() {
    if [[ "$DRY_RUN" -eq 1 ]]; then
        say "dry run: the install would stop here: $*"
        STOPPED=1
    else
        die "$*"
    fi
}

# One word as the shell would need it: bare when safe, else in single quotes.
shell_word() {
    if [[ "$1" =~ ^[A-Za-z0-9_./=:,@+%-]+$ ]]; then
        printf '%s' "$1"
    else
        printf "'%s'" "${1//\'/\'\\\'\'}"
    fi
}

# Print a command, then run it (or only print it in a dry run).
run() {
    local word line="+"
    for word in "$@"; do
        line+=" $(shell_word "$word")"
    done
    say "$line"
    if [[ "$DRY_RUN" -eq 0 ]]; then
        "$@"
    fi
}

# Write stdin to a file with the given mode, showing the new content.
write_file() {
    local path=$1 mode=$2 content
    content=$(cat)
    say "= write $path (mode $mode):"
    printf '%s\n' "$content" | sed 's/^/    /'
    if [[ "$DRY_RUN" -eq 0 ]]; then
        install -d -m 0755 -- "$(dirname -- "$path")"
        printf '%s\n' "$content" >"$path.tmp"
        chmod "$mode" -- "$path.tmp"
        mv -f -- "$path.tmp" "$path"
    fi
}

parse_args() {
    while [[ $# -gt 0 ]]; do
        case "$1" in
            -n | --dry-run) DRY_RUN=1 ;;
            --force) FORCE=1 ;;
            --boot-dir)
                [[ $# -ge 2 ]] || die "--boot-dir needs a directory"
                BOOT_DIR=$2
                shift
                ;;
            --boot-dir=*) BOOT_DIR=${1#--boot-dir=} ;;
            --wheel)
                [[ $# -ge 2 ]] || die "--wheel needs a file"
                WHEEL=$2
                shift
                ;;
            -h | --help) usage; exit 0 ;;
            *) usage >&2; die "unknown option: $1" ;;
        esac
        shift
    done
    if [[ -n "$WHEEL" && "$(basename -- "$WHEEL")" != spielleiter-*.whl ]]; then
        die "--wheel $WHEEL: give the program's wheel, spielleiter-VERSION-py3-none-any.whl (pip wheel --no-deps -w dist .)"
    fi
}

# Read the values this script needs from pins.toml into shell variables. (The program
# checks the whole pin map itself: check_pin_map.)
read_pins() {
    local values
    values=$("$PYTHON" - "$PINS_FILE" 2>&1 <<'EOF'
import re
import sys
import tomllib


def value(section, key, kind):
    try:
        found = pins[section][key]
    except (KeyError, TypeError):
        sys.exit(f"[{section}] {key} is missing")
    if not isinstance(found, kind) or isinstance(found, bool):
        want = "a whole number" if kind is int else "text in quotes"
        sys.exit(f"[{section}] {key} = {found!r}: want {want}")
    return found


try:
    with open(sys.argv[1], "rb") as f:
        pins = tomllib.load(f)
except OSError as exc:
    sys.exit(exc.strerror)
except UnicodeDecodeError as exc:
    sys.exit(f"not UTF-8 text (byte {exc.start})")
except tomllib.TOMLDecodeError as exc:
    sys.exit(f"not TOML: {exc}")
product = value("usb", "product", str)
if not re.fullmatch(r"[A-Za-z0-9._-]+", product):
    sys.exit(f"[usb] product {product!r}: use letters, digits, '.', '_', '-'")
lines = (
    value("i2c", "baudrate", int),
    f"0x{value('usb', 'vendor_id', int):04x}",
    f"0x{value('usb', 'product_id', int):04x}",
    product,
    value("serial", "port", str),
)
print(*lines, sep="\n")
EOF
    ) || die "$PINS_FILE: $values; fix it, then run the script again"
    {
        read -r I2C_BAUDRATE
        read -r USB_VENDOR_ID
        read -r USB_PRODUCT_ID
        read -r USB_PRODUCT
        read -r SERIAL_PORT
    } <<<"$values"
    GETTY_UNIT="serial-getty@$(basename -- "$SERIAL_PORT").service"
}

check_system() {
    "$PYTHON" -c 'import sys; sys.exit(sys.version_info < (3, 11))' \
        || die "$PYTHON is older than 3.11: Raspberry Pi OS Bookworm or later is needed"
    if [[ "$DRY_RUN" -eq 0 && "$(id -u)" -ne 0 ]]; then
        die "run it as root (sudo $0), or see what it would do with --dry-run"
    fi
    if [[ ! -r /proc/device-tree/model ]] || ! grep -qa 'Raspberry Pi' /proc/device-tree/model; then
        if [[ "$DRY_RUN" -eq 0 && "$FORCE" -eq 0 ]]; then
            die "this is not a Raspberry Pi; use --force to install anyway"
        fi
        say "note: this is not a Raspberry Pi"
    fi
}

# Bookworm keeps the boot partition at /boot/firmware; older releases at /boot.
find_boot_dir() {
    if [[ -z "$BOOT_DIR" ]]; then
        if [[ -e /boot/firmware/config.txt ]]; then
            BOOT_DIR=/boot/firmware
        elif [[ -e /boot/config.txt ]]; then
            BOOT_DIR=/boot
        else
            BOOT_DIR=/boot/firmware
        fi
    fi
    CONFIG_TXT="$BOOT_DIR/config.txt"
    CMDLINE_TXT="$BOOT_DIR/cmdline.txt"
}

# Whether apt can install PACKAGE: it has a candidate version in the archive's lists.
apt_has() {
    local candidate
    candidate=$(apt-cache policy -- "$1" 2>/dev/null | awk '$1 == "Candidate:" { print $2 }')
    [[ -n "$candidate" && "$candidate" != "(none)" ]]
}

# This machine as wheels name it: the Python version and the architecture of $PYTHON
# (a 32-bit userland on a 64-bit kernel is armv7l, as pip sees it).
python_machine() {
    "$PYTHON" -c '
import platform, struct, sys
machine = platform.machine()
if struct.calcsize("P") == 4 and machine in ("aarch64", "arm64", "armv8l"):
    machine = "armv7l"
print(f"{sys.version_info[0]}.{sys.version_info[1]}", machine)'
}

# The wheel in LGPIO_LOCK_FILE's "# wheel:" lines for Python VERSION on ARCH, if any.
lgpio_wheel_for() {
    local version=$1 arch=$2 wheel python platform tag
    while read -r wheel; do
        IFS=- read -r _ _ python _ platform <<<"${wheel%.whl}"
        [[ "$python" == "cp${version/./}" ]] || continue
        for tag in ${platform//./ }; do
            if [[ "$tag" == *"_$arch" ]]; then
                printf '%s\n' "$wheel"
                return
            fi
        done
    done < <(sed -n 's/^# wheel: *//p' "$LGPIO_LOCK_FILE")
}

# lgpio from apt where the archive has it, else the pinned PyPI wheel for this machine,
# else one a person built into the venv; otherwise say what to do. Decided before
# anything is installed.
choose_lgpio() {
    if ! command -v apt-cache >/dev/null; then
        [[ "$DRY_RUN" -eq 1 ]] || die "no apt-cache: this needs Raspberry Pi OS or Debian"
        say "note: no apt here to ask; shown as on Raspberry Pi OS, whose archive has $LGPIO_APT_PACKAGE"
        LGPIO_FROM=apt
        return
    fi
    if apt_has "$LGPIO_APT_PACKAGE"; then
        LGPIO_FROM=apt
        return
    fi
    local version arch wheel
    read -r version arch < <(python_machine)
    wheel=$(lgpio_wheel_for "$version" "$arch")
    if [[ -n "$wheel" ]]; then
        LGPIO_FROM=pypi
        say "note: the apt archive has no $LGPIO_APT_PACKAGE (Raspberry Pi OS's has), so lgpio comes from PyPI: $wheel, pinned by sha256 in $LGPIO_LOCK_FILE"
    elif [[ -x "$VENV/bin/python" ]] && "$VENV/bin/python" -c 'import lgpio' 2>/dev/null; then
        LGPIO_FROM=venv
        say "note: the apt archive has no $LGPIO_APT_PACKAGE and PyPI no lgpio wheel for Python $version on $arch; the lgpio already in $VENV is kept"
    else
        LGPIO_FROM=none
        stop "no lgpio for Python $version on $arch: the apt archive has no $LGPIO_APT_PACKAGE and PyPI no wheel for it; use Raspberry Pi OS (its archive has $LGPIO_APT_PACKAGE), or build lgpio into the venv as root (apt-get install swig python3-dev gcc python3-venv && python3 -m venv --system-site-packages $VENV && PYPI=1 $VENV/bin/pip install --no-binary lgpio lgpio==0.2.2.0) and run this again"
    fi
}

install_packages() {
    say "== apt packages"
    run apt-get update
    choose_lgpio
    local packages=("${APT_PACKAGES[@]}")
    if [[ "$LGPIO_FROM" == apt ]]; then
        packages+=("$LGPIO_APT_PACKAGE")
    fi
    run env DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends \
        "${packages[@]}"
}

create_user() {
    say "== service user $SERVICE_USER"
    local group groups_csv
    for group in "${SERVICE_GROUPS[@]}"; do
        if ! getent group "$group" >/dev/null; then
            run groupadd --system "$group"
        fi
    done
    groups_csv=$(IFS=,; printf '%s' "${SERVICE_GROUPS[*]}")
    if id -u "$SERVICE_USER" >/dev/null 2>&1; then
        run usermod --append --groups "$groups_csv" "$SERVICE_USER"
    else
        run useradd --system --user-group --no-create-home --home-dir "$DATA_DIR" \
            --shell /usr/sbin/nologin --groups "$groups_csv" "$SERVICE_USER"
    fi
    say "== data directory"
    run install -d -o "$SERVICE_USER" -g "$SERVICE_USER" -m 0750 "$DATA_DIR"
}

# Build the wheel as the person who ran sudo: root never runs the checkout's build.
build_wheel() {
    say "== wheel"
    run install -d -m 0755 "$WHEEL_DIR"
    if [[ -n "$WHEEL" ]]; then
        [[ "$DRY_RUN" -eq 1 || -f "$WHEEL" ]] || die "no wheel $WHEEL"
        run install -m 0644 "$WHEEL" "$WHEEL_DIR/"
        WHEEL_FILE="$WHEEL_DIR/$(basename -- "$WHEEL")"
        return
    fi
    local builder=${SUDO_USER:-}
    if [[ -z "$builder" || "$builder" == root ]]; then
        if [[ "$DRY_RUN" -eq 0 ]]; then
            die "run it with sudo from your normal user (it builds the wheel as that user), or give --wheel FILE"
        fi
        builder="YOUR-USER"
    fi
    local build_dir=/tmp/spielleiter-wheel.XXXXXX built
    if [[ "$DRY_RUN" -eq 0 ]]; then
        build_dir=$(runuser -u "$builder" -- mktemp -d)
    fi
    # a copy of the checkout without its build output: no file of an earlier build
    # (build/lib) gets into the new wheel, and the checkout itself is not written
    run runuser -u "$builder" -- tar -C "$SOURCE_DIR" -cf "$build_dir/source.tar" \
        --exclude=./.git --exclude=./.venv --exclude=./build --exclude=./dist \
        --exclude='*.egg-info' .
    run runuser -u "$builder" -- mkdir "$build_dir/source"
    run runuser -u "$builder" -- tar -C "$build_dir/source" -xf "$build_dir/source.tar"
    # offline: apt's setuptools and wheel, not the user's own (PYTHONNOUSERSITE)
    run runuser -u "$builder" -- env PYTHONNOUSERSITE=1 "$PYTHON" -m pip wheel \
        --disable-pip-version-check --no-build-isolation --no-deps \
        --wheel-dir "$build_dir" "$build_dir/source" \
        || die "pip could not build the wheel of $SOURCE_DIR with apt's setuptools (see above); build one on the laptop (.venv/bin/python -m pip wheel --no-deps -w dist .), copy it here and give it with --wheel FILE"
    built="$build_dir/spielleiter-VERSION-py3-none-any.whl"
    if [[ "$DRY_RUN" -eq 0 ]]; then
        built=$(find "$build_dir" -maxdepth 1 -name 'spielleiter-*.whl' | head -n 1)
        [[ -n "$built" ]] || die "pip built no spielleiter wheel in $build_dir"
    fi
    run install -m 0644 "$built" "$WHEEL_DIR/"
    WHEEL_FILE="$WHEEL_DIR/$(basename -- "$built")"
    run runuser -u "$builder" -- rm -rf -- "$build_dir"
}

# The packages apt brings, checked by version inside the virtual environment. A module
# may come from another distribution (lgpio from PyPI's adafruit-lgpio): its version then.
check_apt_modules() {
    say "== apt-provided modules"
    run "$VENV/bin/python" -c '
import importlib, importlib.metadata as md, sys
bad = []
for item in sys.argv[1].split():
    dist, module, lowest = item.split(":")
    try:
        importlib.import_module(module)
        try:
            version = md.version(dist)
        except md.PackageNotFoundError:
            version = md.version(md.packages_distributions()[module][0])
    except Exception as exc:
        bad.append(f"{dist}: missing ({exc})")
        continue
    have = tuple(int(p) for p in version.split(".")[:2] if p.isdigit())
    if have < tuple(int(p) for p in lowest.split(".")):
        bad.append(f"{dist} {version} is older than {lowest}")
sys.exit("; ".join(bad) if bad else 0)
' "$APT_MODULES"
}

# The program itself: the wheel, by the hash it has now. --force-reinstall replaces the
# program of an earlier install (the version may be the same), --no-deps leaves the rest.
install_wheel() {
    local hash="SHA256-OF-THE-WHEEL" requirement="$WHEEL_DIR/spielleiter.requirements.txt"
    if [[ "$DRY_RUN" -eq 0 ]]; then
        hash=$(sha256sum -- "$WHEEL_FILE" | cut -d " " -f 1)
    fi
    printf 'spielleiter @ file://%s --hash=sha256:%s\n' "$WHEEL_FILE" "$hash" \
        | write_file "$requirement" 0644
    run "$VENV/bin/python" -m pip install --disable-pip-version-check --no-deps \
        --require-hashes --force-reinstall -r "$requirement"
}

# The venv is made over an existing one in place: an update keeps what it holds.
install_program() {
    say "== virtual environment and program"
    run install -d -m 0755 "$PREFIX"
    run "$PYTHON" -m venv --system-site-packages "$VENV"
    if [[ "$LGPIO_FROM" == pypi ]]; then
        # lgpio, as pinned and hashed: pip takes the one wheel for this machine
        run "$VENV/bin/python" -m pip install --disable-pip-version-check --no-deps \
            --require-hashes --only-binary=:all: -r "$LGPIO_LOCK_FILE"
    fi
    check_apt_modules
    # the pure-Python dependencies, exactly as pinned and hashed in the lock file
    run "$VENV/bin/python" -m pip install --disable-pip-version-check --no-deps \
        --require-hashes --only-binary=:all: -r "$LOCK_FILE"
    install_wheel
    run "$VENV/bin/python" -m pip check
}

# The pin map as the installed program reads it, checked by the program before the box is
# restarted on it: a mistake in pins.toml stops the install here, naming the key.
check_pin_map() {
    say "== pin map"
    run "$VENV/bin/spielleiter" --check-pins \
        || die "the pin map is wrong (see above): fix hardware/pins.toml and run the script again${WHEEL:+ (the wheel carries its own pins.toml: build it again)}"
}

# The lines this script owns in config.txt, between two marker comments.
config_block() {
    cat <<EOF
$BLOCK_BEGIN
[all]
dtparam=i2c_arm=on,i2c_arm_baudrate=$I2C_BAUDRATE
dtoverlay=dwc2
$BLOCK_END
EOF
}

# Replace our block in config.txt (or append it), leaving every other line alone.
configure_boot() {
    say "== boot configuration $CONFIG_TXT"
    local block kept
    block=$(config_block)
    say "= edit $CONFIG_TXT: replace the block between the spielleiter markers (or append it):"
    printf '%s\n' "$block" | sed 's/^/    /'
    if [[ "$DRY_RUN" -eq 0 ]]; then
        [[ -e "$CONFIG_TXT" ]] || die "$CONFIG_TXT not found; give the boot partition with --boot-dir"
        [[ -e "$CONFIG_TXT.spielleiter.bak" ]] || cp -- "$CONFIG_TXT" "$CONFIG_TXT.spielleiter.bak"
        kept=$(awk -v begin="$BLOCK_BEGIN" -v end="$BLOCK_END" '
            $0 == begin { skip = 1; next }
            $0 == end { skip = 0; next }
            !skip { print }' "$CONFIG_TXT")
        printf '%s\n%s\n' "$kept" "$block" >"$CONFIG_TXT.tmp"
        mv -f -- "$CONFIG_TXT.tmp" "$CONFIG_TXT"
    fi
    if [[ -r "$CMDLINE_TXT" ]]; then
        if grep -Eq 'modules-load=[^ ]*g_(ether|cdc|multi|mass_storage)' "$CMDLINE_TXT"; then
            say "warning: $CMDLINE_TXT loads another USB gadget (modules-load=...);"
            say "         remove it there, only one gadget can use the USB port"
        fi
        if grep -Eq "console=$(basename -- "$SERIAL_PORT")" "$CMDLINE_TXT"; then
            say "warning: $CMDLINE_TXT puts a console on $SERIAL_PORT; remove that console="
        fi
    fi
}

# The gadget serial port: modules loaded at boot, and g_serial's USB identity.
configure_gadget() {
    say "== USB gadget serial ($SERIAL_PORT)"
    write_file "$MODULES_LOAD_FILE" 0644 <<EOF
# Spielleiter: I2C device files, the USB controller in gadget mode, gadget serial.
i2c-dev
dwc2
g_serial
EOF
    write_file "$MODPROBE_FILE" 0644 <<EOF
# Spielleiter: the identity the box announces over USB (hardware/pins.toml [usb]).
options g_serial use_acm=1 idVendor=$USB_VENDOR_ID idProduct=$USB_PRODUCT_ID iProduct=$USB_PRODUCT iManufacturer=$USB_PRODUCT
EOF
    say "== no login prompt on the gadget port"
    run systemctl mask "$GETTY_UNIT"
}

# Whether systemd is running here (sd_booted); not in a chroot or a root without it.
systemd_running() {
    [[ -d "$SYSTEMD_RUN_DIR" ]]
}

# enable works on the files alone; reload and restart need a running systemd.
install_service() {
    say "== systemd unit $UNIT_NAME"
    run install -m 0644 "$UNIT_SOURCE" "$UNIT_PATH"
    if systemd_running; then
        run systemctl daemon-reload
        run systemctl enable "$UNIT_NAME"
        run systemctl try-restart "$UNIT_NAME"
    else
        say "note: systemd is not running here ($SYSTEMD_RUN_DIR is missing): no reload or restart; the unit is enabled and starts at the next boot"
        run systemctl enable "$UNIT_NAME"
    fi
}

main() {
    parse_args "$@"
    check_system
    read_pins
    find_boot_dir
    if [[ "$DRY_RUN" -eq 1 ]]; then
        say "Dry run: nothing is changed. Checkout: $SOURCE_DIR"
    fi
    install_packages
    create_user
    build_wheel
    install_program
    check_pin_map
    configure_boot
    configure_gadget
    install_service
    if [[ -n "$STOPPED" ]]; then
        say "== dry run done; the install itself would stop where it says so above"
        return
    fi
    say "== done"
    say "Reboot now (sudo reboot) so that I2C and the USB gadget port are switched on;"
    say "then: systemctl status $UNIT_NAME   and   journalctl -u $UNIT_NAME -f"
}

# Sourcing the script (as the tests do) defines the steps without running them.
if [[ "${BASH_SOURCE[0]}" == "$0" ]]; then
    main "$@"
fi
