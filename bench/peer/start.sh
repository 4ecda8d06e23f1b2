#!/usr/bin/env bash
# Starts the benchmark peer: Iceberg's reference REST server (org.apache.iceberg.rest.RESTCatalogServer,
# iceberg-open-api 1.11.0 test-fixtures) backed by Iceberg's JdbcCatalog on a local PostgreSQL 15.
#
# Usage: bench/peer/start.sh DIR PORT
#   DIR   state directory (created if missing; must be traversable by the postgres user)
#         DIR/pg            PostgreSQL cluster (owned by postgres), reused if it exists
#         DIR/warehouse     Iceberg warehouse (file://DIR/warehouse)
#         DIR/postgres.pid  DIR/postgres.log  DIR/postgres.port
#         DIR/peer.pid      DIR/peer.log      DIR/classpath.txt
#   PORT  HTTP port of the REST server
# Prints the catalog URI (http://localhost:PORT) on stdout; progress goes to stderr.
# Idempotent: if the peer already answers on PORT from this DIR, it just prints the URI again.
#
# Optional environment:
#   PEER_JAVA_OPTS   JVM flags for the REST server (default: none, the JVM's defaults, like bin/floe)
#   PEER_PG_BIN      PostgreSQL binaries (default /usr/lib/postgresql/15/bin)
#   PEER_PG_PORT     PostgreSQL port to use when none is recorded yet (default: first free from 25432)
#   CATALOG_*        any further catalog property for the server, e.g. CATALOG_CLIENTS=8 for the
#                    JdbcCatalog connection pool size (Iceberg's default is 2)
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
log() { printf 'peer: %s\n' "$*" >&2; }
die() { log "ERROR: $*"; exit 1; }

