#!/usr/bin/env python3
"""Run Codex 0.169.0 offline on one plugin folder: install it from a scratch local
marketplace, then ask app-server for plugin/read and hooks/list. Usage:
oracle.py PLUGIN_DIR NAME [extra-config-toml-file]"""
import json, os, shutil, subprocess, sys, tempfile
CX = os.environ["CODEX_BIN"]  # the codex-linux-x64 binary of @openai/codex@0.169.0
src, name = sys.argv[1], sys.argv[2]
extra = open(sys.argv[3]).read() if len(sys.argv) > 3 else ""
work = tempfile.mkdtemp(prefix="cxo-", dir=os.environ.get("ORACLE_TMP", "/tmp"))
home = os.path.join(work, "home"); codex_home = os.path.join(home, ".codex")
os.makedirs(codex_home)
mp = os.path.join(work, "mp")
shutil.copytree(src, os.path.join(mp, "plugins", name), symlinks=True)
os.makedirs(os.path.join(mp, ".agents", "plugins"))
json.dump({"name": "oracle", "plugins": [{"name": name, "source": {"source": "local", "path": "./plugins/" + name},
  "policy": {"installation": "AVAILABLE", "authentication": "ON_INSTALL"}, "category": "Coding"}]},
  open(os.path.join(mp, ".agents", "plugins", "marketplace.json"), "w"))
env = dict(os.environ, HOME=home, CODEX_HOME=codex_home, SHELL="/bin/sh")
def run(*a):
    p = subprocess.run(["unshare", "-rn", CX, *a], env=env, capture_output=True, text=True, timeout=120)
    return p.returncode, p.stdout + p.stderr
out = {}
out["marketplace_add"] = run("plugin", "marketplace", "add", mp)
out["plugin_add"] = run("plugin", "add", name + "@oracle")
if extra:
    with open(os.path.join(codex_home, "config.toml"), "a") as f: f.write("\n" + extra)
msgs = [
 {"jsonrpc":"2.0","id":1,"method":"initialize","params":{"clientInfo":{"name":"oracle","version":"0"}}},
 {"jsonrpc":"2.0","method":"initialized"},
 {"jsonrpc":"2.0","id":2,"method":"hooks/list","params":{"cwds":[work]}},
 {"jsonrpc":"2.0","id":3,"method":"plugin/read","params":{"pluginName":name,"marketplacePath":os.path.join(mp,".agents","plugins","marketplace.json")}},
]
p = subprocess.Popen(["unshare","-rn",CX,"app-server"], env=env, cwd=work, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
got = {}
import select, time
for m in msgs:
    p.stdin.write(json.dumps(m)+"\n"); p.stdin.flush()
deadline = time.time()+60
while time.time() < deadline and not (2 in got and 3 in got):
    r,_,_ = select.select([p.stdout],[],[],1)
    if r:
        line = p.stdout.readline()
        if not line: break
        try: d = json.loads(line)
        except Exception: continue
        if "id" in d and d["id"] in (1,2,3): got[d["id"]] = d.get("result") if "result" in d else {"error": d.get("error")}
p.kill(); out["stderr"] = p.stderr.read()[-3000:] if not (2 in got and 3 in got) else ""
out["hooks_list"] = got.get(2); out["plugin_read"] = got.get(3)
out["config"] = open(os.path.join(codex_home,"config.toml")).read() if os.path.exists(os.path.join(codex_home,"config.toml")) else ""
out["install_root"] = os.path.join(codex_home, "plugins", "cache", "oracle", name)
print(json.dumps(out, indent=1))
