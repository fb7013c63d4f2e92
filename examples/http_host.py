#!/usr/bin/env python3
"""An any-language host over the unfold HTTP API, with the Python standard library only.

It speaks MCP over stdio to a real server (server-everything from npm), sends the catalogue to
unfold once (then only its catalogHash, as catalogRef), plays one scripted model turn (search ->
describe -> execute), runs the resolved tool on the MCP server itself, and posts the upstream
result back to unfold for the model's text.

Run (with `deno task start` serving on 127.0.0.1:8787):

    python3 examples/http_host.py [mcp server command ...]

Environment: UNFOLD_URL (default http://127.0.0.1:8787), UNFOLD_API_TOKEN (when the API needs
one), DENO (the deno binary that starts the default server).
"""

import json
import os
import queue
import subprocess
import sys
import threading
import urllib.error
import urllib.request

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
UNFOLD_URL = os.environ.get("UNFOLD_URL", "http://127.0.0.1:8787").rstrip("/")
TOKEN = os.environ.get("UNFOLD_API_TOKEN")
SESSION = f"py-host-{os.getpid()}"


class StdioMcp:
    """A minimal MCP client: JSON-RPC 2.0, one message per line, over a child's stdin/stdout."""

    def __init__(self, command):
        self.process = subprocess.Popen(
            command, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL, text=True, bufsize=1,
        )
        self.messages = queue.Queue()
        self.next_id = 0
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self):
        for line in self.process.stdout:
            if line.strip():
                self.messages.put(json.loads(line))
        self.messages.put(None)

    def _send(self, message):
        self.process.stdin.write(json.dumps(message) + "\n")
        self.process.stdin.flush()

    def request(self, method, params, timeout=60):
        self.next_id += 1
        self._send({"jsonrpc": "2.0", "id": self.next_id, "method": method, "params": params})
        while True:
            message = self.messages.get(timeout=timeout)
            if message is None:
                raise RuntimeError(f"the MCP server exited during {method}")
            if "method" in message and "id" in message:  # a request from the server
                reply = {"result": {}} if message["method"] == "ping" else {
                    "error": {"code": -32601, "message": "Method not found"}}
                self._send({"jsonrpc": "2.0", "id": message["id"], **reply})
            elif message.get("id") == self.next_id:
                if "error" in message:
                    raise RuntimeError(f"{method}: {message['error'].get('message')}")
                return message["result"]
            # anything else is a notification: not needed here

    def notify(self, method, params=None):
        self._send({"jsonrpc": "2.0", "method": method, **({"params": params} if params else {})})

    def close(self):
        self.process.stdin.close()
        try:
            self.process.wait(timeout=5)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()


def unfold(method, path, body=None, tolerate=()):
    """Calls the unfold API; a problem+json error is printed and ends the host, unless its code is
    one the caller handles (then the problem is returned as {"problem": ...})."""
    request = urllib.request.Request(
        UNFOLD_URL + path, method=method,
        data=None if body is None else json.dumps(body).encode(),
        headers={"content-type": "application/json",
                 **({"authorization": f"Bearer {TOKEN}"} if TOKEN else {})},
    )
    try:
        with urllib.request.urlopen(request, timeout=60) as response:
            text = response.read().decode()
            return json.loads(text) if text else None
    except urllib.error.HTTPError as error:
        problem = json.loads(error.read().decode() or "{}")
        if problem.get("code") in tolerate:
            return {"problem": problem}
        sys.exit(f"unfold answered {error.code} {problem.get('code')}: {problem.get('detail')}")


class Catalogue:
    """Sends the catalogue once, then only its catalogHash as catalogRef (a few hundred bytes a
    request instead of the whole catalogue); if the server no longer holds it (409
    catalog_unknown: evicted, restarted, another Worker isolate), sends it once more."""

    def __init__(self, tools):
        self.tools = tools
        self.ref = None
        self.sizes = []

    def post(self, path, body):
        if self.ref is not None:
            request = {**body, "catalogRef": self.ref}
            answer = unfold("POST", path, request, tolerate=("catalog_unknown",))
            if "problem" not in answer:
                self.sizes.append(len(json.dumps(request)))
                return answer
        request = {**body, "catalog": self.tools}
        answer = unfold("POST", path, request)
        self.sizes.append(len(json.dumps(request)))
        self.ref = answer["catalogHash"]
        return answer


def main():
    command = sys.argv[1:] or [
        os.environ.get("DENO", "deno"), "run", "-A", "--quiet",
        "--config", os.path.join(ROOT, "deno.json"),
        "npm:@modelcontextprotocol/server-everything", "stdio",
    ]
    mcp = StdioMcp(command)
    try:
        info = mcp.request("initialize", {
            "protocolVersion": "2025-06-18", "capabilities": {},
            "clientInfo": {"name": "unfold-python-host", "version": "0.1.0"},
        })
        mcp.notify("notifications/initialized")
        tools, cursor = [], None
        while True:
            page = mcp.request("tools/list", {"cursor": cursor} if cursor else {})
            tools += page["tools"]
            cursor = page.get("nextCursor")
            if not cursor:
                break
        server = "everything"
        catalog = [{**tool, "server": server} for tool in tools]
        print(f"Connected {info['serverInfo']['name']} over stdio: {len(catalog)} tools")

        catalogue = Catalogue(catalog)
        base = {"session": SESSION}
        injection = catalogue.post("/v1/inject", {**base, "budget": {"availableContextTokens": 8000}})
        injection = injection["injection"]
        print(f"\n== Injection at 8,000 tokens: level \"{injection['mode']}\", "
              f"{injection['promptTokens']} of {injection['inventoryBudgetTokens']} tokens")
        print(injection["prompt"])

        print("\n== A model turn")
        calls = [
            {"action": "search", "query": "add two numbers"},
            None,  # describe the best match
            None,  # execute it
            '{"action":"execute","name":"get-sum"}',  # a model mistake: a bare name
        ]
        best = None
        for step, call in enumerate(calls):
            if step == 1:
                call = {"action": "describe", "name": best}
            elif step == 2:
                call = {"action": "execute", "name": best, "arguments": {"a": 2, "b": 3}}
            print(f"> {call if isinstance(call, str) else json.dumps(call)}")
            routed = catalogue.post("/v1/route", {**base, "arguments": call})
            if routed["action"] == "search":
                best = routed["matches"][0]["id"]
            if routed["action"] == "execute":
                # The host authorises and runs the resolved tool itself.
                tool = routed["tool"]
                result = mcp.request("tools/call", {"name": tool["name"], "arguments": routed["arguments"]})
                mapped = unfold("POST", "/v1/result", {"session": SESSION, "tool": routed["id"], "result": result})
                text = mapped["toolResult"] if isinstance(mapped["toolResult"], str) else json.dumps(mapped["toolResult"])
                print(f"< [execute {routed['id']}{', error' if mapped['isError'] else ''}] {text}")
            else:
                print(f"< [{routed['action']}] {routed['toolResult']}")

        print(f"\n== Request bodies: {catalogue.sizes[0]} bytes with the catalogue, then "
              f"{max(catalogue.sizes[1:])} at most by reference")
        stats = unfold("GET", f"/v1/sessions/{SESSION}")
        print(f"\n== Session {SESSION}: generation {stats['generation']}, described {stats['described']}")
        print(f"counters {json.dumps(stats['counters'], sort_keys=True)}")
        unfold("DELETE", f"/v1/sessions/{SESSION}")
    finally:
        mcp.close()


if __name__ == "__main__":
    main()
