#!/usr/bin/env bash
# Lints the OpenAPI document a running reviewcast serves (/.well-known/openapi.json) with
# Redocly (recommended rules) and Spectral (spectral:oas); fails on any error. Both come
# from the lockfile (devDependencies); their telemetry is off.
set -euo pipefail
cd "$(dirname "$0")/.."
export REDOCLY_TELEMETRY=off REDOCLY_SUPPRESS_UPDATE_NOTICE=true
source scripts/lib/serve.sh
curl -sf "http://127.0.0.1:$PORT/.well-known/openapi.json" -o "$WORK/openapi.json"
echo "== Redocly"
npx --offline redocly lint --config redocly.yaml --format stylish "$WORK/openapi.json"
echo "== Spectral (spectral:oas)"
npx --offline spectral lint --ruleset .spectral.yaml --fail-severity error "$WORK/openapi.json"
