#!/usr/bin/env bash
# The checks on the platforms the box runs on, in fresh Debian roots (tools/debian-root.sh).
#
#   tools/platform-check.sh i386 TEST...
#       32-bit: a Debian bookworm i386 root (native speed), numpy and Pillow from apt
#       (np.intp is int32), the box's locked dependencies; runs the given tests.
#   tools/platform-check.sh pi SUITE ARCH TEST...
#       a fresh Debian SUITE root for ARCH (arm64, armhf: under qemu) set up like a new
#       Raspberry Pi OS: a user "pi" with sudo, a boot partition. Inside it, as a person
#       would (docs/install-pi.md): `sudo hardware/install-pi.sh --force`; the docs' key
#       script, whose frames must be byte-identical to this machine's; the box's data,
#       then the script again (an update that must keep the data); then the given tests.
#
# Run as root from the checkout (make pi-check and make test-32bit do). Work happens in
# WORK_DIR (default build/platform); the roots are cached by tools/debian-root.sh.
set -euo pipefail

CHECKOUT=$(cd -- "$(dirname -- "${BASH_SOURCE[0]}")/.." && pwd)
ROOTS="$CHECKOUT/tools/debian-root.sh"
WORK_DIR=${WORK_DIR:-$CHECKOUT/build/platform}
HOST_PYTHON=${HOST_PYTHON:-$CHECKOUT/.venv/bin/python}
LOCK_FILE=hardware/requirements-pi.txt
TEST_TOOLS=("pytest>=8" "hypothesis>=6.100")

say() { printf '== [%s] %s\n' "$LABEL" "$*"; }
die() { printf 'platform-check [%s]: %s\n' "$LABEL" "$*" >&2; exit 1; }
LABEL=platform

# Time a step and say how long it took.
step() {
    local name=$1 started=$SECONDS
    shift
    say "$name"
    "$@" || die "$name failed"
    say "$name: done in $((SECONDS - started)) s"
}

# The checkout's files as git sees them (tracked and new, not ignored) copied into DIR.
copy_checkout() {
    local target=$1
    mkdir -p "$target"
    (cd "$CHECKOUT" && git ls-files -z --cached --others --exclude-standard \
        | tar --null -T - --ignore-failed-read -cf - 2>/dev/null) | tar -C "$target" -xf -
}

inside() { "$ROOTS" enter "$ROOT" "$@"; }

# A shell script run inside the root (as root), from stdin.
inside_sh() { inside /bin/bash -euo pipefail -s "$@"; }

