"""The Pi installation files: the install script and its lock files, the systemd unit, the
laptop udev rule.

The script only ever runs here with --dry-run, or sourced so that single steps can be
tried on temporary folders, with fake `apt-cache`, `systemctl`, `id` and `getent` where a
step asks the system; nothing touches this machine.
"""

from __future__ import annotations

import base64
import hashlib
import platform
import re
import shutil
import subprocess
import sys
import tomllib
import zipfile
from pathlib import Path
from xml.etree import ElementTree

import pytest

HARDWARE = Path(__file__).resolve().parent.parent / "hardware"
SCRIPT = HARDWARE / "install-pi.sh"
UNIT = HARDWARE / "spielleiter.service"
RULES = HARDWARE / "99-spielleiter.rules"
LGPIO_LOCK = HARDWARE / "requirements-pi-lgpio.txt"
PINS = tomllib.loads((HARDWARE / "pins.toml").read_text())
SYSTEM_PATH = "/usr/bin:/bin:/usr/sbin:/sbin"

# What `apt-cache policy python3-lgpio` answers: Raspberry Pi OS's archive has it; Debian's
# knows no such package (no output), or knows the name without a version to install.
APT_POLICY = {
    "raspberry-pi-os": "python3-lgpio:\n  Installed: (none)\n  Candidate: 0.2.2-1~rpt1\n",
    "debian": "",
    "debian-name-only": "python3-lgpio:\n  Installed: (none)\n  Candidate: (none)\n",
}


def run_script(*args: str, timeout: float = 20) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        ["bash", str(SCRIPT), *args],
        capture_output=True,
        text=True,
        timeout=timeout,
        env={"PATH": SYSTEM_PATH, "PYTHON": sys.executable},
    )


def source_script(
    commands: str, *args: str, fakes: Path | None = None, timeout: float = 20
) -> subprocess.CompletedProcess[str]:
    """Source the script (defining its steps without running them) and run ``commands``,
    with the fake programs in ``fakes`` first on the PATH."""
    path = f"{fakes}:{SYSTEM_PATH}" if fakes else SYSTEM_PATH
    return subprocess.run(
        ["bash", "-c", f'source "$1"; shift; {commands}', "bash", str(SCRIPT), *args],
        capture_output=True,
        text=True,
        timeout=timeout,
        env={"PATH": path, "PYTHON": sys.executable},
    )


def fake_programs(folder: Path, **bodies: str) -> Path:
    """A folder of fake programs (``apt_cache`` is apt-cache), each a bash script."""
    folder.mkdir(parents=True, exist_ok=True)
    for name, body in bodies.items():
        program = folder / name.replace("_", "-")
        program.write_text(f"#!/bin/bash\n{body}\n")
        program.chmod(0o755)
    return folder


def fake_apt_cache(folder: Path, archive: str) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "policy.txt").write_text(APT_POLICY[archive])
    return fake_programs(folder, apt_cache=f'[[ "$1" == policy ]] && cat "{folder}/policy.txt"')


def dry_run_in(
    tmp: Path,
    archive: str = "raspberry-pi-os",
    machine: str | None = None,
    systemd: bool = True,
    before: str = "",
    args: tuple[str, ...] = (),
) -> subprocess.CompletedProcess[str]:
    """The whole script as a dry run: the archive as given, Python as ``machine`` says
    ("3.13 armv7l"), systemd running or not."""
    boot = tmp / "boot"
    boot.mkdir()
    (boot / "config.txt").write_text("dtparam=audio=on\n")
    systemd_dir = tmp / "run-systemd-system"
    if systemd:
        systemd_dir.mkdir()
    steps = [before, f'SYSTEMD_RUN_DIR="{systemd_dir}"']
    if machine:
        steps.append(f'python_machine() {{ echo "{machine}"; }}')
    steps.append('main --dry-run --boot-dir "$@"')
    result = source_script(
        "; ".join(s for s in steps if s),
        str(boot),
        *args,
        fakes=fake_apt_cache(tmp / "bin", archive),
    )
    assert (boot / "config.txt").read_text() == "dtparam=audio=on\n"
    assert sorted(p.name for p in boot.iterdir()) == ["config.txt"]
    return result


@pytest.fixture(scope="module")
def dry_run(tmp_path_factory: pytest.TempPathFactory) -> str:
    """A dry run on Raspberry Pi OS with systemd running: the box as the docs describe it."""
    result = dry_run_in(tmp_path_factory.mktemp("pi-os"))
    assert result.returncode == 0, result.stderr
    return result.stdout


def commands(output: str) -> list[str]:
    """The commands a run printed (the lines starting with "+ ")."""
    return [line for line in output.splitlines() if line.startswith("+ ")]


def parse_unit(text: str) -> dict[str, dict[str, list[str]]]:
    """A systemd unit as section -> key -> values (keys may repeat)."""
    sections: dict[str, dict[str, list[str]]] = {}
    current: dict[str, list[str]] | None = None
    for line in text.splitlines():
        line = line.strip()
        if not line or line.startswith(("#", ";")):
            continue
        if line.startswith("[") and line.endswith("]"):
            current = sections.setdefault(line[1:-1], {})
            continue
        assert current is not None, f"key outside a section: {line}"
        key, sep, value = line.partition("=")
        assert sep, f"not a key=value line: {line}"
        current.setdefault(key.strip(), []).append(value.strip())
    return sections


