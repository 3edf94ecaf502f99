"""Peak resident memory of `awari tables build`, in bytes per position of the largest layer,
and per layer (the resident memory sampled every 20 ms while each layer is solved).

Usage: python3 bench/tables_rss.py [--bin target/release/awari] [--variant oware] --seeds N
           [--threads 2] [--dir D] [--from DIR]
--from DIR copies the layers below the top one from DIR (built before, e.g. by this script)
so that only the top layer is solved; without --dir a fresh temporary directory is used and
removed. The peak is the kernel's (wait4's ru_maxrss), over the whole process; the per-layer
figures are samples of VmRSS, so a short spike between two samples can be missed. The
anonymous peak (RssAnon, sampled the same way) leaves out file pages: the program's own code
and the smaller layers' mapped files."""
import argparse, math, os, re, shutil, subprocess, sys, tempfile, threading, time

ap = argparse.ArgumentParser()
ap.add_argument("--bin", default="target/release/awari")
ap.add_argument("--variant", default="oware")
ap.add_argument("--seeds", type=int, required=True)
ap.add_argument("--threads", type=int, default=2)
ap.add_argument("--dir")
ap.add_argument("--from", dest="source")
ap.add_argument("--log", help="write the build's own output here")
a = ap.parse_args()

size = lambda n: math.comb(n + 11, 11)
tmp = None
d = a.dir or (tmp := tempfile.mkdtemp(prefix="tables-rss-"))
os.makedirs(d, exist_ok=True)
if a.source:
    for n in range(a.seeds):
        name = f"{a.variant}-{n:02}.awtb"
        shutil.copyfile(os.path.join(a.source, name), os.path.join(d, name))

# The build keeps the layers already there and solves from the first one missing.
first = next((n for n in range(a.seeds + 1)
              if not os.path.exists(os.path.join(d, f"{a.variant}-{n:02}.awtb"))), a.seeds + 1)
start = time.time()
p = subprocess.Popen([a.bin, "tables", "build", "--variant", a.variant, "--seeds", str(a.seeds),
                      "--threads", str(a.threads), "--dir", d],
                     stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, bufsize=1)
done = {}  # layer -> (seconds, evaluations per position)
kept = set()
lines = []

def read():
    for line in p.stdout:
        lines.append(line)
        m = re.match(r"layer\s+(\d+):.*?passes.*?([\d.]+) s,.*?([\d.]+) evaluations per position", line)
        if m:
            done[int(m.group(1))] = (float(m.group(2)), float(m.group(3)))

reader = threading.Thread(target=read)
reader.start()
peak = {}  # layer -> sampled peak VmRSS in bytes
anon = (0, 0)  # the sampled peak of RssAnon (the process's own memory), and RssFile then
while True:
    pid, status, usage = os.wait4(p.pid, os.WNOHANG)
    if pid:
        break
    try:
        with open(f"/proc/{p.pid}/status") as f:
            fields = {l.split(":")[0]: int(l.split()[1]) * 1024 for l in f
                      if l.startswith(("VmRSS", "RssAnon", "RssFile", "RssShmem"))}
        rss = fields["VmRSS"]
    except (OSError, KeyError, ValueError):
        rss, fields = 0, {}
    layer = max(done) + 1 if done else first
    peak[layer] = max(peak.get(layer, 0), rss)
    if fields.get("RssAnon", 0) > anon[0]:
        anon = (fields["RssAnon"], fields.get("RssFile", 0))
    time.sleep(0.02)
p.returncode = status
reader.join()
wall = time.time() - start
if status != 0:
    sys.stdout.write("".join(lines))
    sys.exit(f"build failed: status {status}")
hwm = usage.ru_maxrss * 1024
top = size(a.seeds)
print(f"{a.variant} --seeds {a.seeds} --threads {a.threads} ({a.bin}): wall {wall:.1f} s, "
      f"user {usage.ru_utime:.1f} s, sys {usage.ru_stime:.1f} s, load {os.getloadavg()[0]:.1f}")
print(f"{'layer':>5} {'positions':>12} {'seconds':>9} {'evals/pos':>9} {'peak RSS MiB':>12} {'bytes/pos':>9}")
for n in sorted(done):
    if n in peak:
        print(f"{n:>5} {size(n):>12} {done[n][0]:>9.2f} {done[n][1]:>9.1f} "
              f"{peak[n] / 2**20:>12.1f} {peak[n] / size(n):>9.2f}")
print(f"peak RSS {hwm / 2**20:.1f} MiB over layer {a.seeds}'s {top} positions: "
      f"{hwm / top:.2f} bytes per position")
print(f"sampled peak of anonymous memory (RssAnon: no file pages, neither the program's nor the "
      f"mapped layers') {anon[0] / 2**20:.1f} MiB, {anon[0] / top:.3f} bytes per position; "
      f"file pages then {anon[1] / 2**20:.1f} MiB")
if a.log:
    with open(a.log, "w") as f:
        f.write("".join(lines))
if tmp:
    shutil.rmtree(tmp)
