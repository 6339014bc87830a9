#!/usr/bin/env bash
# Debian roots of other releases and architectures, for the platform checks
# (tools/platform-check.sh): built once with debootstrap (qemu-user-static for
# arm64/armhf), kept as a tarball in the cache, unpacked fresh for every run.
#
#   tools/debian-root.sh build SUITE ARCH          the cached tarball (built if missing)
#   tools/debian-root.sh fresh SUITE ARCH DIR      a fresh root in DIR from it
#   tools/debian-root.sh enter DIR COMMAND...      run COMMAND as root inside DIR
#   tools/debian-root.sh mirror                    the Debian mirror this machine uses
#
# The base is what a fresh Raspberry Pi OS Lite has that matters here: python3,
# sudo, systemd, ca-certificates. Everything else is installed by what runs inside.
# Environment: ROOT_CACHE (default /var/cache/spielleiter-roots), DEBIAN_MIRROR
# (default: the machine's own apt source). Needs root; installs debootstrap and
# qemu-user-static with apt-get when they are missing.
set -euo pipefail

ROOT_CACHE=${ROOT_CACHE:-/var/cache/spielleiter-roots}
BASE_PACKAGES=python3,sudo,systemd,systemd-sysv,ca-certificates,procps

say() { printf 'debian-root: %s\n' "$*" >&2; }
die() { say "$*"; exit 1; }

# The Debian archive this machine's apt reads (deb822 .sources or one-line .list).
mirror() {
    if [[ -n "${DEBIAN_MIRROR:-}" ]]; then
        printf '%s\n' "$DEBIAN_MIRROR"
        return
    fi
    local uri
    uri=$(
        {
            cat /etc/apt/sources.list.d/*.sources 2>/dev/null | sed -n 's/^URIs:[[:space:]]*//p'
            cat /etc/apt/sources.list /etc/apt/sources.list.d/*.list 2>/dev/null \
                | sed -n 's/^deb[[:space:]]\+\(\[[^]]*\][[:space:]]\+\)\?\([^[:space:]]\+\).*/\2/p'
        } | tr ' ' '\n' | grep -E '^https?://' | grep -v -- '-security' | grep -E '/debian/?$' | head -n 1
    )
    [[ -n "$uri" ]] || die "no Debian mirror in /etc/apt/sources.list*; set DEBIAN_MIRROR"
    printf '%s\n' "${uri%/}"
}

native_arch() { dpkg --print-architecture; }

# Whether this machine runs ARCH's programs without qemu (amd64 runs i386).
runs_natively() {
    local native
    native=$(native_arch)
    [[ "$1" == "$native" || ( "$native" == amd64 && "$1" == i386 ) ]]
}

qemu_name() {
    case "$1" in
        arm64) echo aarch64 ;;
        armhf | armel) echo arm ;;
        *) die "no qemu for architecture $1" ;;
    esac
}

# One at a time (make -j2 pi-check): apt's installs and qemu's registration.
lock() { exec 9>"$ROOT_CACHE.lock" && flock 9; }
unlock() { flock -u 9; }

