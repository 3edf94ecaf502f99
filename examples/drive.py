#!/usr/bin/env python3
"""Drive the awari engine over pipes: start it, set a position, search, read the best move.

Standard library only. Usage: python3 examples/drive.py [path/to/awari]
(default: target/release/awari; build it with `cargo build --release`).
"""
import subprocess
import sys

engine_path = sys.argv[1] if len(sys.argv) > 1 else "target/release/awari"
engine = subprocess.Popen(
    [engine_path],
    stdin=subprocess.PIPE,
    stdout=subprocess.PIPE,
    text=True,
    bufsize=1,  # line-buffered: each command goes out as soon as it is written
)


def send(line: str) -> None:
    assert engine.stdin is not None
    engine.stdin.write(line + "\n")
    engine.stdin.flush()


def read_until(prefix: str) -> str:
    """Returns the first line starting with prefix, echoing the info lines before it."""
    assert engine.stdout is not None
    while True:
        line = engine.stdout.readline()
        if not line:
            raise RuntimeError("the engine closed its output")
        line = line.strip()
        if line.startswith(prefix):
            return line
        if line.startswith("info depth"):
            print("  " + line)


send("uci")
print(read_until("id name"))
read_until("uciok")
send("setoption name UCI_Variant value oware")
send("position startpos moves FfEa")  # moves concatenated, as Aualé writes them
send("isready")
read_until("readyok")
send("go movetime 200")
best = read_until("bestmove").split()[1]
print("best move:", best)
send("quit")
engine.wait(timeout=5)
