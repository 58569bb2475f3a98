#!/usr/bin/env bash
# Finds a PostgreSQL server for the tests, starting the machine's cluster if it is installed but stopped, and
# prints its URL (postgresql://USER@HOST:PORT/DB).  Exits non-zero, printing why, when none can be had.
# LUDOTHEQUE_TEST_PG, when set, is used as it is.
set -u
if [ -n "${LUDOTHEQUE_TEST_PG:-}" ]; then echo "$LUDOTHEQUE_TEST_PG"; exit 0; fi
url="postgresql://postgres@127.0.0.1:5432/postgres"
ready() { pg_isready -q -h 127.0.0.1 -p 5432 2>/dev/null; }
if ! command -v pg_isready >/dev/null 2>&1; then
  echo "postgres.sh: PostgreSQL's client tools are not installed (Debian: postgresql)" >&2; exit 1
fi
if ! ready && command -v pg_ctlcluster >/dev/null 2>&1; then
  for version in $(ls /etc/postgresql 2>/dev/null); do
    pg_ctlcluster --skip-systemctl-redirect "$version" main start >/dev/null 2>&1 || true
  done
  for _ in $(seq 1 30); do ready && break; sleep 0.5; done
fi
if ! ready; then echo "postgres.sh: no PostgreSQL answers on 127.0.0.1:5432" >&2; exit 1; fi
echo "$url"