def script_constant(name: str) -> str:
    match = re.search(rf"^{name}=(.*)$", SCRIPT.read_text(), re.MULTILINE)
    assert match, name
    value = match.group(1).strip('"')
    return value.replace("$PREFIX", script_constant("PREFIX")) if "$PREFIX" in value else value


# The install script


def test_the_script_parses() -> None:
    subprocess.run(["bash", "-n", str(SCRIPT)], check=True, timeout=10)


def test_help_names_the_dry_run() -> None:
    result = run_script("--help")
    assert result.returncode == 0
    assert "--dry-run" in result.stdout


def test_an_unknown_option_is_refused() -> None:
    result = run_script("--frobnicate")
    assert result.returncode != 0
    assert "unknown option" in result.stderr


def test_a_dry_run_works_on_this_machine_whatever_it_has() -> None:
    """Not a Pi, maybe no python3-lgpio, maybe no systemd: the dry run shows it all."""
    result = run_script("--dry-run")
    assert result.returncode == 0, result.stderr
    assert "== systemd unit" in result.stdout


def test_dry_run_installs_the_apt_packages(dry_run: str) -> None:
    apt = next(line for line in commands(dry_run) if "apt-get install" in line)
    for package in ("python3-venv", "python3-lgpio", "python3-numpy", "python3-pil", "i2c-tools"):
        assert package in apt.split()
    # pip builds the wheel; setuptools and wheel let it do so without the network
    for package in ("python3-pip", "python3-setuptools", "python3-wheel"):
        assert package in apt.split()
    assert "requirements-pi-lgpio.txt" not in dry_run  # Raspberry Pi OS: lgpio from apt
    notes = [line for line in dry_run.splitlines() if line.startswith("note: ")]
    assert notes == ["note: this is not a Raspberry Pi"]


def test_dry_run_installs_the_speech_engine_and_its_player_from_apt(dry_run: str) -> None:
    """docs/speech.md: eSpeak NG (its German voice comes with it) and ALSA's aplay."""
    apt = next(line for line in commands(dry_run) if "apt-get install" in line)
    assert {"espeak-ng", "alsa-utils"} <= set(apt.split())


def test_dry_run_makes_a_venv_that_sees_the_system_lgpio(dry_run: str) -> None:
    assert "-m venv --system-site-packages /opt/spielleiter/venv" in dry_run


def test_dry_run_builds_the_wheel_as_the_user_and_installs_only_hashed_files(dry_run) -> None:
    """Root never builds or installs the user-writable checkout itself."""
    pip_lines = [line for line in commands(dry_run) if " -m pip " in line]
    build = next(line for line in pip_lines if " pip wheel " in line)
    assert build.startswith("+ runuser -u ") and "--no-deps" in build
    installs = [line for line in pip_lines if " pip install " in line]
    assert len(installs) == 2
    for line in installs:
        assert line.startswith("+ /opt/spielleiter/venv/bin/python -m pip install")
        assert "--require-hashes" in line and "--no-deps" in line
        assert str(SCRIPT.parent.parent) + " " not in line + " " and "[pi]" not in line
    assert "requirements-pi.txt" in installs[0]
    wheel = r"spielleiter @ file:///opt/spielleiter/wheels/\S+\.whl --hash=sha256:"
    assert re.search(wheel, dry_run)
    assert "pip check" in dry_run
    assert "numpy:numpy:1.24" in dry_run and "lgpio:lgpio:0.2" in dry_run


def test_the_wheel_is_built_offline_from_a_copy_without_earlier_build_output(dry_run) -> None:
    """apt's setuptools and wheel, no build isolation (which would fetch setuptools), and
    a copy of the checkout without build/, so no file of an earlier build gets in."""
    lines = commands(dry_run)
    build = next(line for line in lines if " pip wheel " in line)
    assert "--no-build-isolation" in build.split() and "PYTHONNOUSERSITE=1" in build.split()
    source = build.split()[-1]
    assert source.endswith("/source") and source != str(SCRIPT.parent.parent)
    copy = next(line for line in lines if " tar " in line and " -cf " in line)
    assert copy.startswith("+ runuser -u ") and f"-C {SCRIPT.parent.parent} " in copy
    for excluded in (
        "--exclude=./.git",
        "--exclude=./.venv",
        "--exclude=./build",
        "--exclude=./dist",
    ):
        assert excluded in copy.split()
    assert "'--exclude=*.egg-info'" in copy.split()
    assert lines.index(copy) < lines.index(build)


def test_a_wheel_from_the_laptop_is_installed_without_building(tmp_path: Path) -> None:
    result = dry_run_in(tmp_path, args=("--wheel", "dist/spielleiter-0.1.0-py3-none-any.whl"))
    assert result.returncode == 0, result.stderr
    lines = commands(result.stdout)
    assert (
        "+ install -m 0644 dist/spielleiter-0.1.0-py3-none-any.whl /opt/spielleiter/wheels/"
        in lines
    )
    assert not any("pip wheel" in line or "runuser" in line for line in lines)
    assert "file:///opt/spielleiter/wheels/spielleiter-0.1.0-py3-none-any.whl" in result.stdout


