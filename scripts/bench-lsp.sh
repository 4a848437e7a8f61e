#!/usr/bin/env bash
# The language server's figures (README, "salta lsp"): speed from benches/lsp.rs (medians of
# repeated edits and opens, plain output), then the memory of a real `salta lsp` process that
# opens a 10 MB file, from its peak resident set (VmHWM), against the file's size.
# Usage: scripts/bench-lsp.sh [COPIES]   (COPIES of corpus/synthetic, default 80: 5,440 games, 10.1 MB)
set -euo pipefail
cd "$(dirname "$0")/.."
copies=${1:-80}
echo "load: $(uptime)"
SALTA_BENCH_REPORT=1 cargo bench --bench lsp 2>/dev/null
cargo build --release --quiet
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
for i in $(seq "$copies"); do
  for f in corpus/synthetic/*.sgn; do
    sed "s/\[Event \"/[Event \"$i: /" "$f"
    printf '\n'
  done
done > "$dir/big.sgn"
python3 - "$dir/big.sgn" target/release/salta <<'PY'
import json, subprocess, sys, time
path, salta = sys.argv[1], sys.argv[2]
text = open(path, encoding="utf-8").read()

def run(doc):
    p = subprocess.Popen([salta, "lsp"], stdin=subprocess.PIPE, stdout=subprocess.PIPE)
    def send(msg):
        body = json.dumps(msg).encode()
        p.stdin.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
        p.stdin.flush()
    def receive():
        length = 0
        while True:
            line = p.stdout.readline()
            if line in (b"\r\n", b""):
                break
            if line.lower().startswith(b"content-length:"):
                length = int(line.split(b":")[1])
        return json.loads(p.stdout.read(length))
    send({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {"capabilities": {}}})
    receive()
    send({"jsonrpc": "2.0", "method": "initialized", "params": {}})
    start = time.monotonic()
    send({"jsonrpc": "2.0", "method": "textDocument/didOpen", "params": {"textDocument": {
        "uri": "file:///big.sgn", "languageId": "sgn", "version": 1, "text": doc}}})
    while True:
        m = receive()
        if m.get("method") == "textDocument/publishDiagnostics":
            break
    opened = time.monotonic() - start
    hwm = next(int(l.split()[1]) for l in open(f"/proc/{p.pid}/status") if l.startswith("VmHWM"))
    send({"jsonrpc": "2.0", "id": 2, "method": "shutdown"})
    receive()
    send({"jsonrpc": "2.0", "method": "exit"})
    p.wait(timeout=30)
    return opened, hwm

_, empty = run("")
opened, hwm = run(text)
size = len(text.encode())
print(f"salta lsp, {size / 1e6:.1f} MB file: opened and published in {opened:.2f} s; "
      f"peak RSS {hwm / 1024:.1f} MB ({hwm * 1024 / size:.2f}x the file), "
      f"{(hwm - empty) / 1024:.1f} MB above an empty document's {empty / 1024:.1f} MB "
      f"({(hwm - empty) * 1024 / size:.2f}x)")
PY
