#!/usr/bin/env bash
# Runs the MCP Inspector command the docs and /developers/mcp show (src/pages/developer-pages.ts)
# against a real reviewcast on a free port, and checks it lists every tool and prompt the server
# has and gets a prompt with arguments, as README.md shows. The
# Inspector comes from the npm registry (npx -y; it asks for Node 22.19, so it is not a devDependency)
# and runs on the Node on the PATH: on Node 20 npm warns EBADENGINE and its command line works.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/lib/serve.sh
URL="http://localhost:$PORT/mcp"
CMD=$(node --import tsx -e "import('./src/pages/developer-pages.ts').then((m) => console.log(m.inspectorCommand('$URL')))")
WANT=$(node --import tsx -e "import('./src/mcp/catalogue.ts').then((m) => console.log(m.toolList().map((t) => t.name).join(',')))")
echo "running: $CMD"
GOT=$($CMD 2>/dev/null | node -e 'let s="";process.stdin.on("data",(d)=>s+=d).on("end",()=>console.log(JSON.parse(s).tools.map((t)=>t.name).join(",")))')
if [ "$GOT" != "$WANT" ]; then echo "FAIL: the Inspector listed [$GOT], the server has [$WANT]"; exit 1; fi
echo "ok: the documented Inspector command lists all $(tr ',' '\n' <<<"$WANT" | wc -l) tools"

# The prompts, listed and one got with an argument, as README.md shows.
INSPECT="npx -y @modelcontextprotocol/inspector@$(sed -E 's/.*inspector@([0-9.]+).*/\1/' <<<"$CMD") --cli $URL --transport http"
WANT=$(node --import tsx -e "import('./src/mcp/catalogue.ts').then((m) => console.log(m.promptList().map((p) => p.name).join(',')))")
GOT=$($INSPECT --method prompts/list 2>/dev/null | node -e 'let s="";process.stdin.on("data",(d)=>s+=d).on("end",()=>console.log(JSON.parse(s).prompts.map((p)=>p.name).join(",")))')
if [ "$GOT" != "$WANT" ]; then echo "FAIL: the Inspector listed prompts [$GOT], the server has [$WANT]"; exit 1; fi
$INSPECT --method prompts/get --prompt-name summarise_aspect --prompt-args aspect=punctuality 2>/dev/null | grep -q 'punctuality' || { echo "FAIL: prompts/get summarise_aspect"; exit 1; }
echo "ok: the Inspector lists all $(tr ',' '\n' <<<"$WANT" | wc -l) prompts and gets one with arguments"
