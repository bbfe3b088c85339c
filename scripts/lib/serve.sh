# Sourced by the scripts that check a running reviewcast: serves a fresh demo database on a free
# loopback port, sets PORT and WORK (a temporary directory), stops the server and removes WORK on exit.
PORT=$(node -e 'const s=require("net").createServer().listen(0,"127.0.0.1",()=>{console.log(s.address().port);s.close()})')
WORK=$(mktemp -d)
PORT=$PORT DATABASE_URL=$WORK/reviewcast.db LOG_LEVEL=warn node --import tsx src/cli/main.ts serve &
SERVER=$!
trap 'kill $SERVER 2>/dev/null || true; rm -rf "$WORK"' EXIT
for _ in $(seq 1 100); do curl -sf "http://127.0.0.1:$PORT/healthz" >/dev/null && break; sleep 0.2; done
curl -sf "http://127.0.0.1:$PORT/healthz" >/dev/null || { echo "FATAL: reviewcast did not start on port $PORT" >&2; exit 1; }
