# Hark — the README's two commands are `make run` and `make test`.
# Both install the Debian packages Hark needs first (only those missing).

PREFIX ?= /usr/local
DESTDIR ?=
SWIFT ?= swift
CONFIGURATION ?= release
APP_ID := io.github.hark.Hark

# The folder SwiftPM builds into for $(CONFIGURATION); evaluated when used.
BIN_DIR = $(shell $(SWIFT) build -c $(CONFIGURATION) --show-bin-path)

.PHONY: all deps locale build run test bench install install-files uninstall deb clean

all: build

deps:
	scripts/install-deps

build: deps locale
	$(SWIFT) build -c $(CONFIGURATION)

# The translations (po/), the desktop file and the metainfo with their texts
# in every language: into .build/locale, where a Hark built here finds them.
locale:
	scripts/build-locale

run: build
	"$(BIN_DIR)/hark"

test: deps
	scripts/run-tests

bench: build
	scripts/bench "$(BIN_DIR)/hark"

install: build install-files

LANGUAGES = $(shell grep -v '^\#' po/LINGUAS)

# Copies what `build` made; scripts/run-tests uses it on the debug build.
install-files: locale
	install -Dm755 "$(BIN_DIR)/hark" "$(DESTDIR)$(PREFIX)/bin/hark"
	@# The window's executable, which `hark` execs (the command line links no GTK).
	install -Dm755 "$(BIN_DIR)/hark-window" "$(DESTDIR)$(PREFIX)/libexec/hark/hark-window"
	install -Dm644 .build/locale/$(APP_ID).desktop "$(DESTDIR)$(PREFIX)/share/applications/$(APP_ID).desktop"
	install -Dm644 .build/locale/$(APP_ID).metainfo.xml "$(DESTDIR)$(PREFIX)/share/metainfo/$(APP_ID).metainfo.xml"
	for lang in $(LANGUAGES); do \
		install -Dm644 .build/locale/$$lang/LC_MESSAGES/hark.mo "$(DESTDIR)$(PREFIX)/share/locale/$$lang/LC_MESSAGES/hark.mo" || exit 1; done
	install -Dm644 data/icons/hicolor/scalable/apps/$(APP_ID).svg \
		"$(DESTDIR)$(PREFIX)/share/icons/hicolor/scalable/apps/$(APP_ID).svg"
	install -Dm644 data/icons/hicolor/symbolic/apps/$(APP_ID)-symbolic.svg \
		"$(DESTDIR)$(PREFIX)/share/icons/hicolor/symbolic/apps/$(APP_ID)-symbolic.svg"
	install -Dm644 Resources/style.css "$(DESTDIR)$(PREFIX)/share/hark/style.css"
	@# The transcription helper, and the script that installs its engine on demand.
	install -Dm644 Resources/transcriber.py "$(DESTDIR)$(PREFIX)/share/hark/transcriber.py"
	install -Dm644 Resources/helper_lines.py "$(DESTDIR)$(PREFIX)/share/hark/helper_lines.py"
	install -Dm644 Resources/transcriber-requirements.txt "$(DESTDIR)$(PREFIX)/share/hark/transcriber-requirements.txt"
	install -Dm644 Resources/transcriber-multilingual-requirements.txt "$(DESTDIR)$(PREFIX)/share/hark/transcriber-multilingual-requirements.txt"
	install -Dm755 scripts/install-transcriber "$(DESTDIR)$(PREFIX)/share/hark/install-transcriber"
	install -Dm644 Resources/check-transcriber.py "$(DESTDIR)$(PREFIX)/share/hark/check-transcriber.py"
	install -Dm644 scripts/lib/pinned-venv.sh "$(DESTDIR)$(PREFIX)/share/hark/pinned-venv.sh"
	@# The encryption helper, and the script that installs its engine (vodozemac).
	install -Dm644 Resources/crypto-engine.py "$(DESTDIR)$(PREFIX)/share/hark/crypto-engine.py"
	install -Dm644 Resources/crypto_common.py "$(DESTDIR)$(PREFIX)/share/hark/crypto_common.py"
	install -Dm644 Resources/crypto_megolm.py "$(DESTDIR)$(PREFIX)/share/hark/crypto_megolm.py"
	install -Dm644 Resources/crypto-engine-requirements.txt "$(DESTDIR)$(PREFIX)/share/hark/crypto-engine-requirements.txt"
	install -Dm755 scripts/install-crypto-engine "$(DESTDIR)$(PREFIX)/share/hark/install-crypto-engine"
	install -Dm644 data/hark.1 "$(DESTDIR)$(PREFIX)/share/man/man1/hark.1"
	@# A theme folder with a cache must have it refreshed, or GTK misses the icon.
	@if [ -z "$(DESTDIR)" ] && [ -f "$(PREFIX)/share/icons/hicolor/icon-theme.cache" ]; then \
		gtk-update-icon-cache -q -f "$(PREFIX)/share/icons/hicolor" || true; fi

uninstall:
	rm -f "$(DESTDIR)$(PREFIX)/bin/hark" \
		"$(DESTDIR)$(PREFIX)/libexec/hark/hark-window" \
		$(foreach lang,$(LANGUAGES),"$(DESTDIR)$(PREFIX)/share/locale/$(lang)/LC_MESSAGES/hark.mo") \
		"$(DESTDIR)$(PREFIX)/share/applications/$(APP_ID).desktop" \
		"$(DESTDIR)$(PREFIX)/share/metainfo/$(APP_ID).metainfo.xml" \
		"$(DESTDIR)$(PREFIX)/share/icons/hicolor/scalable/apps/$(APP_ID).svg" \
		"$(DESTDIR)$(PREFIX)/share/icons/hicolor/symbolic/apps/$(APP_ID)-symbolic.svg" \
		"$(DESTDIR)$(PREFIX)/share/hark/style.css" \
		"$(DESTDIR)$(PREFIX)/share/hark/transcriber.py" \
		"$(DESTDIR)$(PREFIX)/share/hark/helper_lines.py" \
		"$(DESTDIR)$(PREFIX)/share/hark/transcriber-requirements.txt" \
		"$(DESTDIR)$(PREFIX)/share/hark/transcriber-multilingual-requirements.txt" \
		"$(DESTDIR)$(PREFIX)/share/hark/install-transcriber" \
		"$(DESTDIR)$(PREFIX)/share/hark/check-transcriber.py" \
		"$(DESTDIR)$(PREFIX)/share/hark/pinned-venv.sh" \
		"$(DESTDIR)$(PREFIX)/share/hark/crypto-engine.py" \
		"$(DESTDIR)$(PREFIX)/share/hark/crypto_common.py" \
		"$(DESTDIR)$(PREFIX)/share/hark/crypto_megolm.py" \
		"$(DESTDIR)$(PREFIX)/share/hark/crypto-engine-requirements.txt" \
		"$(DESTDIR)$(PREFIX)/share/hark/install-crypto-engine" \
		"$(DESTDIR)$(PREFIX)/share/man/man1/hark.1"
	-rmdir "$(DESTDIR)$(PREFIX)/share/hark" "$(DESTDIR)$(PREFIX)/libexec/hark"

# A Debian package that runs without the Swift toolchain (the Swift runtime
# once, in /usr/lib/hark; stripped): .build/deb/hark_VERSION_ARCH.deb.
deb: deps
	scripts/make-deb

clean:
	rm -rf .build
