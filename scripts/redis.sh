#!/usr/bin/env bash
# Finds a Redis server for the tests and prints its URL (redis://HOST:PORT): LUDOTHEQUE_TEST_REDIS when set, else
# the machine's on 127.0.0.1:6379, started (redis-server --daemonize yes) if it is installed but stopped.  Exits
# non-zero, printing why, when none can be had.
set -u
if [ -n "${LUDOTHEQUE_TEST_REDIS:-}" ]; then echo "$LUDOTHEQUE_TEST_REDIS"; exit 0; fi
ready() { redis-cli -h 127.0.0.1 -p 6379 ping 2>/dev/null | grep -q PONG; }
if ! command -v redis-cli >/dev/null 2>&1; then
  echo "redis.sh: Redis's client is not installed (Debian: redis-server)" >&2; exit 1
fi
if ! ready && command -v redis-server >/dev/null 2>&1; then
  redis-server --port 6379 --bind 127.0.0.1 --save '' --appendonly no --daemonize yes >/dev/null 2>&1 || true
  for _ in $(seq 1 30); do ready && break; sleep 0.2; done
fi
if ! ready; then echo "redis.sh: no Redis answers on 127.0.0.1:6379" >&2; exit 1; fi
echo "redis://127.0.0.1:6379"
