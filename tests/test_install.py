"""The Pi installation files: the install script, the systemd unit, the laptop udev rule.

The script only ever runs here with --dry-run, or sourced so that single steps can be
tried on a temporary boot directory; nothing touches this machine.
"""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path
from xml.etree import ElementTree

import pytest

HARDWARE = Path(__file__).resolve().parent.parent / "hardware"
SCRIPT = HARDWARE / "install-pi.sh"
UNIT = HARDWARE / "spielleiter.service"
RULES = HARDWARE / "99-spielleiter.rules"
PINS = tomllib.loads((HARDWARE / "pins.toml").read_text())


def run_script(*args: str, timeout: float = 20) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        ["bash", str(SCRIPT), *args],
        capture_output=True,
        text=True,
        timeout=timeout,
        env={"PATH": "/usr/bin:/bin:/usr/sbin:/sbin", "PYTHON": sys.executable},
    )


def source_script(commands: str, *args: str) -> subprocess.CompletedProcess[str]:
    """Source the script (defining its steps without running them) and run ``commands``."""
    return subprocess.run(
        ["bash", "-c", f'source "$1"; shift; {commands}', "bash", str(SCRIPT), *args],
        capture_output=True,
        text=True,
        timeout=20,
        env={"PATH": "/usr/bin:/bin:/usr/sbin:/sbin", "PYTHON": sys.executable},
    )


@pytest.fixture(scope="module")
def dry_run(tmp_path_factory: pytest.TempPathFactory) -> str:
    boot = tmp_path_factory.mktemp("boot")
    (boot / "config.txt").write_text("dtparam=audio=on\n")
    result = run_script("--dry-run", "--boot-dir", str(boot))
    assert result.returncode == 0, result.stderr
    assert (boot / "config.txt").read_text() == "dtparam=audio=on\n"
    assert sorted(p.name for p in boot.iterdir()) == ["config.txt"]
    return result.stdout


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


def test_dry_run_installs_the_apt_packages(dry_run: str) -> None:
    apt = next(line for line in dry_run.splitlines() if "apt-get install" in line)
    for package in ("python3-venv", "python3-lgpio", "i2c-tools"):
        assert package in apt.split()


def test_dry_run_makes_a_venv_that_sees_the_system_lgpio(dry_run: str) -> None:
    assert "-m venv --system-site-packages /opt/spielleiter/venv" in dry_run


def test_dry_run_builds_the_wheel_as_the_user_and_installs_only_hashed_files(dry_run) -> None:
    """Root never builds or installs the user-writable checkout itself."""
    pip_lines = [line for line in dry_run.splitlines() if " -m pip " in line]
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


def test_the_lock_file_pins_every_pure_python_dependency_by_hash() -> None:
    lock = (HARDWARE / "requirements-pi.txt").read_text()
    pinned_line = r"^([A-Za-z0-9_.-]+)==(\S+) \\\n\s+--hash=sha256:([0-9a-f]{64})$"
    entries = re.findall(pinned_line, lock, re.M)
    pinned = {name.lower() for name, _, _ in entries}
    requirements = [
        line for line in lock.splitlines() if line and not line.startswith((" ", "#"))
    ]
    assert len(requirements) == len(entries)  # every requirement has its hash
    project = tomllib.loads((HARDWARE.parent / "pyproject.toml").read_text())
    wanted = {re.split(r"[<>=\[ ]", d)[0].lower() for d in project["project"]["dependencies"]}
    from_apt = {"numpy"}
    assert wanted - from_apt <= pinned
    assert {"luma.core", "smbus2", "cbor2", "colorzero"} <= pinned  # what those need


def test_dry_run_creates_the_service_user_and_data_dir(dry_run: str) -> None:
    assert re.search(r"user(add|mod) .*--groups gpio,i2c,dialout .*spielleiter", dry_run)
    assert "install -d -o spielleiter -g spielleiter -m 0750 /var/lib/spielleiter" in dry_run


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
    assert "/etc/systemd/system/spielleiter.service" in dry_run
    assert "systemctl daemon-reload" in dry_run
    assert "systemctl enable spielleiter.service" in dry_run


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
    assert set(service["SupplementaryGroups"][0].split()) == {"gpio", "i2c", "dialout"}
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
    assert allowed == {"char-i2c", "char-gpiochip", "char-ttyGS", "char-ttyAMA", "char-ttyS"}
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


def test_wiring_diagram_is_well_formed_svg() -> None:
    root = ElementTree.parse(HARDWARE / "wiring.svg").getroot()
    assert root.tag == "{http://www.w3.org/2000/svg}svg"
