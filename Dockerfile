# Ziggurat: slim Python, dependencies in their own layer, a non-root user, all data on /data.
#
#   docker build -t ziggurat .
#   docker run -d --name ziggurat --env-file .env --restart unless-stopped -v ziggurat-data:/data ziggurat
#
# The database is always /data/ziggurat.db (ZIGGURAT_DB below; .env.example leaves it
# commented out), the offline demo writes under /data (ZIGGURAT_DEMO_DIR, and the working
# folder), and the bot runs as uid 10001: a bind-mounted /data must belong to that uid.
# See docs/admin.md.
FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1 \
    ZIGGURAT_DB=/data/ziggurat.db \
    ZIGGURAT_DEMO_DIR=/data/demo

# Fonts: DejaVu for Latin text, WenQuanYi Micro Hei for Chinese and Korean player names
# (catalog labels need no system font: renderer/fonts/ ships a CJK subset).
RUN apt-get update \
    && apt-get install -y --no-install-recommends fonts-dejavu-core fonts-wqy-microhei \
    && rm -rf /var/lib/apt/lists/*

RUN groupadd --gid 10001 ziggurat \
    && useradd --uid 10001 --gid 10001 --create-home --shell /usr/sbin/nologin ziggurat \
    && mkdir /data && chown ziggurat:ziggurat /data

# 1. The dependencies, read from pyproject.toml: this layer is rebuilt only when it changes.
WORKDIR /src
COPY pyproject.toml ./
RUN python -c "import tomllib; print('\n'.join(tomllib.load(open('pyproject.toml', 'rb'))['project']['dependencies']))" > /tmp/requirements.txt \
    && pip install -r /tmp/requirements.txt \
    && rm /tmp/requirements.txt

# 2. The code, installed without dependencies; the source tree and the build leftovers
#    (build/, *.egg-info) go away in the same layer.
COPY README.md ./
COPY bot ./bot
COPY renderer ./renderer
RUN pip install --no-deps . \
    && cd / && rm -rf /src

USER ziggurat
WORKDIR /data
VOLUME ["/data"]
ENTRYPOINT ["ziggurat"]
