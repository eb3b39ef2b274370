#!/usr/bin/env bash
# The serverless mode, proved: the route suites that exercise invocation (auth modes, rate limits, CORS,
# the cache and its clearing on edit, 413, error bodies) run against `next start` with
# DEPLOY_TARGET=serverless — route handlers and proxy.ts only, no custom server — over PostgreSQL and
# Redis. The tests seed projects, endpoints and keys through the services in their own process, on the
# same platform database, Redis and key prefix, so that process is a second instance: what it changes
# reaches the server only through PostgreSQL and Redis.
#
# Run after `npm run build`. Variables (all optional):
#   PG_ADMIN_URL              a database on the PostgreSQL server to create and drop the test databases from
#                             (default postgres://postgres@127.0.0.1:5432/postgres)
#   SERVERLESS_TEST_DATABASE  the platform database, created afresh and dropped with the projects'
#                             databases (<name>_prj_…) at the end (default flowpoint_serverless)
#   REDIS_URL                 default redis://127.0.0.1:6379
#   KV_KEY_PREFIX             the run's key prefix in Redis, whose keys are deleted at the end (default serverless-<pid>-)
#   PORT                      where `next start` listens (default: a free port)
set -euo pipefail
cd "$(dirname "$0")/.."

SUITES=(
  test/routes/endpoints.happy.test.ts
  test/routes/endpoints.error.test.ts
  test/routes/endpoints.security.test.ts
  test/routes/endpoints.escaping.test.ts
  test/routes/end-user-endpoints.test.ts
  test/routes/invocation-headers.security.test.ts
  test/routes/error-bodies.error.test.ts
)

if [ ! -f .next/BUILD_ID ]; then
  echo "test-serverless: no production build in .next; run npm run build first" >&2
  exit 1
fi

started=$(date +%s)
admin_url=${PG_ADMIN_URL:-postgres://postgres@127.0.0.1:5432/postgres}
database=${SERVERLESS_TEST_DATABASE:-flowpoint_serverless}
if ! [[ $database =~ ^[a-z_][a-z0-9_]{0,40}$ ]]; then
  echo "test-serverless: SERVERLESS_TEST_DATABASE must be a lower-case identifier of at most 41 characters" >&2
  exit 1
fi
redis_url=${REDIS_URL:-redis://127.0.0.1:6379}
prefix=${KV_KEY_PREFIX:-serverless-$$-}
port=${PORT:-$(node -e 'const s = require("node:net").createServer().listen(0, "127.0.0.1", () => { console.log(s.address().port); s.close(); })')}
database_url=$(node -e 'const u = new URL(process.argv[1]); u.pathname = "/" + process.argv[2]; console.log(u.toString())' "$admin_url" "$database")
pg_host_port=$(node -e 'const u = new URL(process.argv[1]); console.log(`${u.hostname}:${u.port || 5432}`)' "$admin_url")
log_file=$(mktemp -t flowpoint-next-start.XXXXXX.log)
data_dir=$(mktemp -d -t flowpoint-serverless-data.XXXXXX)
PSQL=(psql "$admin_url" -v ON_ERROR_STOP=1 -q -X)

drop_databases() {
  # The projects' databases first (one per project: test/fixtures.ts names them after the platform database).
  local names
  names=$("${PSQL[@]}" -At -c "select datname from pg_database where datname like '${database//_/\\_}\\_prj\\_%'") || return 0
  for name in $names; do "${PSQL[@]}" -c "drop database if exists \"$name\" with (force)" || true; done
  "${PSQL[@]}" -c "drop database if exists \"$database\" with (force)" || true
}

server_pid=""
cleanup() {
  local status=$?
  if [ -n "$server_pid" ] && kill -0 "$server_pid" 2>/dev/null; then
    # next start runs in a process group of its own (setsid below): stop it and whatever it started.
    kill -TERM -- "-$server_pid" 2>/dev/null || true
    for _ in $(seq 1 50); do kill -0 "$server_pid" 2>/dev/null || break; sleep 0.2; done
    kill -KILL -- "-$server_pid" 2>/dev/null || true
  fi
  if [ "$status" -ne 0 ] && [ -s "$log_file" ]; then
    echo "--- next start (last 60 lines) ---"
    tail -n 60 "$log_file"
  fi
  drop_databases
  redis-cli -u "$redis_url" --scan --pattern "${prefix}*" | xargs -r -n 500 redis-cli -u "$redis_url" del >/dev/null || true
  rm -rf "$data_dir" "$log_file"
  echo "test-serverless: $(($(date +%s) - started)) s in all"
  exit "$status"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

drop_databases
"${PSQL[@]}" -c "create database \"$database\""

# Shared by the server and the tests: the platform database, Redis and its key prefix, and the secrets
# that sign sessions and encrypt project database URLs.
export DATABASE_URL=$database_url REDIS_URL=$redis_url KV_KEY_PREFIX=$prefix
export ENCRYPTION_KEYS="k1:$(node -e 'console.log(require("node:crypto").randomBytes(32).toString("base64"))')"
export NEXTAUTH_SECRET=$(node -e 'console.log(require("node:crypto").randomBytes(32).toString("base64"))')
export NEXTAUTH_URL=http://127.0.0.1:$port
# The projects' databases are on the test PostgreSQL server's loopback address.
export OUTBOUND_ALLOWED_HOSTS=$pg_host_port
export NEXT_TELEMETRY_DISABLED=1

echo "test-serverless: next start on 127.0.0.1:$port (DEPLOY_TARGET=serverless, database $database, key prefix $prefix)"
DEPLOY_TARGET=serverless NODE_ENV=production DATA_DIR=$data_dir setsid node_modules/.bin/next start -H 127.0.0.1 -p "$port" >"$log_file" 2>&1 &
server_pid=$!

health=""
for _ in $(seq 1 120); do
  if ! kill -0 "$server_pid" 2>/dev/null; then
    echo "test-serverless: next start exited before it answered" >&2
    exit 1
  fi
  if health=$(curl -fsS "http://127.0.0.1:$port/api/health" 2>/dev/null); then break; fi
  health=""
  sleep 0.5
done
if [ -z "$health" ]; then
  echo "test-serverless: /api/health did not answer within 60 s" >&2
  exit 1
fi
echo "test-serverless: /api/health $health"
echo "test-serverless: ready after $(($(date +%s) - started)) s"

ROUTE_TEST_BASE_URL=http://127.0.0.1:$port node_modules/.bin/vitest run --reporter=verbose "${SUITES[@]}"