# The first fenced block under "## Key scripts" in docs/device.md: the docs' key script.
docs_key_script() {
    awk '/^## Key scripts/ { section = 1; next }
         section && /^## / { exit }
         section && /^```/ { if (inside) exit; inside = 1; next }
         inside { print }' "$CHECKOUT/docs/device.md"
}

# The same frames on this machine, for comparison.
host_frames() {
    local keys=$1 out=$2
    rm -rf "$out" "$out.data"
    "$(dirname -- "$HOST_PYTHON")/spielleiter" --keys "$keys" --frames "$out" --data "$out.data" \
        --seed 7 --display none >/dev/null
}

check_i386() {
    LABEL="bookworm i386"
    ROOT="$WORK_DIR/bookworm-i386"
    step "fresh root" "$ROOTS" fresh bookworm i386 "$ROOT"
    step "apt: python3-numpy python3-pil python3-venv python3-pip" inside_sh <<'EOF'
apt-get update -q >/dev/null
DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends \
    python3-numpy python3-pil python3-venv python3-pip >/dev/null
EOF
    step "the program as a wheel (built here)" build_wheel "$ROOT/opt/wheel"
    copy_checkout "$ROOT/opt/checkout"
    step "venv: the locked dependencies, the wheel, ${TEST_TOOLS[*]}" inside_sh <<EOF
python3 -m venv --system-site-packages /opt/venv
/opt/venv/bin/python -m pip install -q --no-deps --require-hashes --only-binary=:all: \
    -r /opt/checkout/$LOCK_FILE
/opt/venv/bin/python -m pip install -q --no-deps /opt/wheel/*.whl
/opt/venv/bin/python -m pip install -q ${TEST_TOOLS[*]@Q}
/opt/venv/bin/python -m pip check
/opt/venv/bin/python -c 'import numpy, PIL, platform
print("python", platform.python_version(), platform.architecture()[0],
      "numpy", numpy.__version__, "intp", numpy.dtype(numpy.intp).name, "Pillow", PIL.__version__)'
EOF
    step "tests (32-bit)" inside_sh "$@" <<'EOF'
cd /opt/checkout
/opt/venv/bin/python -c 'import numpy, sys; sys.exit(numpy.dtype(numpy.intp).itemsize != 4)' \
    || { echo "np.intp is not 32-bit here"; exit 1; }
# Debian's numpy 1.24.2 for i386 divides int32 arrays by a scalar wrongly with AVX-512
# (36 // 7 gives 36): a numpy bug of x86 only, not of the Pi's ARM. Off for this run.
if ! /opt/venv/bin/python -c 'import numpy as np, sys
sys.exit(int((np.full(16, 36, dtype=np.int32) // 7 != 5).any()))'; then
    echo "    note: this numpy divides int32 wrongly with AVX-512 (an i386 numpy bug): AVX-512 off"
    export NPY_DISABLE_CPU_FEATURES="AVX512F AVX512CD AVX512_SKX AVX512_CLX AVX512_CNL AVX512_ICL"
fi
/opt/venv/bin/python -m pytest -p no:cacheprovider "$@"
EOF
}

build_wheel() {
    rm -rf "$1"
    "$HOST_PYTHON" -m pip wheel -q --no-deps -w "$1" "$CHECKOUT" >/dev/null
}

# A fresh root made to look like a new Raspberry Pi OS Lite where it matters.
like_a_new_pi() {
    inside_sh <<'EOF'
useradd --create-home --shell /bin/bash --groups sudo pi
printf 'pi ALL=(ALL) NOPASSWD: ALL\n' >/etc/sudoers.d/010_pi-nopasswd
chmod 0440 /etc/sudoers.d/010_pi-nopasswd
mkdir -p /boot/firmware
printf '# Raspberry Pi OS config.txt\n[all]\ndtparam=audio=on\n' >/boot/firmware/config.txt
printf 'console=serial0,115200 console=tty1 root=PARTUUID=0-02 rootfstype=ext4 rootwait\n' \
    >/boot/firmware/cmdline.txt
EOF
}

# The person's steps: the checkout in their home, then sudo hardware/install-pi.sh.
install_as_pi() {
    local log="$WORK_DIR/$NAME-install.log"
    if ! run_script >"$log" 2>&1; then
        if ! grep -q '^install-pi.sh: no lgpio for Python' "$log"; then
            tail -n 30 "$log"
            return 1
        fi
        # where no lgpio wheel fits, the script says what to do; do as the docs say
        grep '^install-pi.sh:' "$log" | sed 's/^/    /'
        echo "    following docs/install-pi.md: lgpio built from source, then the script again"
        docs_lgpio_build >"$ROOT/tmp/lgpio-build.sh"
        inside runuser -u pi -- /bin/bash -euo pipefail /tmp/lgpio-build.sh >"$log.lgpio" 2>&1 \
            || { tail -n 30 "$log.lgpio"; return 1; }
        run_script >"$log" 2>&1 || { tail -n 30 "$log"; return 1; }
    fi
    grep -E '^(==|note|warning|install-pi)' "$log" | sed 's/^/    /'
}

run_script() {
    inside runuser -u pi -- /bin/bash -c 'cd ~/spielleiter && sudo hardware/install-pi.sh --force'
}

# The commands docs/install-pi.md gives for building lgpio where no wheel fits.
docs_lgpio_build() {
    awk '/^### lgpio where the archive has none/ { section = 1; next }
         section && /^##/ { exit }
         section && /^```sh/ { inside = 1; next }
         inside && /^```/ { exit }
         inside { print }' "$CHECKOUT/docs/install-pi.md"
}

# The docs' key script on the installed box, frames compared byte for byte with this machine's.
compare_frames() {
    local keys="$WORK_DIR/$NAME-keys.txt" here="$WORK_DIR/$NAME-frames-host" count
    docs_key_script >"$keys"
    [[ -s "$keys" ]] || { echo "no key script found in docs/device.md"; return 1; }
    host_frames "$keys" "$here"
    cp "$keys" "$ROOT/tmp/keys.txt"
    inside runuser -u pi -- /bin/bash -c 'rm -rf /tmp/frames /tmp/box &&
        /opt/spielleiter/venv/bin/spielleiter --keys /tmp/keys.txt --frames /tmp/frames \
            --data /tmp/box --seed 7 --display none >/dev/null'
    count=$(find "$here" -name 'frame-*.png' | wc -l)
    [[ "$count" -gt 0 ]] || { echo "no frames on this machine"; return 1; }
    if ! diff -r "$here" "$ROOT/tmp/frames" >/dev/null; then
        diff -rq "$here" "$ROOT/tmp/frames" | head -n 5
        echo "the frames differ from this machine's"
        return 1
    fi
    echo "    $count frames and frames.tsv byte-identical to this machine's"
}

# Data on the box, then the script again over it: the program is updated, the data kept.
update_keeps_data() {
    inside_sh <<'EOF'
runuser -u spielleiter -- /opt/spielleiter/venv/bin/spielleiter --keys /tmp/keys.txt \
    --data /var/lib/spielleiter --seed 7 --display none >/dev/null
cd /var/lib/spielleiter && sha256sum spielleiter.sqlite3* >/tmp/data-before.sha256
marker="# platform-check update $(date +%s)"
printf '%s\n' "$marker" >>/home/pi/spielleiter/firmware/__init__.py
printf '%s\n' "$marker" >/tmp/marker
EOF
    install_as_pi
    inside_sh <<'EOF'
cd /var/lib/spielleiter && sha256sum --quiet -c /tmp/data-before.sha256
init=$(/opt/spielleiter/venv/bin/python -c 'import spielleiter; print(spielleiter.__file__)')
grep -qxF "$(cat /tmp/marker)" "$init" || { echo "the program was not updated"; exit 1; }
records=$(sqlite3 /var/lib/spielleiter/spielleiter.sqlite3 'select count(*) from records' 2>/dev/null \
    || /opt/spielleiter/venv/bin/python -c 'import sqlite3
print(sqlite3.connect("/var/lib/spielleiter/spielleiter.sqlite3").execute("select count(*) from records").fetchone()[0])')
echo "    updated (the new program is installed); the data kept: $records record(s), same bytes"
systemctl is-enabled spielleiter.service | sed 's/^/    spielleiter.service: /'
EOF
}

run_tests() {
    inside_sh "$@" <<'EOF'
python3 -m venv --system-site-packages /opt/check
/opt/check/bin/python -m pip install -q "pytest>=8" "hypothesis>=6.100"
box=$(/opt/spielleiter/venv/bin/python -c 'import sysconfig; print(sysconfig.get_paths()["purelib"])')
cd /home/pi/spielleiter
/opt/spielleiter/venv/bin/python -c 'import numpy, PIL, platform
print("    the box: python", platform.python_version(), platform.machine(),
      "numpy", numpy.__version__, "intp", numpy.dtype(numpy.intp).name, "Pillow", PIL.__version__)'
PYTHONPATH=$box /opt/check/bin/python -m pytest -p no:cacheprovider "$@"
EOF
}

check_pi() {
    local suite=$1 arch=$2
    shift 2
    LABEL="$suite $arch"
    NAME="$suite-$arch"
    ROOT="$WORK_DIR/$NAME"
    step "fresh root" "$ROOTS" fresh "$suite" "$arch" "$ROOT"
    inside_sh <<'EOF'
python3 -c 'import platform; print("    python", platform.python_version(), platform.machine(), platform.architecture()[0])'
EOF
    step "like a new Pi: user pi with sudo, /boot/firmware" like_a_new_pi
    copy_checkout "$ROOT/home/pi/spielleiter"
    inside chown -R pi:pi /home/pi/spielleiter
    step "sudo hardware/install-pi.sh --force (as pi)" install_as_pi
    step "the docs' key script: frames as on this machine" compare_frames
    step "the script again over an installed box" update_keeps_data
    step "tests under ${arch}" run_tests "$@"
}

main() {
    [[ "$(id -u)" -eq 0 ]] || die "run it as root (it builds and enters Debian roots)"
    [[ -x "$HOST_PYTHON" ]] || die "no $HOST_PYTHON: make it first (make test builds .venv)"
    mkdir -p "$WORK_DIR"
    case "${1:-}" in
        i386) shift; check_i386 "$@" ;;
        pi) [[ $# -ge 3 ]] || die "usage: pi SUITE ARCH TEST..."; shift; check_pi "$@" ;;
        *) die "usage: tools/platform-check.sh i386 TEST... | pi SUITE ARCH TEST..." ;;
    esac
}

main "$@"