apt_install() {
    local missing=() package
    for package in "$@"; do
        dpkg -s "$package" >/dev/null 2>&1 || missing+=("$package")
    done
    [[ ${#missing[@]} -eq 0 ]] && return
    lock
    say "installing ${missing[*]} with apt-get"
    apt-get update -q >/dev/null
    DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends "${missing[@]}" >/dev/null
    unlock
}

# qemu-user-static registered with the kernel, for a foreign ARCH.
ensure_emulation() {
    local arch=$1 name
    runs_natively "$arch" && return
    apt_install qemu-user-static binfmt-support
    name=$(qemu_name "$arch")
    lock
    if [[ ! -e /proc/sys/fs/binfmt_misc/register ]]; then
        mount -t binfmt_misc binfmt_misc /proc/sys/fs/binfmt_misc \
            || die "cannot mount binfmt_misc: $arch programs cannot run here"
    fi
    [[ -e "/proc/sys/fs/binfmt_misc/qemu-$name" ]] || update-binfmts --enable "qemu-$name"
    with_credentials "/proc/sys/fs/binfmt_misc/qemu-$name"
    unlock
}

# sudo inside the root needs the kernel to honour setuid through qemu: the flags C
# (credentials of the program, not of qemu; needs O) and F (qemu opened now, so the root
# needs no copy). Debian registers qemu with PF only: register it again with POCF.
with_credentials() {
    local entry=$1 name interpreter flags offset magic mask
    flags=$(sed -n 's/^flags: //p' "$entry")
    [[ "$flags" == *C* && "$flags" == *F* ]] && return
    name=$(basename -- "$entry")
    interpreter=$(sed -n 's/^interpreter //p' "$entry")
    offset=$(sed -n 's/^offset //p' "$entry")
    magic=$(sed -n 's/^magic //p' "$entry" | sed 's/../\\x&/g')
    mask=$(sed -n 's/^mask //p' "$entry" | sed 's/../\\x&/g')
    echo -1 >"$entry"
    printf ':%s:M:%s:%s:%s:%s:POCF\n' "$name" "$offset" "$magic" "$mask" "$interpreter" \
        >/proc/sys/fs/binfmt_misc/register
}

tarball() { printf '%s/%s-%s.tar\n' "$ROOT_CACHE" "$1" "$2"; }

build() {
    local suite=$1 arch=$2 target dir started
    target=$(tarball "$suite" "$arch")
    if [[ -s "$target" ]]; then
        say "cached: $target"
        return
    fi
    apt_install debootstrap debian-archive-keyring
    ensure_emulation "$arch"
    mkdir -p "$ROOT_CACHE"
    dir=$(mktemp -d "$ROOT_CACHE/build-$suite-$arch.XXXXXX")
    started=$SECONDS
    say "debootstrap $suite $arch (about a minute natively, 3-4 under qemu)"
    # one stage: with qemu registered (F) the packages' scripts run in the root, and
    # debootstrap's own work (reading the archive's lists) at full speed here
    debootstrap --arch="$arch" --variant=minbase --include="$BASE_PACKAGES" \
        "$suite" "$dir" "$(mirror)" >"$dir.log" 2>&1 \
        || { tail -n 20 "$dir.log" >&2; die "debootstrap failed ($dir.log)"; }
    rm -f "$dir/var/cache/apt/archives/"*.deb
    chmod 0755 "$dir"  # mktemp made it 0700: the root's / for everyone
    tar -C "$dir" --numeric-owner -cf "$target.tmp" .
    mv -f "$target.tmp" "$target"
    rm -rf "$dir" "$dir.log"
    say "built $target in $((SECONDS - started)) s"
}

fresh() {
    local suite=$1 arch=$2 dir=$3
    build "$suite" "$arch"
    ensure_emulation "$arch"
    if [[ -d "$dir" ]]; then
        leave "$dir"
        # never delete through a mount left inside an old root (a bind mount of a checkout)
        ! awk -v d="$(realpath "$dir")/" 'index($2 "/", d) == 1 { found = 1 } END { exit !found }' \
            /proc/mounts || die "something is still mounted under $dir: umount it first"
        rm -rf --one-file-system "$dir"
    fi
    mkdir -p "$dir"
    tar -C "$dir" --numeric-owner -xf "$(tarball "$suite" "$arch")"
    chmod 0755 "$dir"
    # what this machine trusts, the root trusts: its CA bundle and pip settings
    cp /etc/ssl/certs/ca-certificates.crt "$dir/etc/ssl/certs/ca-certificates.crt"
    # ... and its local CAs, kept where the root's update-ca-certificates finds them
    if compgen -G '/usr/local/share/ca-certificates/*.crt' >/dev/null; then
        mkdir -p "$dir/usr/local/share/ca-certificates"
        cp /usr/local/share/ca-certificates/*.crt "$dir/usr/local/share/ca-certificates/"
    fi
    [[ -f /etc/pip.conf ]] && cp /etc/pip.conf "$dir/etc/pip.conf"
    cp /etc/resolv.conf "$dir/etc/resolv.conf" 2>/dev/null || true
    printf '127.0.1.1\t%s\n' "$(hostname)" >>"$dir/etc/hosts"  # as a Pi has its own name
    printf 'deb %s %s main\n' "$(mirror)" "$suite" >"$dir/etc/apt/sources.list"
    emulated_cpu "$arch" "$dir"
}

# arm64 under qemu as the Zero 2 W's own core, a Cortex-A53 (ARMv8.0). qemu's default
# CPU has pointer authentication, which trixie's arm64 programs use and qemu computes
# slowly: Python runs 18 times slower there. QEMU_CPU reaches every program in the root
# (enter sets it; sudo is told to keep it).
emulated_cpu() {
    local arch=$1 dir=$2
    [[ "$arch" == arm64 ]] && ! runs_natively "$arch" || return 0
    mkdir -p "$dir/etc/debian-root"
    echo cortex-a53 >"$dir/etc/debian-root/qemu-cpu"
    printf 'Defaults env_keep += "QEMU_CPU"\n' >"$dir/etc/sudoers.d/qemu-cpu"
    chmod 0440 "$dir/etc/sudoers.d/qemu-cpu"
}

enter() {
    local dir=$1 status=0
    shift
    ENTERED=$dir
    trap 'leave "$ENTERED"' EXIT  # interrupted too: nothing stays mounted
    mountpoint -q "$dir/proc" || mount -t proc proc "$dir/proc"
    mountpoint -q "$dir/dev" || mount --rbind /dev "$dir/dev"
    mountpoint -q "$dir/sys" || mount --rbind /sys "$dir/sys"
    local cpu=()
    [[ -s "$dir/etc/debian-root/qemu-cpu" ]] && cpu=("QEMU_CPU=$(cat "$dir/etc/debian-root/qemu-cpu")")
    chroot "$dir" /usr/bin/env -i HOME=/root TERM=dumb LANG=C.UTF-8 "${cpu[@]}" \
        PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin "$@" || status=$?
    leave "$dir"
    return "$status"
}

leave() {
    local dir=$1
    umount -R "$dir/sys" 2>/dev/null || umount -lR "$dir/sys" 2>/dev/null || true
    umount -R "$dir/dev" 2>/dev/null || umount -lR "$dir/dev" 2>/dev/null || true
    umount "$dir/proc" 2>/dev/null || umount -l "$dir/proc" 2>/dev/null || true
}

main() {
    [[ $# -ge 1 ]] || die "usage: tools/debian-root.sh build|fresh|enter|mirror ..."
    local verb=$1
    shift
    [[ "$verb" == mirror || "$(id -u)" -eq 0 ]] || die "run it as root"
    case "$verb" in
        build) [[ $# -eq 2 ]] || die "usage: build SUITE ARCH"; build "$@" ;;
        fresh) [[ $# -eq 3 ]] || die "usage: fresh SUITE ARCH DIR"; fresh "$@" ;;
        enter) [[ $# -ge 2 ]] || die "usage: enter DIR COMMAND..."; enter "$@" ;;
        mirror) mirror ;;
        *) die "unknown verb $verb (build, fresh, enter, mirror)" ;;
    esac
}

if [[ "${BASH_SOURCE[0]}" == "$0" ]]; then
    main "$@"
fi
