import json, os, re, sys
out = {}
import sys as _s; d0 = _s.argv[1]
for f in sorted(os.listdir(d0)):
    if not f.endswith(".json"): continue
    case = f[:-5]
    d = json.load(open(os.path.join(d0, f)))
    hl = d.get("hooks_list") or {}
    pr = (d.get("plugin_read") or {}).get("plugin") or {}
    def clean(s):
        return re.sub(r"/tmp/[^ /]*cxo-[^ /]+/home/.codex/plugins/cache/oracle/[^/ ]+/[^/ ]+", "<root>", re.sub(r"/tmp/[^ /]*cxo-[^ /]+/mp/plugins/[^/ ]+", "<source>", s))
    hooks = [{"key": h["key"].split(":",1)[1], "event": h["eventName"], "matcher": h["matcher"], "timeoutSec": h["timeoutSec"],
              "async": h["async"], "command": clean(h["command"] or ""), "definitionHash": h["currentHash"].split("/")[0]}
             for e in hl.get("data", []) for h in e["hooks"]]
    warnings = [clean(w) for e in hl.get("data", []) for w in e.get("warnings", []) + [str(x) for x in e.get("errors", [])]]
    ent = {"installed": d["plugin_add"][0] == 0, "hooks": hooks, "hookWarnings": warnings}
    if d["plugin_add"][0] != 0: ent["installError"] = [l for l in d["plugin_add"][1].split("\n") if l.startswith("Error:")][0]
    if pr:
        ent["skills"] = [s["name"] for s in pr.get("skills", [])]
        ent["mcpServers"] = pr.get("mcpServers")
        ent["apps"] = [a.get("name") or a.get("id") for a in pr.get("apps", [])]
        ent["version"] = pr["summary"].get("localVersion")
        ent["description"] = pr.get("description")
    out[case] = ent
json.dump(out, sys.stdout, indent=1, sort_keys=True)