def test_a_wheel_that_is_not_the_programs_is_refused() -> None:
    result = run_script("--dry-run", "--wheel", "numpy-2.0-cp311-cp311-linux_aarch64.whl")
    assert result.returncode != 0
    assert "spielleiter-VERSION-py3-none-any.whl" in result.stderr
    assert len(result.stderr.splitlines()) == 1


def test_the_lock_file_pins_every_pure_python_dependency_by_hash() -> None:
    lock = (HARDWARE / "requirements-pi.txt").read_text()
    pinned_line = r"^([A-Za-z0-9_.-]+)==(\S+) \\\n\s+--hash=sha256:([0-9a-f]{64})$"
    entries = re.findall(pinned_line, lock, re.M)
    pinned = {name.lower() for name, _, _ in entries}
    requirements = [line for line in lock.splitlines() if line and not line.startswith((" ", "#"))]
    assert len(requirements) == len(entries)  # every requirement has its hash
    project = tomllib.loads((HARDWARE.parent / "pyproject.toml").read_text())
    wanted = {re.split(r"[<>=\[ ]", d)[0].lower() for d in project["project"]["dependencies"]}
    from_apt = {"numpy"}
    assert wanted - from_apt <= pinned
    assert {"luma.core", "smbus2", "cbor2", "colorzero"} <= pinned  # what those need


# lgpio: from apt where the archive has it, else from PyPI by hash, else what to do


def lgpio_lock_entries() -> dict[str, list[str]]:
    """The lgpio lock file as distribution -> its hashes."""
    entries: dict[str, list[str]] = {}
    name = ""
    for line in LGPIO_LOCK.read_text().splitlines():
        if not line or line.startswith("#"):
            continue
        if not line.startswith(" "):
            name = re.split(r"[=; ]", line)[0].lower().replace("_", "-")
            entries[name] = []
        entries[name] += re.findall(r"--hash=sha256:([0-9a-f]{64})", line)
    return entries


def lgpio_lock_wheels() -> list[str]:
    return re.findall(r"^# wheel: (\S+\.whl)$", LGPIO_LOCK.read_text(), re.M)


def test_the_lgpio_lock_file_has_one_hash_for_each_wheel_it_names() -> None:
    entries = lgpio_lock_entries()
    wheels = lgpio_lock_wheels()
    assert set(entries) == {"lgpio", "adafruit-lgpio"}
    for name, hashes in entries.items():
        named = [w for w in wheels if w.split("-")[0].replace("_", "-") == name]
        assert len(hashes) == len(named) == len(set(hashes)), name
    assert all(w.split("-")[1] == "0.2.2.0" for w in wheels)
    lock = LGPIO_LOCK.read_text()
    assert re.search(r'^lgpio==0\.2\.2\.0 ; python_version < "3\.13" \\$', lock, re.M)
    assert re.search(r'^adafruit-lgpio==0\.2\.2\.0 ; python_version >= "3\.13" \\$', lock, re.M)


def test_the_lgpio_wheels_cover_bookworm_on_both_architectures() -> None:
    """Debian bookworm (Python 3.11) on arm64 and armhf; trixie (3.13) on arm64."""
    wheels = lgpio_lock_wheels()
    for python, arch in (("cp311", "aarch64"), ("cp311", "armv7l"), ("cp313", "aarch64")):
        assert any(f"-{python}-" in w and w.endswith(f"_{arch}.whl") for w in wheels)


@pytest.mark.parametrize(
    ("machine", "wheel"),
    [
        ("3.11 aarch64", "lgpio-0.2.2.0-cp311-cp311-manylinux_2_34_aarch64.whl"),
        ("3.11 armv7l", "lgpio-0.2.2.0-cp311-cp311-linux_armv7l.whl"),
        ("3.12 armv7l", "lgpio-0.2.2.0-cp312-cp312-linux_armv7l.whl"),
        (
            "3.13 aarch64",
            "adafruit_lgpio-0.2.2.0-cp313-cp313-manylinux_2_17_aarch64.manylinux2014_aarch64.whl",
        ),
        ("3.13 armv7l", ""),
        ("3.11 x86_64", ""),
        ("3.1 aarch64", ""),
    ],
)
def test_the_lgpio_wheel_for_each_machine(machine: str, wheel: str) -> None:
    result = source_script(f"lgpio_wheel_for {machine}")
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == wheel


def test_python_machine_names_the_python_version_and_architecture() -> None:
    result = source_script("python_machine")
    version, machine = result.stdout.split()
    assert version == f"{sys.version_info[0]}.{sys.version_info[1]}"
    assert machine == platform.machine()


@pytest.mark.parametrize(
    ("archive", "has"), [("raspberry-pi-os", True), ("debian", False), ("debian-name-only", False)]
)
def test_apt_has_a_package_only_with_a_candidate_version(
    tmp_path: Path, archive: str, has: bool
) -> None:
    result = source_script("apt_has python3-lgpio", fakes=fake_apt_cache(tmp_path, archive))
    assert (result.returncode == 0) is has


