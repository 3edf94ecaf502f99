"""How closely the engine keeps movetime: go movetime 100/300/1000, three each, timed from
sending go to reading bestmove. Usage: python3 bench/movetime.py [path/to/awari]"""
import subprocess, sys, time
p = subprocess.Popen([sys.argv[1] if len(sys.argv) > 1 else "target/release/awari"], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)
def send(l): p.stdin.write(l + "\n"); p.stdin.flush()
for mt in [100, 300, 1000]:
  res = []
  for i in range(3):
    send("position startpos moves FfEa"); t = time.monotonic(); send(f"go movetime {mt}")
    while not p.stdout.readline().startswith("bestmove"): pass
    res.append((time.monotonic() - t) * 1000)
  print(f"movetime {mt}: bestmove after " + ", ".join(f"{x:.1f}" for x in res) + " ms (MoveOverhead 10)")
send("quit")
