"""The whole game of oware on paper: positions, memory, traffic and hours per layer of an MPI
table build (`awari tables build --mpi`) up to 48 seeds, extrapolated from rates measured on
smaller layers.

Usage: python3 bench/tables_estimate.py [--ranks R] [--nodes N] [--link GBIT]
           [--evals E] [--rate M] [--children C] [--marks K] [--bytes B]

--ranks: MPI ranks (one per core); --nodes: machines (the ranks spread evenly); --link: each
node's network bandwidth in Gbit/s. The measured inputs (defaults: `awari tables build --mpi
--seeds 16`, see doc/figures.md): --evals, positions evaluated per position of a layer (every
pass counted); --rate, evaluations per second of one rank (M); --children, in-layer children
read per evaluation; --marks, parents marked per position of a layer; --bytes, what a rank
holds per position of its share. With many ranks nearly every child and parent is another
rank's: a value asked costs 10 bytes (an index out, two bytes back), a mark 8.

The model leaves out what the measured layers do not show: the time of a collective exchange
among many ranks, and the smaller layers, which every rank maps from the shared directory (a
rank reads them only in a layer's first pass, at random places).
"""
import argparse
from math import comb


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--ranks", type=int, default=2048)
    p.add_argument("--nodes", type=int, default=64)
    p.add_argument("--link", type=float, default=10.0, help="Gbit/s per node")
    p.add_argument("--evals", type=float, default=9.9)
    p.add_argument("--rate", type=float, default=1.2, help="M evaluations/s per rank")
    p.add_argument("--children", type=float, default=3.4)
    p.add_argument("--marks", type=float, default=10.7)
    p.add_argument("--bytes", type=float, default=8.4)
    a = p.parse_args()
    if min(a.ranks, a.nodes) < 1 or a.ranks < a.nodes:
        p.error("--ranks and --nodes must be at least 1, and ranks at least nodes")
    print(
        f"{a.ranks} ranks on {a.nodes} nodes, {a.link:g} Gbit/s each; measured: {a.evals:g} "
        f"evaluations per position, {a.rate:g} M/s per rank, {a.children:g} children per "
        f"evaluation, {a.marks:g} marks per position, {a.bytes:g} bytes per position held"
    )
    print(
        "| seeds | positions | memory per rank | traffic | compute | network | hours |\n"
        "|---:|---:|---:|---:|---:|---:|---:|"
    )
    total_h = 0.0
    remote = (a.ranks - 1) / a.ranks
    for n in range(49):
        size = comb(n + 11, 11)
        per_rank = size * a.bytes / a.ranks
        traffic = size * remote * (a.evals * a.children * 10 + a.marks * 8)
        compute = size * a.evals / (a.ranks * a.rate * 1e6)
        network = traffic / (a.nodes * a.link * 1e9 / 8)
        hours = max(compute, network) / 3600
        total_h += hours
        if n in (16, 21, 24, 28, 32, 36, 40, 44, 48):
            print(
                f"| {n} | {size:,} | {per_rank / 2**20:,.1f} MiB | {traffic / 1e12:,.2f} TB "
                f"| {compute / 3600:,.2f} h | {network / 3600:,.2f} h | {hours:,.2f} |"
            )
    print(f"all layers 0..48: {sum(comb(n + 11, 11) for n in range(49)):,} positions, {total_h:,.1f} hours")


if __name__ == "__main__":
    main()