@pytest.mark.parametrize("archive", ["debian", "debian-name-only"])
@pytest.mark.parametrize(
    ("machine", "wheel"),
    [
        ("3.11 aarch64", "lgpio-0.2.2.0-cp311-cp311-manylinux_2_34_aarch64.whl"),
        ("3.11 armv7l", "lgpio-0.2.2.0-cp311-cp311-linux_armv7l.whl"),
        (
            "3.13 aarch64",
            "adafruit_lgpio-0.2.2.0-cp313-cp313-manylinux_2_17_aarch64.manylinux2014_aarch64.whl",
        ),
    ],
)
def test_without_python3_lgpio_in_the_archive_lgpio_comes_from_pypi_by_hash(
    tmp_path: Path, archive: str, machine: str, wheel: str
) -> None:
    result = dry_run_in(tmp_path, archive, machine)
    assert result.returncode == 0, result.stderr
    notes = [line for line in result.stdout.splitlines() if "python3-lgpio" in line]
    assert len(notes) == 1 and notes[0].startswith("note: ")
    assert wheel in notes[0] and "PyPI" in notes[0] and str(LGPIO_LOCK) in notes[0]
    lines = commands(result.stdout)
    apt = next(line for line in lines if "apt-get install" in line)
    assert "python3-lgpio" not in apt.split() and "python3-pip" in apt.split()
    lgpio = next(line for line in lines if str(LGPIO_LOCK) in line)
    assert lgpio.startswith("+ /opt/spielleiter/venv/bin/python -m pip install ")
    for option in ("--require-hashes", "--only-binary=:all:", "--no-deps"):
        assert option in lgpio.split()
    out = result.stdout.splitlines()
    venv = next(i for i, line in enumerate(out) if " -m venv " in line)
    check = next(i for i, line in enumerate(out) if "numpy:numpy:1.24" in line)
    assert venv < out.index(lgpio) < check
    assert "would stop" not in result.stdout


def test_without_any_lgpio_the_dry_run_says_where_the_install_would_stop(tmp_path: Path) -> None:
    result = dry_run_in(tmp_path, "debian", "3.13 armv7l")
    assert result.returncode == 0, result.stderr
    stop = [line for line in result.stdout.splitlines() if "would stop here" in line]
    assert len(stop) == 1
    assert "Python 3.13 on armv7l" in stop[0] and "Raspberry Pi OS" in stop[0]
    assert str(LGPIO_LOCK) not in result.stdout
    assert "the install itself would stop" in result.stdout.splitlines()[-1]


def test_without_any_lgpio_the_install_stops_saying_what_to_do(tmp_path: Path) -> None:
    """Before anything is installed, in one line: the reason and the two ways out."""
    steps = (
        f'DRY_RUN=0; VENV="{tmp_path}/venv"; python_machine() {{ echo "3.13 armv7l"; }}; '
        "choose_lgpio; echo went on"
    )
    result = source_script(steps, fakes=fake_apt_cache(tmp_path / "bin", "debian"))
    assert result.returncode != 0 and "went on" not in result.stdout
    [message] = result.stderr.splitlines()
    assert "no lgpio for Python 3.13 on armv7l" in message
    assert "no python3-lgpio" in message and "PyPI no wheel" in message
    assert "use Raspberry Pi OS" in message
    assert "swig python3-dev gcc" in message and "lgpio==0.2.2.0" in message


def test_a_lgpio_a_person_built_into_the_venv_is_kept(tmp_path: Path) -> None:
    venv_python = fake_programs(tmp_path / "venv" / "bin", python="exit 0") / "python"
    steps = (
        f'VENV="{tmp_path}/venv"; python_machine() {{ echo "3.13 armv7l"; }}; '
        'choose_lgpio; echo "from: $LGPIO_FROM"'
    )
    result = source_script(steps, fakes=fake_apt_cache(tmp_path / "bin", "debian"))
    assert result.returncode == 0, result.stderr
    assert venv_python.exists()
    assert result.stdout.splitlines()[-1] == "from: venv"
    assert "is kept" in result.stdout


def test_the_module_check_takes_a_module_from_another_distribution(tmp_path: Path) -> None:
    """lgpio from PyPI may be adafruit-lgpio: the module's own distribution then counts."""
    fake_programs(tmp_path / "venv" / "bin", python=f'exec "{sys.executable}" "$@"')
    check = f'DRY_RUN=0; VENV="{tmp_path}/venv"; APT_MODULES="$1"; check_apt_modules'
    found = source_script(check, "serial:serial:3.0 no-such-dist:serial:3.0 numpy:numpy:1.0")
    assert found.returncode == 0, found.stderr
    too_old = source_script(check, "no-such-dist:serial:99")
    assert too_old.returncode != 0
    assert "is older than 99" in too_old.stderr
    missing = source_script(check, "lgpio:no_such_module:0.2")
    assert missing.returncode != 0 and "lgpio: missing" in missing.stderr


# The service user, the data and running it again


