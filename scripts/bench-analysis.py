"""Throughput of `triad analysis` with a network: 100 Connect Four queries
at 200 visits piped at once (searches batched through the network) against
one at a time, the two ways alternating over three rounds; medians and
spreads (docs/analysis.md, "Several queries at once").

Usage: python3 scripts/bench-analysis.py CHECKPOINT [TRIAD]
(TRIAD defaults to target/release/triad; run from the repository's root)."""
import json, subprocess, sys, time, statistics
if len(sys.argv) < 2:
    sys.exit(__doc__)
T = sys.argv[2] if len(sys.argv) > 2 else "target/release/triad"
NET = f"net:{sys.argv[1]},sims=200"
pos = [l.split()[0] for l in open("benchmarks/connect4/Test_L2_R1").read().splitlines()[:100]]
queries = [json.dumps({"id": str(i), "initialPosition": p, "maxVisits": 200}) for i, p in enumerate(pos)]
def start():
    return subprocess.Popen([T, "analysis", "--game", "connect4", "--player", NET], stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True, bufsize=1)
def batched():
    p = start(); t = time.time()
    out, _ = p.communicate("\n".join(queries) + "\n")
    dt = time.time() - t
    ans = [json.loads(l) for l in out.splitlines()]
    assert sorted(a["id"] for a in ans) == sorted(str(i) for i in range(100)), "ids"
    assert all("error" not in a for a in ans)
    return dt
def one_at_a_time():
    p = start(); t = time.time()
    for q in queries:
        p.stdin.write(q + "\n"); p.stdin.flush()
        a = json.loads(p.stdout.readline()); assert "error" not in a
    p.stdin.close(); p.wait()
    return time.time() - t
b, o = [], []
for r in range(3):
    b.append(batched()); o.append(one_at_a_time())
    print(f"round {r}: batched {b[-1]:.2f} s, one at a time {o[-1]:.2f} s", flush=True)
print(f"batched: median {statistics.median(b):.2f} s ({100/statistics.median(b):.1f} queries/s), spread {min(b):.2f}-{max(b):.2f}")
print(f"one at a time: median {statistics.median(o):.2f} s ({100/statistics.median(o):.1f} queries/s), spread {min(o):.2f}-{max(o):.2f}")