[ $# -eq 2 ] || { echo "usage: $0 DIR PORT" >&2; exit 2; }
[[ "$2" =~ ^[0-9]+$ ]] || die "PORT must be a number: $2"
mkdir -p "$1"
dir="$(cd "$1" && pwd)"
port="$2"
uri="http://localhost:$port"

pg_bin="${PEER_PG_BIN:-/usr/lib/postgresql/15/bin}"
pg_user=postgres
pgdata="$dir/pg"
[ -x "$pg_bin/initdb" ] || die "no PostgreSQL at $pg_bin (apt-get install postgresql-15)"
command -v java > /dev/null || die "java not found"
command -v curl > /dev/null || die "curl not found"
command -v ss > /dev/null || die "ss not found (iproute2)"
id -u "$pg_user" > /dev/null 2>&1 || die "no '$pg_user' user (installing postgresql-15 creates it)"

as_pg() {
  if [ "$(id -un)" = "$pg_user" ]; then "$@"; else runuser -u "$pg_user" -- "$@"; fi
}

# A process is alive and is what we think it is (guards against a reused pid).
alive() { # pidfile pattern
  local pid
  [ -s "$1" ] || return 1
  pid="$(cat "$1")"
  [ -r "/proc/$pid/cmdline" ] || return 1
  local cmd
  cmd="$(tr '\0' ' ' < "/proc/$pid/cmdline" 2> /dev/null)" || return 1
  [[ "$cmd" == *"$2"* ]]
}

port_in_use() { [ -n "$(ss -Htln "sport = :$1")" ]; }

config_ok() { curl -sf -o /dev/null --max-time 2 "$uri/v1/config"; }

# The server of this DIR is the process listening on PORT.
ours_on_port() { [[ "$(ss -Htlnp "sport = :$port")" == *"pid=$(cat "$dir/peer.pid"),"* ]]; }

# ---------------------------------------------------------------- already running?
if alive "$dir/peer.pid" RESTCatalogServer && ours_on_port && config_ok; then
  log "already running (pid $(cat "$dir/peer.pid")) on port $port"
  echo "$uri"
  exit 0
fi

# A REST server of this DIR that does not answer on PORT (hung, or started on another port): stop it.
if alive "$dir/peer.pid" RESTCatalogServer; then
  log "stopping REST server pid $(cat "$dir/peer.pid"): it does not answer on port $port"
  kill "$(cat "$dir/peer.pid")" 2> /dev/null || true
  for _ in $(seq 1 40); do alive "$dir/peer.pid" RESTCatalogServer || break; sleep 0.5; done
fi
rm -f "$dir/peer.pid"
if port_in_use "$port"; then die "port $port is already in use by another process"; fi

# ---------------------------------------------------------------- PostgreSQL
as_pg test -x "$dir" || die "$dir is not traversable by the $pg_user user; choose a DIR under /tmp or similar"
mkdir -p "$dir/warehouse"

if [ ! -s "$pgdata/PG_VERSION" ]; then
  log "initdb $pgdata"
  mkdir -p "$pgdata"
  chown "$pg_user": "$pgdata"
  chmod 700 "$pgdata"
  # trust auth: the server only listens on 127.0.0.1 and has no unix socket
  as_pg "$pg_bin/initdb" -D "$pgdata" -U postgres --auth=trust --encoding=UTF8 --locale=C.UTF-8 \
    > "$dir/initdb.log" 2>&1 || { cat "$dir/initdb.log" >&2; die "initdb failed"; }
  # Durable, stock settings (PostgreSQL 15 defaults except where noted). Keep README.md in sync.
  as_pg tee -a "$pgdata/postgresql.conf" > /dev/null <<'EOF'

# ---- floe bench peer (bench/peer/start.sh) ----
listen_addresses = '127.0.0.1'     # loopback only
unix_socket_directories = ''       # TCP only
max_connections = 100              # default
shared_buffers = 128MB             # default
fsync = on                         # default: durable commits, as Floe's are
synchronous_commit = on            # default
full_page_writes = on              # default
wal_level = replica                # default
logging_collector = off            # log goes to DIR/postgres.log (pg_ctl -l)
log_min_messages = warning
EOF
fi

pg_status=0
as_pg "$pg_bin/pg_ctl" -D "$pgdata" status > /dev/null 2>&1 || pg_status=$?
if [ "$pg_status" -eq 0 ]; then
  pg_port="$(sed -n 4p "$pgdata/postmaster.pid")"
  log "PostgreSQL already running on port $pg_port"
else
  pg_port=""
  if [ -s "$dir/postgres.port" ] && ! port_in_use "$(cat "$dir/postgres.port")"; then
    pg_port="$(cat "$dir/postgres.port")"
  else
    p="${PEER_PG_PORT:-25432}"
    while port_in_use "$p"; do p=$((p + 1)); done
    pg_port="$p"
  fi
  log "starting PostgreSQL on 127.0.0.1:$pg_port"
  touch "$dir/postgres.log"
  chown "$pg_user": "$dir/postgres.log"
  as_pg "$pg_bin/pg_ctl" -D "$pgdata" -l "$dir/postgres.log" -o "-p $pg_port" -w -t 60 start > /dev/null \
    || { tail -n 20 "$dir/postgres.log" >&2; die "PostgreSQL did not start"; }
fi
echo "$pg_port" > "$dir/postgres.port"
sed -n 1p "$pgdata/postmaster.pid" > "$dir/postgres.pid"

psql_pg() { "$pg_bin/psql" -X -q -v ON_ERROR_STOP=1 -h 127.0.0.1 -p "$pg_port" -U postgres "$@"; }
if [ "$(psql_pg -d postgres -tAc "select 1 from pg_database where datname = 'iceberg'")" != "1" ]; then
  log "creating database iceberg"
  psql_pg -d postgres -c "create database iceberg"
fi

# ---------------------------------------------------------------- classpath
cp_file="$dir/classpath.txt"
if [ ! -s "$cp_file" ] || [ "$here/pom.xml" -nt "$cp_file" ]; then
  log "resolving classpath (mvn dependency:build-classpath)"
  mvn -q -B -f "$here/pom.xml" dependency:build-classpath -Dmdep.outputFile="$cp_file.tmp" \
    > "$dir/mvn.log" 2>&1 || { tail -n 30 "$dir/mvn.log" >&2; die "classpath resolution failed"; }
  mv "$cp_file.tmp" "$cp_file"
fi

# ---------------------------------------------------------------- REST server
log "starting RESTCatalogServer on port $port"
echo "=== $(date -u +%FT%TZ) start.sh: RESTCatalogServer on port $port" >> "$dir/peer.log"
# RESTCatalogServer reads CATALOG_<KEY> variables: in KEY '__' -> '-', '_' -> '.', lower-cased.
# No auth. Jetty's Server(port) listens on all interfaces; the bench sends traffic to localhost only.
# shellcheck disable=SC2086
CATALOG_CATALOG__IMPL=org.apache.iceberg.jdbc.JdbcCatalog \
CATALOG_URI="jdbc:postgresql://127.0.0.1:$pg_port/iceberg" \
CATALOG_JDBC_USER=postgres \
CATALOG_JDBC_PASSWORD=postgres \
CATALOG_JDBC_SCHEMA__VERSION=V1 \
CATALOG_WAREHOUSE="file://$dir/warehouse" \
CATALOG_REST_PORT="$port" \
  setsid nohup java ${PEER_JAVA_OPTS:-} -cp "$(cat "$cp_file")" org.apache.iceberg.rest.RESTCatalogServer \
  >> "$dir/peer.log" 2>&1 < /dev/null &
echo $! > "$dir/peer.pid"

for _ in $(seq 1 240); do
  if config_ok; then
    log "ready: $uri (pid $(cat "$dir/peer.pid"), PostgreSQL 127.0.0.1:$pg_port db iceberg)"
    echo "$uri"
    exit 0
  fi
  alive "$dir/peer.pid" RESTCatalogServer || { tail -n 40 "$dir/peer.log" >&2; die "REST server exited"; }
  sleep 0.5
done
tail -n 40 "$dir/peer.log" >&2
die "REST server did not answer $uri/v1/config within 120 s"