def test_dry_run_creates_the_service_user_and_data_dir(dry_run: str) -> None:
    assert re.search(r"user(add|mod) .*--groups gpio,i2c,dialout,audio .*spielleiter", dry_run)
    assert "install -d -o spielleiter -g spielleiter -m 0750 /var/lib/spielleiter" in dry_run


def test_running_it_again_keeps_the_user_and_the_data(tmp_path: Path) -> None:
    """Over an installed box: the user and groups exist, the data folder is left as it is
    (only its owner and mode asserted), the venv made over the old one in place, and the
    program alone reinstalled."""
    fake_programs(
        tmp_path / "bin",
        id='[[ "$1" == -u && "$2" == spielleiter ]] && echo 998',
        getent='[[ "$1" == group ]] && echo "$2:x:997:"',
    )
    result = dry_run_in(tmp_path)
    assert result.returncode == 0, result.stderr
    lines = commands(result.stdout)
    assert not any(word in line for line in lines for word in ("useradd", "groupadd"))
    assert "+ usermod --append --groups gpio,i2c,dialout,audio spielleiter" in lines
    data = [line for line in lines if "/var/lib/spielleiter" in line]
    assert data == ["+ install -d -o spielleiter -g spielleiter -m 0750 /var/lib/spielleiter"]
    venv = next(line for line in lines if " -m venv " in line)
    assert "--clear" not in venv and "--upgrade-deps" not in venv
    installs = [line for line in lines if " pip install " in line]
    assert ["--force-reinstall" in line for line in installs] == [False, True]
    assert not any(
        line.startswith(("+ rm ", "+ runuser -u YOUR-USER -- rm -rf -- /v")) for line in lines
    )


def test_the_script_never_removes_the_data() -> None:
    script = SCRIPT.read_text()
    for line in script.splitlines():
        if re.search(r"\brm\b", line) and not line.lstrip().startswith("#"):
            assert "DATA_DIR" not in line and "/var/lib" not in line and "PREFIX" not in line


def make_wheel(folder: Path, files: dict[str, str]) -> Path:
    """A minimal spielleiter-0.1.0 wheel with these files (path -> text)."""
    info = "spielleiter-0.1.0.dist-info"
    files = {
        **files,
        f"{info}/METADATA": "Metadata-Version: 2.1\nName: spielleiter\nVersion: 0.1.0\n",
        f"{info}/WHEEL": "Wheel-Version: 1.0\nGenerator: test\nRoot-Is-Purelib: true\n"
        "Tag: py3-none-any\n",
    }
    record = []
    for name, text in files.items():
        digest = hashlib.sha256(text.encode()).digest()
        encoded = base64.urlsafe_b64encode(digest).rstrip(b"=").decode()
        record.append(f"{name},sha256={encoded},{len(text.encode())}")
    record.append(f"{info}/RECORD,,")
    folder.mkdir(parents=True)
    wheel = folder / "spielleiter-0.1.0-py3-none-any.whl"
    with zipfile.ZipFile(wheel, "w") as archive:
        for name, text in files.items():
            archive.writestr(name, text)
        archive.writestr(f"{info}/RECORD", "\n".join(record) + "\n")
    return wheel


def test_an_update_replaces_the_program_in_the_venv(tmp_path: Path) -> None:
    """The same version number, new content: --force-reinstall puts the new wheel in and
    takes the old one's files out; nothing else in the venv is touched."""
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True, timeout=120)
    old = make_wheel(
        tmp_path / "old", {"spielleiter/__init__.py": "BUILD = 'old'\n", "spielleiter/gone.py": ""}
    )
    new = make_wheel(tmp_path / "new", {"spielleiter/__init__.py": "BUILD = 'new'\n"})
    install = f'DRY_RUN=0; VENV="{venv}"; WHEEL_DIR="{tmp_path}/wheels"; WHEEL_FILE="$1"; '
    install += "install_wheel"
    ask = [str(venv / "bin" / "python"), "-c", "import spielleiter; print(spielleiter.BUILD)"]
    for wheel, build in ((old, "old"), (new, "new")):
        result = source_script(install, str(wheel), timeout=120)
        assert result.returncode == 0, result.stdout + result.stderr
        asked = subprocess.run(ask, capture_output=True, text=True, timeout=30, cwd=tmp_path)
        assert asked.stdout.strip() == build, asked.stderr
    site = next(venv.glob("lib/python3*/site-packages"))
    assert not (site / "spielleiter" / "gone.py").exists()
    requirement = (tmp_path / "wheels" / "spielleiter.requirements.txt").read_text()
    digest = hashlib.sha256(new.read_bytes()).hexdigest()
    assert requirement == f"spielleiter @ file://{new} --hash=sha256:{digest}\n"


# Boot files, the gadget port, the unit


@pytest.mark.parametrize(
    ("content", "said"),
    [
        (None, "No such file or directory"),
        ("<pins/>\n", "not TOML: Invalid statement (at line 1, column 1)"),
        ("[usb]\nproduct = 'Spielleiter'\n", "[i2c] baudrate is missing"),
        ('[i2c]\nbaudrate = "x"\n[usb]\nproduct = "S"\n', "[i2c] baudrate = 'x': want a whole"),
    ],
)
def test_a_broken_pins_toml_stops_the_script_in_one_line(
    tmp_path: Path, content: str | None, said: str
) -> None:
    pins = tmp_path / "pins.toml"
    if content is not None:
        pins.write_text(content)
    result = source_script(f'PINS_FILE="{pins}"; read_pins; echo read')
    assert result.returncode == 1 and "read" not in result.stdout
    assert result.stderr.startswith(f"install-pi.sh: {pins}: {said}")
    assert result.stderr.endswith("; fix it, then run the script again\n")
    assert "Traceback" not in result.stderr and len(result.stderr.splitlines()) == 1


