#!/usr/bin/env bash
# Runs the official MCP conformance scenarios that apply to a custom server against a real
# reviewcast on a free port: those that need none of the suite's fixture tools, prompts or
# resources (docs/mcp.md). The suite needs Node 22, taken from the npm registry.
set -euo pipefail
cd "$(dirname "$0")/.."
SCENARIOS=(server-initialize ping tools-list logging-set-level resources-list dns-rebinding-protection completion-complete prompts-list server-sse-polling server-sse-multiple-streams)
source scripts/lib/serve.sh
failed=0
for s in "${SCENARIOS[@]}"; do
  out=$(npx -y -p node@22 -p @modelcontextprotocol/conformance@0.1.16 conformance server --url "http://127.0.0.1:$PORT/mcp" --scenario "$s" 2>&1 || true)
  line=$(grep -E '^Passed: ' <<<"$out" | tail -1)
  echo "$s: ${line:-no result}"
  if ! grep -qE '^Passed: ([0-9]+)/\1, 0 failed' <<<"$line"; then failed=1; echo "$out" | tail -30; fi
done
exit $failed
