# A stand-in for the model API on 127.0.0.1 for scripts/claude-e2e: it answers the first
# request that offers the tool mcp__plugin_p_db__query with one call of it, and every
# other request with the text "done"; it logs each tool_result it receives. Usage:
#   python3 claude-e2e-model.py PORT_FILE LOG
import json, sys, http.server, threading
port_file, log = sys.argv[1], sys.argv[2]
TOOL = "mcp__plugin_p_db__query"
class H(http.server.BaseHTTPRequestHandler):
    def log_message(self, *a): pass
    def do_HEAD(self):
        self.send_response(200); self.end_headers()
    def do_GET(self):
        self.send_response(200); self.send_header("content-type","application/json"); self.end_headers(); self.wfile.write(b"{}")
    def do_POST(self):
        n = int(self.headers.get("content-length") or 0)
        body = json.loads(self.rfile.read(n) or b"{}")
        with open(log, "a") as f: f.write(self.path + "\n")
        if not self.path.startswith("/v1/messages") or "count_tokens" in self.path:
            self.send_response(200); self.send_header("content-type","application/json"); self.end_headers()
            self.wfile.write(b'{"input_tokens": 1}'); return
        msgs = body.get("messages", [])
        tools = [t.get("name") for t in body.get("tools", [])]
        last = msgs[-1] if msgs else {}
        had_result = isinstance(last.get("content"), list) and any(isinstance(c, dict) and c.get("type") == "tool_result" for c in last["content"])
        with open(log, "a") as f: f.write(json.dumps({"tools_has": TOOL in tools, "had_result": had_result}) + "\n")
        if had_result:
            for c in last["content"]:
                if isinstance(c, dict) and c.get("type") == "tool_result":
                    with open(log, "a") as f: f.write("RESULT " + json.dumps(c)[:2000] + "\n")
        use_tool = TOOL in tools and not had_result
        stream = body.get("stream", False)
        if use_tool:
            block = {"type": "tool_use", "id": "toolu_1", "name": TOOL, "input": {}}
            content = [block]; stop = "tool_use"
        else:
            content = [{"type": "text", "text": "done"}]; stop = "end_turn"
        msg = {"id": "msg_1", "type": "message", "role": "assistant", "model": body.get("model", "m"), "content": content,
               "stop_reason": stop, "stop_sequence": None, "usage": {"input_tokens": 1, "output_tokens": 1}}
        if not stream:
            data = json.dumps(msg).encode()
            self.send_response(200); self.send_header("content-type","application/json"); self.send_header("content-length", str(len(data))); self.end_headers(); self.wfile.write(data); return
        self.send_response(200); self.send_header("content-type","text/event-stream"); self.end_headers()
        def ev(t, d): self.wfile.write(("event: %s\ndata: %s\n\n" % (t, json.dumps(d))).encode())
        start = dict(msg, content=[], stop_reason=None)
        ev("message_start", {"type": "message_start", "message": start})
        if use_tool:
            ev("content_block_start", {"type": "content_block_start", "index": 0, "content_block": {"type": "tool_use", "id": "toolu_1", "name": TOOL, "input": {}}})
            ev("content_block_delta", {"type": "content_block_delta", "index": 0, "delta": {"type": "input_json_delta", "partial_json": "{}"}})
        else:
            ev("content_block_start", {"type": "content_block_start", "index": 0, "content_block": {"type": "text", "text": ""}})
            ev("content_block_delta", {"type": "content_block_delta", "index": 0, "delta": {"type": "text_delta", "text": "done"}})
        ev("content_block_stop", {"type": "content_block_stop", "index": 0})
        ev("message_delta", {"type": "message_delta", "delta": {"stop_reason": stop, "stop_sequence": None}, "usage": {"output_tokens": 1}})
        ev("message_stop", {"type": "message_stop"})
s = http.server.ThreadingHTTPServer(("127.0.0.1", 0), H)
open(port_file, "w").write(str(s.server_address[1]))
s.serve_forever()
