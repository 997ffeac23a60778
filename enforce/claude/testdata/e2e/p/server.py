# The e2e plugin's MCP server (stdio JSON-RPC): one tool, "query", whose call appends
# "called db" to $E2E_MARKS, so the check sees whether a call reached the server.
import json, os, sys
for line in sys.stdin:
    m = json.loads(line)
    mid, meth = m.get("id"), m.get("method")
    if meth == "initialize":
        r = {"protocolVersion": m["params"].get("protocolVersion", "2024-11-05"), "capabilities": {"tools": {}}, "serverInfo": {"name": "db", "version": "1"}}
    elif meth == "tools/list":
        r = {"tools": [{"name": "query", "description": "query the db", "inputSchema": {"type": "object", "properties": {}}}]}
    elif meth == "tools/call":
        open(os.environ["E2E_MARKS"], "a").write("called db\n")
        r = {"content": [{"type": "text", "text": "rows"}]}
    elif mid is None:
        continue
    else:
        r = {}
    sys.stdout.write(json.dumps({"jsonrpc": "2.0", "id": mid, "result": r}) + "\n"); sys.stdout.flush()
