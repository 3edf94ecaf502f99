"""How fast the Python package is: random games in process, and a warm engine's round trip.

Needs the `awari` package (`pip install ./python`); OpenSpiel (`pip install open_spiel`) is
optional. It prints, each figure with its unit:

1. Random oware games played to the end in process with `awari.Board`: from the start, a move
   drawn uniformly from `board.legal_moves` (a seeded `random.Random`) is pushed until
   `board.is_game_over()`; games and plies a second. When `pyspiel` imports, the same with
   OpenSpiel's oware (`state.legal_actions()`, `state.apply_action`, until
   `state.is_terminal()`). The two take turns for `--rounds` rounds of `--seconds` each (the
   order swapped each round), so that a change of load on a shared machine falls on both; the
   figures are the median and the range over the rounds, and the ratio of the medians. Each
   ends a game by its own rules (the crate's: doc/rules.md), so the plies a game are printed
   too, and plies a second compare the two move for move.
2. The engine's round trip, warm: `SimpleEngine.popen(--engine)` (default
   target/release/awari), one call not counted, then the wall time of `--calls` calls of
   `engine.analyse(Position(), Limit(depth=1))` and of `engine.ping()`: median and 90th
   percentile, in milliseconds.

The load average (/proc/loadavg) is printed before and after: the figures are only as good as
the machine was quiet."""
import argparse, os, pathlib, random, statistics, sys, time

ROOT = pathlib.Path(__file__).resolve().parent.parent


def fail(message):
    print(f"bench/python_speed.py: {message}", file=sys.stderr)
    sys.exit(2)


def load():
    try:
        return " ".join(pathlib.Path("/proc/loadavg").read_text().split()[:3])
    except OSError:
        return "unknown (no /proc/loadavg)"


def awari_games(awari, seconds, rng):
    """Whole games until `seconds` have passed: (games, plies, elapsed seconds)."""
    games = plies = 0
    start = time.perf_counter()
    while (elapsed := time.perf_counter() - start) < seconds:
        board = awari.Board(rules="oware")
        while not board.is_game_over():
            board.push(rng.choice(board.legal_moves))
            plies += 1
        games += 1
    return games, plies, elapsed


def spiel_games(pyspiel, seconds, rng):
    """The same with OpenSpiel's oware."""
    game = pyspiel.load_game("oware")
    games = plies = 0
    start = time.perf_counter()
    while (elapsed := time.perf_counter() - start) < seconds:
        state = game.new_initial_state()
        while not state.is_terminal():
            state.apply_action(rng.choice(state.legal_actions()))
            plies += 1
        games += 1
    return games, plies, elapsed


def spread(values, unit, digits=0):
    return (f"{statistics.median(values):,.{digits}f} {unit} "
            f"({min(values):,.{digits}f} to {max(values):,.{digits}f})")


def random_games(args, awari):
    try:
        import pyspiel
    except ImportError:
        pyspiel = None
        print("pyspiel is not installed: awari.Board alone (pip install open_spiel to compare)")
    sides = {"awari.Board": lambda rng: awari_games(awari, args.seconds, rng)}
    if pyspiel is not None:
        sides["OpenSpiel oware"] = lambda rng: spiel_games(pyspiel, args.seconds, rng)
    runs = {name: [] for name in sides}
    for r in range(args.rounds):
        order = list(sides) if r % 2 == 0 else list(reversed(sides))
        for name in order:
            runs[name].append(sides[name](random.Random(args.seed + r)))
    turns = ", the sides alternated" if len(sides) == 2 else ""
    print(f"random oware games to the end, {args.rounds} round(s) of {args.seconds:g} s a side"
          f"{turns}: median (range)")
    medians = {}
    for name, results in runs.items():
        games = [g / t for g, _, t in results]
        plies = [p / t for _, p, t in results]
        length = sum(p for _, p, _ in results) / sum(g for g, _, _ in results)
        medians[name] = statistics.median(games), statistics.median(plies)
        print(f"  {name:16} {spread(games, 'games/s')}, {spread(plies, 'plies/s')}, "
              f"{length:.1f} plies/game")
    if len(medians) == 2:
        (g1, p1), (g2, p2) = medians.values()
        print(f"  awari.Board / OpenSpiel: {g1 / g2:.2f}x games/s, {p1 / p2:.2f}x plies/s")


def milliseconds(call, n):
    times = []
    for _ in range(n):
        start = time.perf_counter()
        call()
        times.append((time.perf_counter() - start) * 1000)
    p90 = statistics.quantiles(times, n=10)[-1] if n > 1 else times[0]
    return f"median {statistics.median(times):.3f} ms, p90 {p90:.3f} ms"


def engine_path(args):
    """The engine's path, checked before the games so that a wrong one fails at once."""
    path = pathlib.Path(args.engine)
    if not path.is_file() or not os.access(path, os.X_OK):
        fail(f"no engine at {path} (cargo build --release --bin awari, or --engine PATH, "
             "or --no-engine)")
    return path


def round_trip(path, calls):
    from awari.engine import EngineError, Limit, Position, SimpleEngine
    try:
        with SimpleEngine.popen(path) as engine:
            analyse = lambda: engine.analyse(Position(), Limit(depth=1))
            analyse(), engine.ping()
            print(f"engine round trip ({path}), {calls} calls after a first, wall time:")
            print(f"  analyse(Position(), Limit(depth=1)): {milliseconds(analyse, calls)}")
            print(f"  ping(): {milliseconds(engine.ping, calls)}")
    except (EngineError, OSError) as error:
        fail(f"the engine at {path}: {error}")


def main():
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rounds", type=int, default=5, help="rounds of random games (5)")
    parser.add_argument("--seconds", type=float, default=2.0,
                        help="seconds of random games a side a round (2)")
    parser.add_argument("--seed", type=int, default=1, help="round r's games use seed+r (1)")
    parser.add_argument("--engine", default=str(ROOT / "target/release/awari"),
                        help="the engine binary (target/release/awari)")
    parser.add_argument("--no-engine", action="store_true", help="skip the round trip")
    parser.add_argument("--calls", type=int, default=200, help="timed calls of each (200)")
    args = parser.parse_args()
    if args.rounds < 1 or args.seconds <= 0 or args.calls < 1:
        parser.error("--rounds and --calls must be at least 1, --seconds above 0")
    try:
        import awari
    except ImportError as error:
        fail(f"the awari package is not importable ({error}): pip install ./python")
    path = None if args.no_engine else engine_path(args)
    print(f"load average before: {load()}")
    random_games(args, awari)
    if path is not None:
        round_trip(path, args.calls)
    print(f"load average after: {load()}")


if __name__ == "__main__":
    main()