def test_dry_run_checks_the_pin_map_before_the_boot_files_and_the_service(dry_run: str) -> None:
    """The installed program reads its own pins.toml (the wheel's): it checks it before
    the box is restarted on it."""
    lines = commands(dry_run)
    check = lines.index(f"+ {script_constant('VENV')}/bin/spielleiter --check-pins")
    assert any(" pip install " in line for line in lines[:check])
    assert dry_run.index("--check-pins") < dry_run.index("== boot configuration")
    assert not any("systemctl" in line for line in lines[:check])


def test_the_pin_check_passes_on_this_checkout_and_stops_the_install_when_it_fails(
    tmp_path: Path,
) -> None:
    good = source_script(f'DRY_RUN=0; VENV="{HARDWARE.parent / ".venv"}"; check_pin_map; echo on')
    assert good.returncode == 0, good.stderr
    assert "pins.toml: sound" in good.stdout and good.stdout.endswith("on\n")
    fake = fake_programs(
        tmp_path / "venv" / "bin",
        spielleiter='echo "spielleiter: pins.toml is wrong: [buttons] K5: unknown key" >&2; exit 2',
    )
    bad = source_script(f'DRY_RUN=0; VENV="{fake.parent}"; check_pin_map; echo on')
    assert bad.returncode == 1 and not bad.stdout.endswith("on\n")
    assert "[buttons] K5: unknown key" in bad.stderr
    assert "fix hardware/pins.toml and run the script again" in bad.stderr


def test_dry_run_edits_config_txt(dry_run: str) -> None:
    baudrate = PINS["i2c"]["baudrate"]
    assert f"dtparam=i2c_arm=on,i2c_arm_baudrate={baudrate}" in dry_run
    assert "dtoverlay=dwc2" in dry_run
    assert "config.txt" in dry_run


def test_dry_run_sets_up_gadget_serial_with_the_usb_identity(dry_run: str) -> None:
    usb = PINS["usb"]
    assert "/etc/modules-load.d/spielleiter.conf" in dry_run
    assert re.search(r"^\s+g_serial$", dry_run, re.MULTILINE)
    assert re.search(r"^\s+i2c-dev$", dry_run, re.MULTILINE)
    options = next(line for line in dry_run.splitlines() if "options g_serial" in line)
    assert f"idVendor=0x{usb['vendor_id']:04x}" in options
    assert f"idProduct=0x{usb['product_id']:04x}" in options
    assert f"iProduct={usb['product']}" in options


def test_dry_run_masks_the_login_prompt_on_the_gadget_port(dry_run: str) -> None:
    port = Path(PINS["serial"]["port"]).name
    assert f"systemctl mask serial-getty@{port}.service" in dry_run


def test_dry_run_installs_and_enables_the_unit(dry_run: str) -> None:
    lines = commands(dry_run)
    assert "+ install -m 0644 " + str(UNIT) + " /etc/systemd/system/spielleiter.service" in lines
    systemctl = [line for line in lines if line.startswith("+ systemctl ")]
    assert systemctl[-3:] == [
        "+ systemctl daemon-reload",
        "+ systemctl enable spielleiter.service",
        "+ systemctl try-restart spielleiter.service",
    ]


def test_without_a_running_systemd_the_dry_run_enables_the_unit_only(tmp_path: Path) -> None:
    result = dry_run_in(tmp_path, systemd=False)
    assert result.returncode == 0, result.stderr
    lines = commands(result.stdout)
    assert "+ systemctl enable spielleiter.service" in lines
    assert "+ systemctl mask serial-getty@ttyGS0.service" in lines
    assert not any("daemon-reload" in line or "try-restart" in line for line in lines)
    [note] = [line for line in result.stdout.splitlines() if "systemd is not running" in line]
    assert note.startswith("note: ") and "next boot" in note


@pytest.mark.parametrize("systemd", [True, False])
def test_the_unit_is_enabled_with_or_without_a_running_systemd(
    tmp_path: Path, systemd: bool
) -> None:
    """A fake systemctl that, like the real one, can reload and restart only where systemd
    runs; enable and mask work on the files alone."""
    log, run = tmp_path / "systemctl.log", tmp_path / "run"
    fakes = fake_programs(
        tmp_path / "bin",
        systemctl=f'echo "$*" >>"{log}"\n'
        f'if [[ ! -d "{run}" && ( "$1" == daemon-reload || "$1" == try-restart ) ]]; then\n'
        '    echo "System has not been booted with systemd as init system (PID 1)." >&2; exit 1\n'
        "fi",
    )
    if systemd:
        run.mkdir()
    steps = (
        f'DRY_RUN=0; SYSTEMD_RUN_DIR="{run}"; UNIT_PATH="{tmp_path}/unit"; '
        f'MODULES_LOAD_FILE="{tmp_path}/modules.conf"; MODPROBE_FILE="{tmp_path}/modprobe.conf"; '
        "read_pins; configure_gadget; install_service"
    )
    result = source_script(steps, fakes=fakes)
    assert result.returncode == 0, result.stderr
    assert (tmp_path / "unit").read_text() == UNIT.read_text()
    calls = log.read_text().splitlines()
    if systemd:
        assert calls == [
            "mask serial-getty@ttyGS0.service",
            "daemon-reload",
            "enable spielleiter.service",
            "try-restart spielleiter.service",
        ]
    else:
        assert calls == ["mask serial-getty@ttyGS0.service", "enable spielleiter.service"]


