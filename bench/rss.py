"""Peak resident memory of the engine for a Hash size after a 4 s search (Linux /proc).
Usage: python3 bench/rss.py HASH_MB [path/to/awari]"""
import subprocess, sys, time
hash_mb = sys.argv[1]
p = subprocess.Popen([sys.argv[2] if len(sys.argv) > 2 else "target/release/awari"], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)
def send(l): p.stdin.write(l + "\n"); p.stdin.flush()
send(f"setoption name Hash value {hash_mb}")
send("position startpos"); send("go movetime 4000")
last = ""
while True:
    l = p.stdout.readline()
    if l.startswith("info depth"): last = l
    if l.startswith("bestmove"): break
hwm = [x for x in open(f"/proc/{p.pid}/status") if x.startswith(("VmHWM", "VmRSS"))]
send("quit"); p.wait()
print(hash_mb, "MiB:", " ".join(h.split()[0] + h.split()[1] + "kB" for h in hwm), "|", last.split(" pv")[0].strip())
