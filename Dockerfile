# A pinned rendering image: the same Python, Chromium and fonts on every machine, so a
# snapshot baseline recorded on a laptop is byte-identical to the render on CI.
#   make image                      # builds argus-render:<version> (skips without Docker)
#   docker run --rm -v "$PWD:/work" argus-render:0.1.0 gates --feature habits --all --sense
#   docker run --rm -v "$PWD:/work" --entrypoint pytest argus-render:0.1.0 tests
# Every version below is pinned; bump them together and re-record baselines (docs/ci.md).
ARG PYTHON_IMAGE=python:3.11.7-slim-bookworm
FROM ${PYTHON_IMAGE}

# Chromium and the fonts renders depend on: Inter (the example's design font), DejaVu (the
# default sans/serif/mono fallback), Liberation (metric-compatible Arial/Times/Courier).
ARG CHROMIUM_VERSION=150.0.7871.100-1~deb12u1
ARG FONTS_INTER_VERSION=4.0~beta7+ds-1
ARG FONTS_DEJAVU_VERSION=2.37-6
ARG FONTS_LIBERATION_VERSION=1:1.07.4-11

ENV DEBIAN_FRONTEND=noninteractive \
    PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1 \
    ARGUS_BROWSER=/usr/lib/chromium/chromium \
    LANG=C.UTF-8 \
    TZ=UTC

RUN apt-get update \
 && apt-get install -y --no-install-recommends \
      "chromium=${CHROMIUM_VERSION}" "chromium-common=${CHROMIUM_VERSION}" \
      "fonts-inter=${FONTS_INTER_VERSION}" \
      "fonts-dejavu-core=${FONTS_DEJAVU_VERSION}" "fonts-dejavu-extra=${FONTS_DEJAVU_VERSION}" \
      "fonts-liberation=${FONTS_LIBERATION_VERSION}" \
      fontconfig \
 && fc-cache -f \
 && rm -rf /var/lib/apt/lists/*

WORKDIR /opt/argus
COPY pyproject.toml README.md ./
COPY src ./src
RUN pip install . pytest pytest-playwright pytest-xdist
# The schemas generated once, into the package's bytecode cache beside the .pyc files pip
# compiled (argus.schemas._cache): what a container writes there is lost when it ends.
RUN python -c "import argus.schemas as s; [s.schema(name) for name in s.SCHEMA_NAMES]"

# Runs as root, so Argus launches Chromium with --no-sandbox (a container is the sandbox).
WORKDIR /work
ENTRYPOINT ["argus"]
CMD ["--help"]
