# The whole set-up on a fresh Debian 12 machine: `make run` or `make test`.
PRESET ?= dev
BUILD  := build/$(PRESET)
JOBS   ?= $(shell nproc)

.PHONY: deps configure build run test bench screenshots deb clean

deps:
	bash packaging/install-deps.sh
	bash packaging/install-sdks.sh

configure: deps
	cmake --preset $(PRESET)

build: configure
	cmake --build --preset $(PRESET) -j $(JOBS)

run: build
	SANDPAD_PROVIDER=$${SANDPAD_PROVIDER:-local} $(BUILD)/app/sandpad/sandpad

test: build
	ctest --preset $(PRESET) -j $(JOBS)

bench: build
	cmake --build --preset $(PRESET) -j $(JOBS) --target bench
	bash tests/bench/run-all.sh $(BUILD)

screenshots: build
	bash tests/screenshots/take-screenshots.sh $(BUILD)

deb: build
	cd $(BUILD) && cpack -G DEB

clean:
	rm -rf build
