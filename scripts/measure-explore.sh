#!/usr/bin/env bash
# Measures the explorer on a big shard set (docs/explore.md): the index
# build time and memory, the latency of the first page's requests (median
# and range of 5), and, when chromedriver is installed, the time a real
# browser takes from navigation to the move table on screen.
#
#   scripts/measure-explore.sh [SHARD_DIR] [GAME] [POSITIONS]
#
# Without SHARD_DIR, synthetic shards of GAME (default connect4) with
# POSITIONS rows (default 10000000) are written first with `triad bench
# data` into a temporary directory (about 25 s and 210 MB for Connect Four).
set -euo pipefail
cd "$(dirname "$0")/.."
TRIAD=${TRIAD:-target/release/triad}
[ -x "$TRIAD" ] || { echo "build first: cargo build --release --bin triad" >&2; exit 2; }
GAME=${2:-connect4}
POSITIONS=${3:-10000000}
tmp=$(mktemp -d)
cleanup() { [ -n "${server:-}" ] && kill "$server" 2>/dev/null; [ -n "${driver:-}" ] && kill "$driver" 2>/dev/null; rm -rf "$tmp"; }
trap cleanup EXIT
dir=${1:-}
if [ -z "$dir" ]; then
    dir=$tmp/shards
    echo "writing $POSITIONS synthetic $GAME positions to $dir" >&2
    "$TRIAD" bench data --game "$GAME" --positions "$POSITIONS" --shard-rows 250000 --dir "$dir" --json >/dev/null
fi
echo "== index (triad explore --index-only), peak memory" >&2
/usr/bin/time -f "peak_rss_kb=%M wall_s=%e" "$TRIAD" explore "$dir" --index-only 2>&1 | grep -E "indexed|peak_rss|index_seconds"

"$TRIAD" explore "$dir" --port 0 2>"$tmp/server.err" >/dev/null &
server=$!
for _ in $(seq 600); do grep -q listening "$tmp/server.err" && break; sleep 0.1; done
base=$(grep -o 'http://127.0.0.1:[0-9]*' "$tmp/server.err")
root_move=$(curl -s "$base/api/position?start=0&line=" | python3 -c "import json,sys; print(json.load(sys.stdin)['moves'][0]['code'])")
echo "== request latency, seconds: median [min, max] of 5" >&2
for path in "/" "/api/info" "/api/position?start=0&line=" "/api/position?start=0&line=&by=line" "/api/position?start=0&line=$root_move" "/api/game?index=0"; do
    times=$(for _ in 1 2 3 4 5; do curl -s -o /dev/null -w '%{time_total}\n' "$base$path"; done | sort -n)
    echo "$path: $(echo "$times" | sed -n 3p) [$(echo "$times" | head -1), $(echo "$times" | tail -1)]"
done

if command -v chromedriver >/dev/null && command -v chromium >/dev/null; then
    echo "== browser: navigation to the move table on screen (headless Chromium), 5 loads" >&2
    port=$(python3 -c "import socket; s=socket.socket(); s.bind(('127.0.0.1',0)); print(s.getsockname()[1])")
    chromedriver --port="$port" >/dev/null 2>&1 &
    driver=$!
    python3 - "$port" "$base" <<'EOF'
import json, sys, time, urllib.request
port, base = sys.argv[1], sys.argv[2]
wd = f"http://127.0.0.1:{port}"
def call(method, path, body=None):
    req = urllib.request.Request(wd + path, method=method, data=None if body is None else json.dumps(body).encode(), headers={"Content-Type": "application/json"})
    return json.load(urllib.request.urlopen(req))["value"]
for _ in range(100):
    try:
        call("GET", "/status"); break
    except Exception:
        time.sleep(0.1)
caps = {"capabilities": {"alwaysMatch": {"goog:chromeOptions": {"args": ["--headless=new", "--no-sandbox", "--disable-gpu", "--window-size=1300,1000"]}}}}
sid = call("POST", "/session", caps)["sessionId"]
times = []
for _ in range(5):
    call("POST", f"/session/{sid}/url", {"url": "about:blank"})
    call("POST", f"/session/{sid}/url", {"url": base + "/"})
    for _ in range(200):
        t = call("POST", f"/session/{sid}/execute/sync", {"script": "return document.querySelector('#moves tbody tr[data-code]') ? performance.now() : null", "args": []})
        if t is not None:
            times.append(t / 1000); break
        time.sleep(0.02)
call("DELETE", f"/session/{sid}")
times.sort()
print(f"first page, navigation start to move table: median {times[2]:.3f} s [{times[0]:.3f}, {times[-1]:.3f}] (polled every 20 ms)")
EOF
fi
