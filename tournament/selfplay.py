"""A stopgap match between two engine builds until the referee lands: all 36 two-ply oware
openings, each played twice with colours swapped (72 games), `go movetime MS` per move, the
first engine also judging game ends through `d`. Standard library only.

Usage: python3 tournament/selfplay.py ENGINE_A ENGINE_B MOVETIME_MS
"""
import subprocess, sys, itertools
A, B, mt = sys.argv[1], sys.argv[2], int(sys.argv[3])
def start(path):
    p = subprocess.Popen([path], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)
    return p
def send(p, l): p.stdin.write(l + "\n"); p.stdin.flush()
def until(p, prefix):
    while True:
        l = p.stdout.readline()
        if not l: raise RuntimeError("eof")
        if l.startswith(prefix): return l.strip()
engines = {"A": start(A), "B": start(B)}
judge = start(A)
def over(moves):
    send(judge, f"position startpos moves {moves}"); send(judge, "d"); 
    while True:
        l = until(judge, "")
        if l.startswith("Game over:"): return l
        if " to move; legal moves" in l: return None
score = {"A": 0.0, "B": 0.0}; wdl = [0,0,0]
openings = ["".join(p) for p in itertools.product("ABCDEF", "abcdef")]
for o in openings:
    for south in ("A", "B"):
        north = "B" if south == "A" else "A"
        for e in engines.values(): send(e, "ucinewgame")
        moves = o; res = over(moves); ply = 2
        while res is None and ply < 400:
            side = south if ply % 2 == 0 else north
            e = engines[side]
            send(e, f"position startpos moves {moves}"); send(e, f"go movetime {mt}")
            m = until(e, "bestmove").split()[1]
            moves += m; ply += 1; res = over(moves)
        if res is None or "draw" in res.lower(): score["A"] += .5; score["B"] += .5; wdl[1] += 1
        elif "South wins" in res: score[south] += 1; wdl[0 if south=="A" else 2] += 1
        else: score[north] += 1; wdl[0 if north=="A" else 2] += 1
    print(o, score, "A W/D/L", wdl, flush=True)
