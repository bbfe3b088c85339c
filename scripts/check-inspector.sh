#!/usr/bin/env bash
# Runs the MCP Inspector command the docs and /developers/mcp show (src/pages/developer-pages.ts)
# against a real reviewcast on a free port, and checks it lists every tool the server has. The
# Inspector comes from the npm registry (it asks for Node 22, so it is not a devDependency).
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/lib/serve.sh
URL="http://localhost:$PORT/mcp"
CMD=$(node --import tsx -e "import('./src/pages/developer-pages.ts').then((m) => console.log(m.inspectorCommand('$URL')))")
WANT=$(node --import tsx -e "import('./src/mcp/mcp-server.ts').then((m) => console.log(m.toolList().map((t) => t.name).join(',')))")
echo "running: $CMD"
GOT=$(${CMD/npx /npx -y } 2>/dev/null | node -e 'let s="";process.stdin.on("data",(d)=>s+=d).on("end",()=>console.log(JSON.parse(s).tools.map((t)=>t.name).join(",")))')
if [ "$GOT" != "$WANT" ]; then echo "FAIL: the Inspector listed [$GOT], the server has [$WANT]"; exit 1; fi
echo "ok: the documented Inspector command lists all $(tr ',' '\n' <<<"$WANT" | wc -l) tools"
