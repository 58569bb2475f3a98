#!/usr/bin/env bash
# A site of two server hosts and a client host on one machine (`make cluster`), in network namespaces joined by a
# bridge: ludo-srv1 (10.77.0.11) and ludo-srv2 (10.77.0.12) run `ludotheque serve --redis`, ludo-client (10.77.0.21)
# runs tests/server/test_site.py against them, and a private PostgreSQL and Redis listen on the bridge (10.77.0.1),
# reached over the namespaces' addresses as the machines of a real site reach theirs.  Needs root (ip netns).
# Everything it creates is removed on exit.
set -eu
cd "$(dirname "$0")/.."
[ "$(id -u)" = 0 ] || { echo "cluster.sh: network namespaces need root" >&2; exit 1; }
work=$(mktemp -d /tmp/ludotheque-cluster.XXXXXX)
chmod 755 "$work"
pg_port=25432
redis_port=26379
cleanup() {
  bash scripts/private_postgres.sh stop "$work/pg" 2>/dev/null || true
  [ -f "$work/redis.pid" ] && kill "$(cat "$work/redis.pid")" 2>/dev/null || true
  for ns in ludo-srv1 ludo-srv2 ludo-client; do ip netns del "$ns" 2>/dev/null || true; done
  ip link del ludo-br 2>/dev/null || true
  rm -rf "$work"
}
trap cleanup EXIT
cleanup_first() { for ns in ludo-srv1 ludo-srv2 ludo-client; do ip netns del "$ns" 2>/dev/null || true; done;
                  ip link del ludo-br 2>/dev/null || true; }
cleanup_first

ip link add ludo-br type bridge
ip addr add 10.77.0.1/24 dev ludo-br
ip link set ludo-br up
host=0
for ns in ludo-srv1:11 ludo-srv2:12 ludo-client:21; do
  name=${ns%%:*}; last=${ns##*:}; host=$((host + 1))
  ip netns add "$name"
  ip link add "veth$host" type veth peer name "veth${host}p"
  ip link set "veth${host}p" netns "$name"
  ip link set "veth$host" master ludo-br up
  ip -n "$name" addr add "10.77.0.$last/24" dev "veth${host}p"
  ip -n "$name" link set "veth${host}p" up
  ip -n "$name" link set lo up
done

bash scripts/private_postgres.sh init "$work/pg" "$pg_port"
echo "listen_addresses = '10.77.0.1'" >> "$work/pg/data/postgresql.conf"
echo "host all all 10.77.0.0/24 trust" >> "$work/pg/data/pg_hba.conf"
bash scripts/private_postgres.sh start "$work/pg"
redis-server --port "$redis_port" --bind 10.77.0.1 --protected-mode no --save '' --appendonly no \
  --daemonize yes --pidfile "$work/redis.pid" --logfile "$work/redis.log"
for _ in $(seq 1 50); do redis-cli -h 10.77.0.1 -p "$redis_port" ping 2>/dev/null | grep -q PONG && break; sleep 0.1; done

echo "cluster: servers on 10.77.0.11 and 10.77.0.12, tests from 10.77.0.21, databases on 10.77.0.1"
ip netns exec ludo-client env \
  LUDOTHEQUE_TEST_PG="postgresql://postgres@10.77.0.1:$pg_port/postgres" \
  LUDOTHEQUE_TEST_REDIS="redis://10.77.0.1:$redis_port" \
  LUDOTHEQUE_TEST_HOSTS="ludo-srv1=10.77.0.11,ludo-srv2=10.77.0.12" \
  .venv/bin/pytest -q -p no:xdist -p no:cacheprovider -rA tests/server/test_site.py "$@"
