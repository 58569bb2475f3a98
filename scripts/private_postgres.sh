#!/usr/bin/env bash
# A private PostgreSQL cluster for the outage test: `private_postgres.sh init DIR PORT`, then `start|stop DIR`.
# It runs as the postgres user on its own port and socket folder, so stopping it touches no other test's database.
set -eu
bin=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1)
[ -n "$bin" ] || { echo "private_postgres.sh: PostgreSQL's server binaries are not installed" >&2; exit 1; }
as_postgres() { if [ "$(id -u)" = 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi; }
case "$1" in
  init)
    mkdir -p "$2"; chown postgres "$2" 2>/dev/null || true
    as_postgres "$bin/initdb" -D "$2/data" -A trust -U postgres >/dev/null
    echo "port = $3" >> "$2/data/postgresql.conf"
    echo "unix_socket_directories = '$2'" >> "$2/data/postgresql.conf"
    echo "listen_addresses = '127.0.0.1'" >> "$2/data/postgresql.conf";;
  start) as_postgres "$bin/pg_ctl" -D "$2/data" -l "$2/log" -w start >/dev/null;;
  stop) as_postgres "$bin/pg_ctl" -D "$2/data" -m fast -w stop >/dev/null;;
  *) echo "usage: private_postgres.sh init DIR PORT | start DIR | stop DIR" >&2; exit 2;;
esac
