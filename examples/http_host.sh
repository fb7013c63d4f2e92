#!/usr/bin/env bash
# An any-language host over the unfold HTTP API, with curl and jq.
#
# It speaks MCP over Streamable HTTP to a real server (server-everything from npm, started here
# unless MCP_URL names one), sends the catalogue to unfold once (then its catalogHash as
# catalogRef), plays one scripted model turn (search -> describe -> execute), runs the resolved tool
# on the MCP server itself and posts the upstream result back to unfold for the model's text.
#
# Run (with `deno task start` serving on 127.0.0.1:8787):  bash examples/http_host.sh
# Environment: UNFOLD_URL (default http://127.0.0.1:8787), UNFOLD_API_TOKEN, MCP_URL (a Streamable
# HTTP MCP endpoint), MCP_PORT (for the server started here, default 3917), DENO (its deno binary).
set -euo pipefail

for needed in curl jq; do
  command -v "$needed" >/dev/null || { echo "http_host.sh needs $needed" >&2; exit 1; }
done
root=$(cd "$(dirname "$0")/.." && pwd)
UNFOLD_URL=${UNFOLD_URL:-http://127.0.0.1:8787}
session="sh-host-$$"
auth=()
if [ -n "${UNFOLD_API_TOKEN:-}" ]; then auth=(-H "authorization: Bearer $UNFOLD_API_TOKEN"); fi

# unfold METHOD PATH [BODY [CODE]]: one API call; a problem+json answer is printed and ends the host
# (exit 1), unless its code is CODE: then it returns 3 and prints nothing.
unfold() {
  local out status
  out=$(curl -sS -w '\n%{http_code}' -X "$1" "${auth[@]}" -H 'content-type: application/json' \
    "$UNFOLD_URL$2" ${3:+--data-binary "$3"})
  status=${out##*$'\n'}
  out=${out%$'\n'*}
  if [ "$status" -ge 400 ]; then
    if [ -n "${4:-}" ] && [ "$(jq -r .code <<<"$out")" = "$4" ]; then return 3; fi
    echo "unfold answered $status: $(jq -r '"\(.code): \(.detail)"' <<<"$out")" >&2
    exit 1
  fi
  printf '%s' "$out"
}

# with_catalogue PATH BODY: sets $answer to unfold's answer to BODY with the catalogue: by
# reference (catalogRef: a few hundred bytes) once unfold has given its catalogHash, else in full;
# a 409 catalog_unknown (the server no longer holds it) sends it in full once more.
catalog_ref=""
sizes=()
with_catalogue() {
  local body
  if [ -n "$catalog_ref" ]; then
    body=$(jq -c --arg r "$catalog_ref" '. + {catalogRef: $r}' <<<"$2")
    if answer=$(unfold POST "$1" "$body" catalog_unknown); then
      sizes+=("${#body}")
      return
    elif [ $? -ne 3 ]; then
      exit 1
    fi
  fi
  body=$(jq -c --argjson c "$catalog" '. + {catalog: $c}' <<<"$2")
  answer=$(unfold POST "$1" "$body")
  sizes+=("${#body}")
  catalog_ref=$(jq -r .catalogHash <<<"$answer")
}

# The MCP server: the one at MCP_URL, or server-everything started here in streamableHttp mode.
if [ -z "${MCP_URL:-}" ]; then
  port=${MCP_PORT:-3917}
  PORT=$port "${DENO:-deno}" run -A --quiet --config "$root/deno.json" \
    npm:@modelcontextprotocol/server-everything streamableHttp >/dev/null 2>&1 &
  mcp_pid=$!
  trap 'kill $mcp_pid 2>/dev/null; wait $mcp_pid 2>/dev/null || true' EXIT
  MCP_URL="http://127.0.0.1:$port/mcp"
  for _ in $(seq 1 120); do
    curl -s -o /dev/null "http://127.0.0.1:$port/" && break
    sleep 0.25
  done
fi

# mcp METHOD PARAMS: one JSON-RPC request over Streamable HTTP; prints its result (the answer may
# come as JSON or as server-sent events).
rpc_id=0
mcp_session=()
mcp() {
  rpc_id=$((rpc_id + 1))
  local body answer
  body=$(jq -nc --arg m "$1" --argjson p "$2" --argjson id "$rpc_id" \
    '{jsonrpc: "2.0", id: $id, method: $m, params: $p}')
  answer=$(curl -sS -D "$headers" -H 'content-type: application/json' \
    -H 'accept: application/json, text/event-stream' "${mcp_session[@]}" "$MCP_URL" -d "$body" |
    sed -n -e 's/^data: //p;t' -e '/^{/p' | jq -c --argjson id "$rpc_id" 'select(.id == $id)')
  if jq -e '.error' <<<"$answer" >/dev/null; then
    echo "MCP $1 failed: $(jq -r '.error.message' <<<"$answer")" >&2
    exit 1
  fi
  jq -c '.result' <<<"$answer"
}
headers=$(mktemp)
info=$(mcp initialize '{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"unfold-sh-host","version":"0.1.0"}}')
sid=$(grep -i '^mcp-session-id:' "$headers" | cut -d' ' -f2 | tr -d '\r' || true)
if [ -n "$sid" ]; then mcp_session=(-H "mcp-session-id: $sid" -H 'mcp-protocol-version: 2025-06-18'); fi
curl -sS -o /dev/null -H 'content-type: application/json' -H 'accept: application/json, text/event-stream' \
  "${mcp_session[@]}" "$MCP_URL" -d '{"jsonrpc":"2.0","method":"notifications/initialized"}'
catalog=$(mcp tools/list '{}' | jq -c '[.tools[] | . + {server: "everything"}]')
echo "Connected $(jq -r '.serverInfo.name' <<<"$info") over Streamable HTTP: $(jq length <<<"$catalog") tools"

# route ARGUMENTS: one model call of the bridge tool, routed by unfold within the session; sets
# $answer.
route() {
  with_catalogue /v1/route "$(jq -nc --arg s "$session" --argjson a "$1" \
    '{session: $s, arguments: $a}')"
}

with_catalogue /v1/inject "$(jq -nc --arg s "$session" \
  '{session: $s, budget: {availableContextTokens: 8000}}')"
injection=$answer
echo
jq -r '.injection | "== Injection at 8,000 tokens: level \"\(.mode)\", \(.promptTokens) of \(.inventoryBudgetTokens) tokens\n\(.prompt)"' <<<"$injection"

echo
echo "== A model turn"
call='{"action":"search","query":"echo a message back"}'
echo "> $call"
route "$call"
found=$answer
echo "< [search] $(jq -r .toolResult <<<"$found")"
best=$(jq -r '.matches[0].id' <<<"$found")

call=$(jq -nc --arg n "$best" '{action: "describe", name: $n}')
echo "> $call"
route "$call"
echo "< [describe] $(jq -r .toolResult <<<"$answer")"

call=$(jq -nc --arg n "$best" '{action: "execute", name: $n, arguments: {message: "hello from bash"}}')
echo "> $call"
route "$call"
routed=$answer
if [ "$(jq -r .action <<<"$routed")" = execute ]; then
  # The host authorises and runs the resolved tool itself.
  result=$(mcp tools/call "$(jq -c '{name: .tool.name, arguments: .arguments}' <<<"$routed")")
  mapped=$(unfold POST /v1/result "$(jq -nc --arg s "$session" --arg t "$(jq -r .id <<<"$routed")" \
    --argjson r "$result" '{session: $s, tool: $t, result: $r}')")
  echo "< [execute $(jq -r .id <<<"$routed")] $(jq -r 'if (.toolResult | type) == "string" then .toolResult else (.toolResult | tojson) end' <<<"$mapped")"
else
  echo "< [$(jq -r .action <<<"$routed")] $(jq -r .toolResult <<<"$routed")"
fi

call='{"action":"describe","name":"echo"}'
echo "> $call"
route "$call"
echo "< [error] $(jq -r .toolResult <<<"$answer")"

echo
by_ref=$(printf '%s\n' "${sizes[@]:1}" | sort -n | tail -1)
echo "== Request bodies: ${sizes[0]} bytes with the catalogue, then $by_ref at most by reference"
unfold GET "/v1/sessions/$session" |
  jq -r '"== Session \(.session): generation \(.generation), described \(.described | tojson)\ncounters \(.counters | tojson)"'
unfold DELETE "/v1/sessions/$session" >/dev/null
rm -f "$headers"