def test_config_txt_edit_keeps_other_lines_and_is_idempotent(tmp_path: Path) -> None:
    original = "# Pi settings\ndtparam=audio=on\n[cm4]\notg_mode=1\n[all]\n"
    (tmp_path / "config.txt").write_text(original)
    steps = 'read_pins; BOOT_DIR="$1"; find_boot_dir; configure_boot'
    for _ in range(2):
        result = source_script(steps, str(tmp_path))
        assert result.returncode == 0, result.stderr
    edited = (tmp_path / "config.txt").read_text()
    assert edited.startswith(original)
    assert edited.count("dtoverlay=dwc2") == 1
    assert edited.count("i2c_arm_baudrate=") == 1
    assert (tmp_path / "config.txt.spielleiter.bak").read_text() == original


def test_boot_dir_is_bookworms_firmware_partition_by_default() -> None:
    result = source_script('BOOT_DIR=""; find_boot_dir; echo "$CONFIG_TXT"')
    assert result.stdout.strip() in ("/boot/firmware/config.txt", "/boot/config.txt")


# The wheel builds with the setuptools a Pi has


def test_the_wheel_builds_with_bookworms_setuptools() -> None:
    """setuptools before 77 (Bookworm's 66, which builds the wheel on the Pi) refuses
    `license = "MIT"`, and newer ones deprecate the table form: the licence is the file
    LICENSE, which every setuptools puts into the wheel."""
    project = tomllib.loads((HARDWARE.parent / "pyproject.toml").read_text())
    assert "license" not in project["project"]
    assert (HARDWARE.parent / "LICENSE").read_text().startswith("MIT License\n")
    [setuptools] = [r for r in project["build-system"]["requires"] if r.startswith("setuptools")]
    lowest = re.fullmatch(r"setuptools>=(\d+)(\.\d+)*", setuptools)
    assert lowest and int(lowest.group(1)) <= 66


# The systemd unit


def test_unit_has_the_keys_the_box_needs() -> None:
    unit = parse_unit(UNIT.read_text())
    service = unit["Service"]
    assert service["Type"] == ["notify"]
    assert service["NotifyAccess"] == ["main"]
    assert service["Restart"] == ["always"]
    assert float(service["WatchdogSec"][0]) > 0
    assert float(service["RestartSec"][0]) > 0
    assert service["User"] == ["spielleiter"]
    assert set(service["SupplementaryGroups"][0].split()) == {"gpio", "i2c", "dialout", "audio"}
    assert unit["Install"]["WantedBy"] == ["multi-user.target"]


def test_unit_confines_the_service() -> None:
    """DESIGN.md "Trust": own user, no network, read-only system, only its devices, no
    privileges; no restart loop on the one fault the panel cannot show."""
    service = parse_unit(UNIT.read_text())["Service"]
    one = {key: values[-1] for key, values in service.items()}
    assert one["ProtectSystem"] == "strict"
    assert one["ReadWritePaths"].split() == [script_constant("DATA_DIR")]
    assert one["PrivateNetwork"] == "yes"
    assert one["IPAddressDeny"] == "any" and one["RestrictAddressFamilies"] == "AF_UNIX"
    assert one["DevicePolicy"] == "closed"
    allowed = {line.split()[0] for line in service["DeviceAllow"]}
    assert allowed == {"char-i2c", "char-gpiochip", "char-ttyGS", "char-ttyAMA", "char-ttyS",
                       "char-ttyUSB", "char-ttyACM", "char-alsa"}  # fmt: skip
    assert not any(line.split()[0].startswith("/") for line in service["DeviceAllow"])
    assert "PrivateDevices" not in service and "PrivateUsers" not in service
    assert service["CapabilityBoundingSet"] == [""] and service["AmbientCapabilities"] == [""]
    assert service["SystemCallFilter"][0] == "@system-service"
    assert one["NoNewPrivileges"] == "yes" and one["UMask"] == "0077"
    assert one["RestrictNamespaces"] == "yes" and one["ProtectHome"] == "yes"
    assert one["User"] != "root"
    from spielleiter.cli import EXIT_NO_DISPLAY

    assert one["RestartPreventExitStatus"].split() == [str(EXIT_NO_DISPLAY)]


