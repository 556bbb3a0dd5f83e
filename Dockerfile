# Ziggurat: slim Python, a non-root user, the SQLite database on a volume at /data.
FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    ZIGGURAT_DB=/data/ziggurat.db

# Fonts: DejaVu for Latin text, WenQuanYi Micro Hei for Chinese and Korean player names.
RUN apt-get update \
    && apt-get install -y --no-install-recommends fonts-dejavu-core fonts-wqy-microhei \
    && rm -rf /var/lib/apt/lists/*

RUN useradd --create-home --uid 10001 ziggurat \
    && mkdir /data && chown ziggurat:ziggurat /data

WORKDIR /app
COPY pyproject.toml README.md ./
COPY bot ./bot
COPY renderer ./renderer
RUN pip install .

USER ziggurat
VOLUME ["/data"]
ENTRYPOINT ["ziggurat"]
