#!/usr/bin/env bash
# A throwaway PostgreSQL server for the persisted-source tests.
#
#   eval "$(.ci/postgres.sh start)"   # starts it (installing Debian's postgresql if needed)
#                                     # and prints: export PROMPT_CONTRACT_PG_URL=... PGURL=...
#   .ci/postgres.sh env               # prints the same exports for a server already running
#   .ci/postgres.sh stop              # stops it and removes its data directory
#
# Sourced (`. .ci/postgres.sh`), it defines `postgres_start` (exports the variables into the
# calling shell) and `postgres_stop`, and changes nothing else.
#
# Settings: PROMPT_CONTRACT_PG_DIR (default $TMPDIR/prompt-contract-pg), PROMPT_CONTRACT_PG_PORT
# (default 54329, or the next free port). Starting twice reuses the running server.

_pcpg_dir() { printf '%s\n' "${PROMPT_CONTRACT_PG_DIR:-${TMPDIR:-/tmp}/prompt-contract-pg}"; }

_pcpg_log() { printf 'postgres.sh: %s\n' "$*" >&2; }

# The directory holding pg_ctl and initdb, installing the server when it is absent.
_pcpg_bin() {
  local dir
  for dir in $(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V -r); do
    if [ -x "$dir/pg_ctl" ] && [ -x "$dir/initdb" ]; then printf '%s\n' "$dir"; return 0; fi
  done
  if command -v pg_ctl >/dev/null 2>&1 && command -v initdb >/dev/null 2>&1; then
    dirname "$(readlink -f "$(command -v pg_ctl)")"; return 0
  fi
  if [ "$(id -u)" != 0 ] || ! command -v apt-get >/dev/null 2>&1; then
    _pcpg_log "no PostgreSQL server found (pg_ctl, initdb) and cannot install one: install PostgreSQL or run as root on Debian/Ubuntu"
    return 1
  fi
  _pcpg_log "installing Debian's postgresql package"
  DEBIAN_FRONTEND=noninteractive apt-get update -qq >&2 && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq postgresql >&2 || return 1
  _pcpg_bin
}

# Runs a command as the owner of the server: initdb and postgres refuse to run as root.
_pcpg_as() {
  if [ "$(id -u)" = 0 ]; then
    if command -v runuser >/dev/null 2>&1; then runuser -u postgres -- "$@"; else su postgres -s /bin/sh -c "$(printf '%q ' "$@")"; fi
  else
    "$@"
  fi
}

_pcpg_port_free() { ! (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }

_pcpg_exports() {
  local url="postgres://postgres@127.0.0.1:$1/prompt_contract"
  printf 'export PROMPT_CONTRACT_PG_URL=%s\nexport PGURL=%s\n' "$url" "$url"
}

_pcpg_running() {
  local dir bin
  dir=$(_pcpg_dir)
  [ -f "$dir/port" ] && [ -f "$dir/data/postmaster.pid" ] || return 1
  bin=$(_pcpg_bin) || return 1
  _pcpg_as "$bin/pg_ctl" -D "$dir/data" status >/dev/null 2>&1
}

_pcpg_start() (
  set -eu
  dir=$(_pcpg_dir)
  if _pcpg_running; then
    _pcpg_exports "$(cat "$dir/port")"
    exit 0
  fi
  bin=$(_pcpg_bin)
  [ "$(id -u)" = 0 ] && ! id postgres >/dev/null 2>&1 && useradd --system --no-create-home postgres
  # A stale directory from an interrupted run: start over.
  rm -rf "$dir"
  mkdir -p "$dir"
  [ "$(id -u)" = 0 ] && chown postgres "$dir"
  if ! _pcpg_as test -w "$dir"; then
    _pcpg_log "$dir is not writable by the server's user (postgres); set PROMPT_CONTRACT_PG_DIR to a directory it can reach"
    exit 1
  fi
  port=${PROMPT_CONTRACT_PG_PORT:-54329}
  while ! _pcpg_port_free "$port"; do port=$((port + 1)); done
  _pcpg_as "$bin/initdb" -D "$dir/data" -U postgres -A trust -E UTF8 --locale=C --no-sync >"$dir/initdb.log" 2>&1 || {
    cat "$dir/initdb.log" >&2
    exit 1
  }
  # Durability is pointless for a throwaway test server; turning it off makes it start and seed fast.
  _pcpg_as "$bin/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w -t 30 \
    -o "-p $port -k $dir -c listen_addresses=127.0.0.1 -c fsync=off -c synchronous_commit=off -c full_page_writes=off" \
    start >/dev/null || {
    cat "$dir/server.log" >&2
    exit 1
  }
  _pcpg_as "$bin/createdb" -h 127.0.0.1 -p "$port" -U postgres prompt_contract
  # The hostile-input tests run dblink's writes through the reader (test/hostile/postgres-*): say so now
  # if this server lacks the extension (Debian's postgresql-NN server package ships the contrib
  # modules, dblink among them), rather than in a test.
  if ! _pcpg_as "$bin/psql" -h 127.0.0.1 -p "$port" -U postgres -d prompt_contract -Atqc \
    "SELECT 1 FROM pg_available_extensions WHERE name = 'dblink'" 2>/dev/null | grep -q 1; then
    _pcpg_log "warning: this server has no dblink extension (PostgreSQL's contrib modules); test/hostile/postgres-privileged-role.test.ts and postgres-definer.test.ts will fail"
  fi
  printf '%s\n' "$port" >"$dir/port"
  _pcpg_log "PostgreSQL $("$bin/pg_ctl" --version | awk '{print $3}') listening on 127.0.0.1:$port (data in $dir)"
  _pcpg_exports "$port"
)

_pcpg_stop() (
  set -u
  dir=$(_pcpg_dir)
  [ -d "$dir" ] || exit 0
  if [ -f "$dir/data/postmaster.pid" ]; then
    bin=$(_pcpg_bin) || exit 1
    _pcpg_as "$bin/pg_ctl" -D "$dir/data" -m immediate -w stop >/dev/null 2>&1 || true
  fi
  rm -rf "$dir"
  _pcpg_log "stopped and removed $dir"
)

_pcpg_env() (
  dir=$(_pcpg_dir)
  _pcpg_running || { _pcpg_log "not running; use: eval \"\$(.ci/postgres.sh start)\""; exit 1; }
  _pcpg_exports "$(cat "$dir/port")"
)

postgres_start() {
  local exports
  exports=$(_pcpg_start) || return 1
  eval "$exports"
}

postgres_stop() { _pcpg_stop; }

if [ "${BASH_SOURCE[0]}" = "$0" ]; then
  case "${1:-}" in
    start) _pcpg_start ;;
    stop) _pcpg_stop ;;
    env) _pcpg_env ;;
    *)
      printf 'usage: %s start|stop|env\n' "$0" >&2
      exit 2
      ;;
  esac
fi