def test_unit_starts_the_program_the_script_installs() -> None:
    exec_start = parse_unit(UNIT.read_text())["Service"]["ExecStart"][0].split()
    venv, data_dir = script_constant("VENV"), script_constant("DATA_DIR")
    assert exec_start == [f"{venv}/bin/spielleiter", "--data", data_dir]
    assert script_constant("SERVICE_USER") == "spielleiter"


@pytest.mark.skipif(shutil.which("systemd-analyze") is None, reason="no systemd-analyze")
def test_unit_passes_systemd_analyze_verify(tmp_path: Path) -> None:
    # verify insists that ExecStart exists; the venv exists only on the Pi.
    text = UNIT.read_text().replace("/opt/spielleiter/venv/bin/spielleiter", "/bin/true")
    unit = tmp_path / "spielleiter.service"
    unit.write_text(text)
    result = subprocess.run(
        ["systemd-analyze", "verify", "--man=no", str(unit)],
        capture_output=True,
        text=True,
        timeout=30,
    )
    assert result.returncode == 0, result.stderr
    assert str(unit) not in result.stderr, result.stderr


@pytest.mark.skipif(shutil.which("systemd-analyze") is None, reason="no systemd-analyze")
def test_systemd_rates_the_unit_safe(tmp_path: Path) -> None:
    """`systemd-analyze security` on the unit file (docs/install-pi.md: aim at most 2.5)."""
    text = UNIT.read_text().replace("/opt/spielleiter/venv/bin/spielleiter", "/bin/true")
    unit = tmp_path / "spielleiter.service"
    unit.write_text(text)
    result = subprocess.run(
        ["systemd-analyze", "security", "--offline=true", "--no-pager", str(unit)],
        capture_output=True,
        text=True,
        timeout=60,
    )
    found = re.search(r"Overall exposure level for \S+: ([\d.]+)", result.stdout)
    if found is None:
        pytest.skip(f"this systemd-analyze cannot rate a unit file: {result.stderr[:200]}")
    assert float(found.group(1)) <= 2.5, result.stdout[-2000:]


# The laptop udev rule


def rule_lines() -> list[str]:
    lines = RULES.read_text().splitlines()
    return [line for line in lines if line.strip() and not line.startswith("#")]


def test_udev_rule_matches_the_usb_identity_in_pins_toml() -> None:
    usb = PINS["usb"]
    for line in rule_lines():
        assert f'ATTRS{{idVendor}}=="{usb["vendor_id"]:04x}"' in line
        assert f'ATTRS{{idProduct}}=="{usb["product_id"]:04x}"' in line
        assert f'ATTRS{{product}}=="{usb["product"]}"' in line


def test_udev_rule_names_the_port_and_keeps_modemmanager_away() -> None:
    rules = " ".join(rule_lines())
    assert 'SYMLINK+="spielleiter"' in rules
    assert 'ENV{ID_MM_DEVICE_IGNORE}="1"' in rules


# The wiring drawings agree with the pin map

HEADER_PIN_OF_GPIO = {2: 3, 3: 5, 5: 29, 6: 31, 13: 33, 19: 35}


def test_wiring_table_and_diagram_show_each_button_on_its_pin() -> None:
    table = (HARDWARE / "wiring.md").read_text()
    svg = (HARDWARE / "wiring.svg").read_text()
    for key, gpio in PINS["buttons"].items():
        if key == "timing":
            continue
        pin = HEADER_PIN_OF_GPIO[gpio]
        assert re.search(rf"^\| {key} .*\| {pin} +\| {gpio} +\|$", table, re.MULTILINE), key
        assert f"{pin} GPIO{gpio} {key}" in svg, key


def test_wiring_table_and_diagram_show_the_buzzer_on_its_pin() -> None:
    gpio = PINS["buzzer"]["pin"]
    table = (HARDWARE / "wiring.md").read_text()
    svg = (HARDWARE / "wiring.svg").read_text()
    assert re.search(rf"^\| \+ \(piezo\) +\| 12 +\| {gpio} +\|$", table, re.MULTILINE)
    assert f"12 GPIO{gpio} BZ" in svg and "14 GND BZ" in svg


def test_wiring_shows_the_i2c_addresses() -> None:
    svg = (HARDWARE / "wiring.svg").read_text()
    table = (HARDWARE / "wiring.md").read_text()
    for part in ("display", "spinner"):
        address = f"0x{PINS[part]['address']:02X}"
        assert address in svg
        assert address in table


def test_the_header_pins_the_program_names_are_the_diagrams() -> None:
    """`spielleiter --check-pins` and the pin map's messages name each GPIO's header pin."""
    from spielleiter.hal.pins import HEADER_PINS

    svg = (HARDWARE / "wiring.svg").read_text()
    drawn = {int(gpio): int(pin) for pin, gpio in re.findall(r">\s*(\d+) GPIO(\d+)\b", svg)}
    drawn |= {0: 27, 1: 28}  # drawn as ID_SD and ID_SC
    assert "27 ID_SD" in svg and "28 ID_SC" in svg
    assert dict(enumerate(HEADER_PINS)) == drawn


def test_wiring_diagram_is_well_formed_svg() -> None:
    root = ElementTree.parse(HARDWARE / "wiring.svg").getroot()
    assert root.tag == "{http://www.w3.org/2000/svg}svg"
