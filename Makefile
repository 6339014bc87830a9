# Two commands for a newcomer: `make run` starts the box, `make test` passes the tests.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

TYPING := build/typing

# The floor: the oldest numpy and Pillow the box accepts, as Raspberry Pi OS Bookworm
# ships them, with the box's locked dependencies (hardware/requirements-pi.txt).
FLOOR := .venv-floor
FLOOR_STAMP := $(FLOOR)/.installed
FLOOR_PINS := numpy==1.24.2 Pillow==9.4.0

# The games', bots' and simulators' tests (the laptop tool's aside): run on the floor,
# on 32-bit, and (the rules and simulators) in the Pi roots.
GAMES := speedtombola besenbingo maskenball bungee engel_bengel
GAME_TESTS := $(filter-out %_host.py,$(sort $(wildcard $(GAMES:%=tests/test_%_*.py)))) \
	tests/test_games_contract.py tests/test_advice.py tests/test_take_back.py
PI_CHECK_TESTS := $(sort $(wildcard tests/test_*_rules.py tests/test_*_sim.py)) \
	tests/test_maskenball_tips.py

# make pi-check: Debian releases x architectures, as SUITE-ARCH (make -j2 runs two at once;
# trixie-arm64, the slowest under qemu, first, beside the other three in turn).
PI_ROOTS ?= trixie-arm64 bookworm-armhf bookworm-arm64 trixie-armhf
AS_ROOT := $(if $(filter 0,$(shell id -u)),,sudo)

.PHONY: run test lint walls types floor test-32bit pi-check bench golden messages clean

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install -q --upgrade pip
	$(BIN)/python -m pip install -q -e '.[dev]'
	touch $(STAMP)

run: $(STAMP)
	$(BIN)/spielleiter $(ARGS)

test: lint walls types
	$(BIN)/python -m pytest
	@command -v espeak-ng >/dev/null 2>&1 || echo "make test: no espeak-ng here, so the" \
	  "transcripts' audio was not rendered (tests/test_speech_audio.py; apt-get install espeak-ng)"
	$(MAKE) --no-print-directory floor

$(FLOOR_STAMP): pyproject.toml hardware/requirements-pi.txt
	$(PYTHON) -m venv $(FLOOR)
	$(FLOOR)/bin/python -m pip install -q $(FLOOR_PINS) 'pytest>=8' 'hypothesis>=6.100'
	$(FLOOR)/bin/python -m pip install -q --no-deps --require-hashes -r hardware/requirements-pi.txt
	$(FLOOR)/bin/python -m pip install -q --no-deps -e .
	touch $(FLOOR_STAMP)

# The games' tests on numpy 1.24 and Pillow 9.4: a call the floor lacks cannot land.
floor: $(FLOOR_STAMP)
	@$(FLOOR)/bin/python -c 'import numpy, PIL; print("floor: numpy", numpy.__version__, "Pillow", PIL.__version__)'
	$(FLOOR)/bin/python -m pytest -p no:cacheprovider $(GAME_TESTS)

# The games' tests with a 32-bit Python and numpy (np.intp = int32): a Debian bookworm
# i386 root, at full speed on x86-64 (needs root: debootstrap, chroot).
test-32bit: $(STAMP)
	$(AS_ROOT) tools/platform-check.sh i386 $(GAME_TESTS)

# The install a person does on a Pi, in Debian arm64 and armhf roots under qemu.
pi-check: $(PI_ROOTS:%=pi-check-%)

pi-check-%: $(STAMP)
	$(AS_ROOT) tools/platform-check.sh pi $(subst -, ,$*) $(PI_CHECK_TESTS)

lint: $(STAMP)
	$(BIN)/ruff check firmware host hardware tests benchmarks tools

# The walls of DESIGN.md section 2 (contracts in pyproject.toml).
walls: $(STAMP)
	$(BIN)/lint-imports

# mypy sees the source folders under their package names through two links.
types: $(STAMP)
	@mkdir -p $(TYPING)
	@ln -sfn ../../firmware $(TYPING)/spielleiter
	@ln -sfn ../../host $(TYPING)/spielleiter_host
	$(BIN)/mypy -p spielleiter -p spielleiter_host

bench: $(STAMP)
	@for b in benchmarks/*.py; do case $$b in *_baseline.py) continue;; esac; \
	  echo "== $$b"; $(BIN)/python $$b || exit 1; done

golden: $(STAMP)
	SPIELLEITER_REGOLD=1 $(BIN)/python -m pytest -k golden

# The laptop tool's messages (docs/development.md): extract every _("...") of host/ and
# the games' laptop texts (their laptop commands, the N_ help texts of their entries, what
# their printed sheets hold) and bring the German catalog up to date; a new message comes
# in untranslated, a changed one fuzzy: translate them in the .po (make test checks).
# The box's texts for the laptop (firmware/texts.py) come in too: every T("...") and
# around("...", ...) of the modules that import them (LINK_SOURCES), and the message of
# each _expect(ok, path, "...", **args) of a game's board checks (templates, faces).
CATALOG_DIR := host/locale
MESSAGE_SOURCES := $(wildcard firmware/games/*/laptop.py firmware/games/*/sheets.py \
	firmware/games/*/__init__.py)
LINK_SOURCES := $(shell grep -rlE --include=*.py '^from [.a-z_]*texts import' firmware | sort)
messages: $(STAMP)
	@mkdir -p build
	$(BIN)/pybabel -q extract --sort-output --add-location=file -c TRANSLATORS: -k holds:1,2 \
	  -k T -k around:1 -k _expect:3 -o build/spielleiter_host.pot \
	  host $(MESSAGE_SOURCES) $(LINK_SOURCES)
	$(BIN)/pybabel -q update -i build/spielleiter_host.pot -d $(CATALOG_DIR) \
	  -D spielleiter_host -l de --ignore-obsolete --init-missing

clean:
	rm -rf $(VENV) $(FLOOR) *.egg-info
