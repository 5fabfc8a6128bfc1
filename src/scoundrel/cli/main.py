# PYTHON_ARGCOMPLETE_OK: argcomplete's global completion looks for this mark
"""The ``scoundrel`` command: deal, replay, play, bench, solve, analyse, bot, serve."""

from __future__ import annotations

import argparse
import codecs
import contextlib
import datetime as _dt
import io
import json
import os
import pathlib
import socket
import sys
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from scoundrel import DISTRIBUTION, __version__
from scoundrel.core import (
    Game,
    OptionError,
    Record,
    RecordError,
    ReplayError,
    Rules,
    daily_deal,
    format_moves,
    parse_date,
    random_deal,
)
from scoundrel.core.deal import HELD_OUT as HELD_OUT_SEED
from scoundrel.i18n import LANGUAGES
from scoundrel.settings import SettingError, Settings

from . import crash
from .leaving import (
    EXIT_ILLEGAL,
    EXIT_INTERRUPTED,
    EXIT_SOFTWARE,
    EXIT_USAGE,
    leaving_as_interrupted,
    on_leaving_signals,
)
from .progress import Progress
from .render import analysis_text, outcome_text, position_text

if TYPE_CHECKING:
    from scoundrel.solver.bot import BotResult, Player
    from scoundrel.solver.deals import Solved
    from scoundrel.spread import Spread

    from .words import Words

#: Terminals the full-screen game cannot draw on: the line game is played there.
PLAIN_TERMINALS = frozenset({"", "dumb", "unknown", "emacs"})


class UsageError(Exception):
    """Bad input on the command line: printed as one line, exit status 2."""


class IllegalRecord(Exception):
    """A record whose moves stop being legal: printed as one line, exit status 1."""


def _rules(args: argparse.Namespace) -> Rules:
    try:
        return Rules.parse(args.ruleset, args.option or [])
    except OptionError as error:
        raise UsageError(str(error)) from None


def _date(text: str) -> _dt.date:
    try:
        return parse_date(text)
    except ValueError as error:
        raise UsageError(str(error)) from None


def _daily_date(args: argparse.Namespace) -> _dt.date:
    """The day ``--daily`` names: the date given, or today without one."""
    return _date(args.daily) if args.daily else _dt.date.today()


def _new_game(args: argparse.Namespace, rules: Rules) -> Game:
    secret = getattr(args, "secret", None) or Settings.read().daily_secret
    if args.daily is not None:
        return Game(rules, daily_deal(rules, _daily_date(args), secret))
    return Game(rules, random_deal(rules, args.seed))


def _add_deal_options(
    parser: argparse.ArgumentParser, ruleset_default: str | None = "solo"
) -> None:
    parser.add_argument(
        "--ruleset",
        choices=("solo", "coop"),
        default=ruleset_default,
        help="solo (default) or coop",
    )
    parser.add_argument(
        "--option",
        "-o",
        action="append",
        metavar="KEY=VALUE",
        help="a rule option, e.g. weapon=lenient, death_score=dungeon-only, easier=true, "
        "harder=true, silent_leader=true, first_leader=2, and in both rulesets the variants "
        "flee=never (Relentless) and health=14 (Frail; any 1-20) (repeatable)",
    )
    which = parser.add_mutually_exclusive_group()
    which.add_argument("--seed", type=int, help="a seeded random dungeon (M1)")
    which.add_argument(
        "--daily",
        nargs="?",
        const="",
        metavar="YYYY-MM-DD",
        help="the dungeon of the day (M2); today without a date",
    )
    parser.add_argument(
        "--secret",
        help="mix a server's secret into the daily deal (also SCOUNDREL_DAILY_SECRET)",
    )


def _add_ray_option(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--ray",
        metavar="ADDRESS",
        help="spread the deals over the Ray cluster at ADDRESS (host:port, or auto) "
        "instead of this machine's processes (the ray extra)",
    )


def cmd_deal(args: argparse.Namespace) -> int:
    rules = _rules(args)
    game = _new_game(args, rules)
    print(game.record.to_json(indent=1))
    return 0


def cmd_replay(args: argparse.Namespace) -> int:
    game = _replayed(args.record)
    if args.json:
        print(json.dumps(game.summary()))
        return 0
    state = game.state
    print(f"{len(game.moves)} moves replayed from {args.record}.")
    print(position_text(state.observation(state.leader), args.ascii))
    if state.is_over:
        print(outcome_text(state))
    else:
        moves = ", ".join(move.token for move in state.legal_moves)
        print(f"Status: playing. Hero {state.leader} to move: {moves}")
    return 0


def _shows(stream: object, text: str) -> bool:
    """Whether ``stream``'s encoding can write ``text``."""
    try:
        text.encode(getattr(stream, "encoding", None) or "ascii")
    except (UnicodeEncodeError, LookupError):
        return False
    return True


def _leave_now(words: Words) -> Callable[..., None]:
    """A SIGTERM or SIGHUP handler for the line game: every move is already in the store
    (each one committed as it was played), so it says so and leaves at once, wherever the
    game is (a prompt, a question, a hint), with the status of an interruption."""

    def leave(*_: object) -> None:
        with contextlib.suppress(Exception):  # the terminal may be gone, or mid-write
            sys.stdout.write("\n" + words("term.kept_on_leaving") + "\n")
            sys.stdout.flush()
        os._exit(EXIT_INTERRUPTED)

    return leave


def cmd_play(args: argparse.Namespace) -> int:
    from scoundrel.store.games import StoreError

    from .keep import Keeper, KeptGame
    from .words import Words, terminal_language

    if args.load:
        flags = (("--seed", args.seed), ("--daily", args.daily), ("--ruleset", args.ruleset))
        given = [flag for flag, value in flags if value is not None]
        given += ["--option"] if args.option else []
        given += ["--secret"] if args.secret else []
        if given:  # a record names its own deal and rules: nothing may be ignored silently
            raise UsageError(
                f"--load plays the record's own deal and rules: drop {', '.join(given)}"
            )
        loaded = _replayed(args.load)
        rules = loaded.rules
    else:
        args.ruleset = args.ruleset or "solo"
        rules = _rules(args)
    day = _daily_date(args) if args.daily is not None else None
    if day is not None and day > _dt.date.today():
        raise UsageError(f"--daily {day}: that day has not come yet")
    # a terminal that cannot show suits and box lines gets ASCII cards and borders
    ascii_only = args.ascii or not all(
        _shows(stream, "♠♥█─╭") for stream in (sys.stdout, sys.stderr)
    )
    words = Words(args.lang or terminal_language(), ascii_only=ascii_only)
    # the environment's settings first: a bad one is named as such, not as a store problem
    secret = args.secret or Settings.read().daily_secret
    try:
        keeper = Keeper(args.db, daily_secret=secret)
    except Exception as error:  # an unreadable or foreign database: say which, change nothing
        where = args.db or "your data folder"
        raise UsageError(f"cannot open the game store ({where}): {error}") from None
    start: KeptGame | None = None
    try:
        if args.load:
            start = keeper.bring(loaded)
        elif args.daily is not None:
            start = keeper.start("daily", rules, day=day)
        elif args.seed is not None or args.ruleset != "solo" or args.option:
            start = keeper.start("random", rules, seed=args.seed)
    except StoreError as error:  # e.g. the daily with options: nothing was dealt
        raise UsageError(str(error)) from None
    terminal = sys.stdin.isatty() and sys.stdout.isatty()
    term = os.environ.get("TERM", "")
    full_screen = not args.plain and terminal and term not in PLAIN_TERMINALS
    if full_screen:
        from .tui import ScoundrelApp
        from .tui.app import Setup, remember_terminal

        remember_terminal()
        app = ScoundrelApp(keeper, words, start=start, setup=Setup(rules=rules), watch_signals=True)
        code = app.run()  # it leaves on SIGTERM and SIGHUP itself, like Ctrl+C
        if app.crashed is not None:  # logged: one line says where
            return crash.tell(app.crash_log, app.crashed, "play")
        if code is None:  # it left without saying how: not an interruption, a failure
            return EXIT_SOFTWARE if app.return_code else 0
        return code
    if terminal and not args.plain:  # a terminal the full screen cannot drive
        print(words("term.plain_terminal", term=term or "-"))
    from .plain import PlainGame

    on_leaving_signals(_leave_now(words))

    def new_game() -> KeptGame:
        return keeper.start("random", rules)

    plain = PlainGame(keeper, words, start, new_game=new_game, seed=args.seed)
    return plain.run()


def cmd_bench(args: argparse.Namespace) -> int:
    from scoundrel.bench import play_random

    rules = _rules(args)
    if args.games < 1:
        raise UsageError("--games must be at least 1")
    batch = args.batch
    if batch < 0:
        raise UsageError(f"--batch must be 0 (one game at a time) or more, not {batch}")
    if args.observe and not batch:
        raise UsageError("--observe measures the batched environment: give --batch N too")
    if batch:
        try:
            from scoundrel.batch import play_random as play_batch
            from scoundrel.observed_batch import play_observed
        except ImportError as error:
            if isinstance(error, ModuleNotFoundError) and error.name not in ("numba", "numpy"):
                raise
            raise UsageError(
                "--batch needs Numba and NumPy, the fast extra: "
                f"pip install 'scoundrel-cards[fast]' ({error})"
            ) from None
        if args.observe:
            observed = play_observed(rules, args.games, args.seed, batch)
            if args.json:
                print(json.dumps(observed.to_dict()))
                return 0
            print(
                f"{rules.ruleset}: {observed.games} games, {observed.steps} steps "
                f"({observed.moves} moves) in {observed.seconds:.3f} s: "
                f"{observed.steps_per_s:,.0f} steps/s with observations, masks and rewards; "
                f"the plain batch {observed.plain_moves_per_s:,.0f} moves/s, so they cost "
                f"{observed.observation_cost:.0%} (random legal actions, seed {args.seed}, "
                f"batch {batch}, compilation excluded)"
            )
            return 0
        result = play_batch(rules, args.games, args.seed, batch)
    else:
        result = play_random(rules, args.games, args.seed)
    if args.json:
        print(json.dumps(result.to_dict()))
    else:
        how = f", batch {batch}, compilation excluded" if batch else ""
        print(
            f"{rules.ruleset}: {result.games} games, {result.moves} moves in "
            f"{result.seconds:.3f} s: {result.games_per_s:,.0f} games/s, "
            f"{result.moves_per_s:,.0f} moves/s (uniform random play, seed {args.seed}{how})"
        )
    return 0


def _replayed(path: str) -> Game:
    """A record's game, every move replayed: a move that is not legal exits 1
    (:class:`IllegalRecord`), a file that is not a record 2."""
    try:
        return Record.load(path).replay()
    except ReplayError as error:
        raise IllegalRecord(
            f"{path}: move {error.position} ({error.token}) is not legal: {error.reason}"
        ) from None
    except RecordError as error:
        raise UsageError(f"{path}: {error}") from None


def _position(args: argparse.Namespace) -> tuple[Game, str]:
    """The game a solve starts from: a record (continued where it stops) or a deal."""
    if args.record is not None:
        if args.seed is not None or args.daily is not None:
            raise UsageError("give a record or --seed/--daily, not both")
        if args.ruleset is not None or args.option:
            raise UsageError("a record names its own rules: drop --ruleset and --option")
        return _replayed(args.record), args.record
    if args.seed is None and args.daily is None:
        raise UsageError("give a record, --seed N or --daily [DATE]")
    if args.ruleset is None:
        args.ruleset = "solo"
    rules = _rules(args)
    game = _new_game(args, rules)
    where = f"seed {args.seed}" if args.seed is not None else f"daily {args.daily or 'today'}"
    return game, f"{rules.ruleset} {where}"


def _searching(
    stage: str, show: bool, moves: bool = False
) -> tuple[Callable[[int], None] | None, Callable[[], None]]:
    """A progress line on standard error (only on a terminal), and how to clear it."""
    if not show:
        return None, lambda: None
    started = time.monotonic()
    last = [0.0]

    def report(nodes: int) -> None:
        now = time.monotonic()
        if now - last[0] >= 0.2:
            last[0] = now
            print(
                f"\r{stage}: {nodes:,} {'moves' if moves else 'positions'}, "
                f"{now - started:.1f} s (Ctrl+C stops) ",
                end="",
                file=sys.stderr,
                flush=True,
            )

    def clear() -> None:
        if last[0]:
            print("\r\033[K", end="", file=sys.stderr, flush=True)

    return report, clear


def cmd_solve(args: argparse.Namespace) -> int:
    from scoundrel.solver import Cancelled, solve

    if args.games is not None:
        return _solve_deals(args)
    if args.jobs != 1 or args.ray is not None:
        raise UsageError("--jobs and --ray spread a range of deals: give --games N too")
    game, where = _position(args)
    report, clear = _searching("solving", sys.stderr.isatty() and not args.json)
    try:
        solution = solve(game.state, best=args.best, progress=report)
    except (Cancelled, KeyboardInterrupt):
        clear()
        print("scoundrel solve: cancelled", file=sys.stderr)
        return 130
    clear()
    if args.json:
        print(json.dumps(solution.to_dict()))
        return 0
    state = game.state
    moved = f" after {len(game.moves)} moves" if game.moves else ""
    print(f"{where}{moved}:")
    if state.is_over:
        print(f"The game is over: {state.status.value}, score {state.score}.")
        return 0
    print(f"Winnable: {'yes' if solution.winnable else 'no'}.")
    if solution.best_score is not None:
        print(f"Best reachable score: {solution.best_score}.")
    if solution.line:
        what = "best line" if args.best else "winning line"
        print(f"A {what} ({len(solution.line)} moves, score {solution.score}):")
        print("  " + format_moves(solution.line))
    print(f"Searched {solution.nodes:,} positions in {solution.seconds:.3f} s.")
    return 0


def _solve_deals(args: argparse.Namespace) -> int:
    """``solve --games N``: the deals of seeds S .. S+N-1, each decided, spread over
    processes or a Ray cluster."""
    from scoundrel.solver.deals import DealsReport

    if args.record is not None or args.daily is not None:
        raise UsageError("--games solves a range of seeded deals: give --seed S, not a record")
    if args.games < 1:
        raise UsageError("--games must be at least 1")
    seed = 0 if args.seed is None else args.seed
    args.ruleset = args.ruleset or "solo"
    rules = _rules(args)
    jobs = _jobs(args.jobs, "solve")
    bar = Progress("solve", args.games, json=args.json)
    parts: list[list[Solved]] = []
    try:
        with _spread(jobs, args.ray) as spread:
            from scoundrel.spread import chunk_size, chunks

            size = chunk_size(args.games, spread.workers, 25)
            work = [(rules, s, n, args.best) for s, n in chunks(seed, args.games, size)]
            for part in spread.map(_solve_chunk, work):
                parts.append(part)
                bar(sum(len(p) for p in parts))
    except KeyboardInterrupt:
        bar.end()
        print("scoundrel solve: cancelled", file=sys.stderr)
        return 130
    bar.end()
    report = DealsReport.of(rules, parts)
    found = report.to_dict()
    if args.json:
        print(json.dumps(found))
        return 0
    low, high = found["ci95"]
    print(
        f"{rules.ruleset} ({', '.join(f'{k}={v}' for k, v in rules.options.items())}): "
        f"{report.winnable:,} of {args.games:,} deals winnable = {found['share']:.2%} "
        f"(95% CI {low:.2%}–{high:.2%}), seeds {seed}–{seed + args.games - 1}"
    )
    if report.mean_best is not None:
        print(f"Mean best reachable score: {report.mean_best:.2f}.")
    unwinnable = report.unwinnable
    if unwinnable:
        shown = ", ".join(str(s) for s in unwinnable[:20])
        more = f" and {len(unwinnable) - 20:,} more" if len(unwinnable) > 20 else ""
        print(f"Not winnable: seeds {shown}{more}.")
    print(f"Searched {found['nodes']:,} positions in {found['seconds']:.1f} s of solving.")
    return 0


def _solve_chunk(work: tuple[Rules, int, int, bool]) -> list[Solved]:
    from scoundrel.solver.deals import solve_deals

    rules, seed, games, best = work
    return list(solve_deals(rules, seed, games, best))


def cmd_analyse(args: argparse.Namespace) -> int:
    from scoundrel.solver import Cancelled, analyse
    from scoundrel.solver.analysis import BEST_SECONDS

    budget = BEST_SECONDS if args.best_seconds is None else args.best_seconds
    if budget < 0 or budget != budget:  # not NaN either
        raise UsageError("--best-seconds must be 0 (no limit) or more")
    game = _replayed(args.record)
    show = sys.stderr.isatty() and not args.json
    stages = {"win": "analysing", "best": "analysing", "slip": "analysing", "review": "reviewing"}
    reports = {name: _searching(stages[name], show, name == "review") for name in stages}

    def progress(stage: str, count: int) -> None:
        report = reports[stage][0]
        if report is not None:
            report(count)

    def clear() -> None:
        for _, clearing in reports.values():
            clearing()

    try:
        result = analyse(
            game.start,
            game.moves,
            progress=progress,
            fair=not args.no_review,
            best_seconds=budget or None,
        )
    except (Cancelled, KeyboardInterrupt):
        clear()
        print("scoundrel analyse: cancelled", file=sys.stderr)
        return 130
    clear()
    if args.json:
        print(json.dumps(result.to_dict()))
        return 0
    print(analysis_text(result))
    return 0


def _player(level: str, rules: Rules) -> Player:
    from scoundrel.arena.policies import PolicyError, named

    try:
        return named(level, rules)
    except PolicyError as error:
        raise UsageError(str(error)) from None


def cmd_pyodide(args: argparse.Namespace) -> int:
    """Download Pyodide into the data folder, where ``scoundrel serve`` finds it."""
    from scoundrel.pyodide import PYODIDE_TARBALL, PYODIDE_VERSION, find_pyodide, install_pyodide
    from scoundrel.store.database import data_folder

    found = find_pyodide(None, data_folder())
    if found is not None:
        print(f"Pyodide {PYODIDE_VERSION} is in {found}: the browser game offers offline play.")
        return 0
    print(f"Downloading Pyodide {PYODIDE_VERSION} from {PYODIDE_TARBALL} …", flush=True)
    try:
        folder = install_pyodide(data_folder())
    except OSError as error:
        raise UsageError(f"could not download Pyodide: {error}") from None
    except ValueError as error:
        raise UsageError(str(error)) from None
    print(f"Pyodide {PYODIDE_VERSION} is in {folder}: the browser game offers offline play.")
    return 0


def cmd_bot(args: argparse.Namespace) -> int:
    from scoundrel.solver.bot import BotResult, play_games

    rules = _rules(args)
    if args.games < 1:
        raise UsageError("--games must be at least 1")
    args.jobs = _jobs(args.jobs, "bot")
    player = _player(args.level, rules)  # a level that cannot play these rules says so now
    bar = Progress("bot", args.games, json=args.json)
    started = time.perf_counter()
    try:
        if args.jobs == 1 and args.ray is None:
            result = play_games(rules, args.games, args.seed, bar, player)
        else:
            with _spread(args.jobs, args.ray) as spread:
                result = _bot_jobs(rules, args.games, args.seed, spread, bar, args.level)
    except KeyboardInterrupt:
        bar.end()
        print("scoundrel bot: cancelled", file=sys.stderr)
        return 130
    result = BotResult(result.games, result.wins, result.total_score, time.perf_counter() - started)
    bar.end()
    if args.json:
        print(json.dumps(result.to_dict()))
        return 0
    low, high = result.ci95
    print(
        f"{rules.ruleset} ({', '.join(f'{k}={v}' for k, v in rules.options.items())}), "
        f"{args.level} bot: {result.wins:,} wins in {result.games:,} games = {result.win_rate:.2%} "
        f"(95% CI {low:.2%}–{high:.2%}), mean score {result.mean_score:.2f}, "
        f"{result.seconds:.1f} s (seeds {args.seed}–{args.seed + args.games - 1})"
    )
    return 0


def cmd_arena(args: argparse.Namespace) -> int:
    from scoundrel.arena import Log, LogError, PolicyError, arena
    from scoundrel.spread import SpreadError

    rules = _rules(args)
    if args.games < 1:
        raise UsageError("--games must be at least 1")
    jobs = _jobs(args.jobs, "arena")
    total = args.games * len(args.policies) * 2
    bar = Progress("arena", total, json=args.json)
    try:
        log = None if args.log is None else Log(pathlib.Path(args.log))
        standings = arena(args.policies, rules, args.games, args.seed, jobs, bar, args.ray, log)
    except (PolicyError, SpreadError, LogError) as error:
        bar.end()
        raise UsageError(str(error)) from None
    except KeyboardInterrupt:
        bar.end()
        kept = f"; the games played are kept in {args.log}: run again to go on" if args.log else ""
        print(f"scoundrel arena: cancelled{kept}", file=sys.stderr)
        return 130
    bar.end()
    last = args.seed + args.games - 1
    if args.json:
        report = {
            "ruleset": rules.ruleset,
            "options": rules.options,
            "seeds": [args.seed, last],
            "policies": [standing.to_dict() for standing in standings],
        }
        print(json.dumps(report))
        return 0
    print(
        f"{rules.ruleset} ({', '.join(f'{k}={v}' for k, v in rules.options.items())}), "
        f"{args.games:,} deals (seeds {args.seed:,}–{last:,}), each as dealt and with the "
        "unseen cards reshuffled before every move"
    )
    for standing in standings:
        certificate = standing.certificate
        print(f"\n{standing.policy}")
        for name, outcomes in (
            ("as dealt", certificate.dealt),
            ("reshuffled", certificate.reshuffled),
        ):
            result = outcomes.result
            low, high = result.ci95
            print(
                f"  {name:<11}{result.win_rate:7.2%} (95% CI {low:.2%}–{high:.2%}), "
                f"mean score {result.mean_score:.2f}"
            )
        p = min(certificate.p_wins, certificate.p_scores)
        verdict = (
            f"fair: it plays as well without the hidden order (p = {p:.3g})"
            if certificate.fair
            else f"NOT FAIR: it plays better when the hidden order is kept (p = {p:.3g})"
        )
        print(f"  {verdict}")
    return 0


@contextlib.contextmanager
def _spread(jobs: int, ray: str | None) -> Iterator[Spread]:
    """Where a command's deals are played; a cluster that cannot be reached is a usage
    error naming the address."""
    from scoundrel.spread import Spread, SpreadError

    where = Spread(jobs, ray)
    try:
        where.__enter__()
    except SpreadError as error:
        raise UsageError(str(error)) from None
    try:
        yield where
    finally:
        where.__exit__(None, None, None)


def _jobs(jobs: int, command: str) -> int:
    """``--jobs``, at most the machine's cores."""
    if jobs < 1:
        raise UsageError("--jobs must be at least 1")
    cores = os.cpu_count() or 1
    if jobs > cores:
        print(
            f"scoundrel {command}: --jobs {jobs} is more than the {cores} cores: using {cores}",
            file=sys.stderr,
        )
        return cores
    return jobs


def _bot_jobs(
    rules: Rules,
    games: int,
    seed: int,
    spread: Spread,
    bar: Callable[[int], None],
    level: str,
) -> BotResult:
    """Split the seeds into chunks played where ``spread`` runs them."""
    from scoundrel.solver.bot import BotResult as Result
    from scoundrel.spread import chunk_size, chunks

    most = 20 if level.startswith("search") else 500  # a searched game takes seconds
    size = chunk_size(games, spread.workers, most)
    work = [(rules, n, s, level) for s, n in chunks(seed, games, size)]
    total = Result(0, 0, 0, 0.0)
    for part in spread.map(_play_chunk, work):
        total = total + part
        bar(total.games)
    return total


def _play_chunk(work: tuple[Rules, int, int, str]) -> BotResult:
    from scoundrel.solver.bot import play_games

    rules, games, seed, level = work
    return play_games(rules, games, seed, None, _player(level, rules))


#: How uvicorn serves the game: quietly; a browser's WebSocket messages are a few dozen
#: bytes, so anything past 4 KiB closes the socket; and no per-message compression:
#: deflating a move's answer (about 1.7 KB of JSON) cost the server about as much CPU as
#: encoding it, to save a kilobyte.
UVICORN_OPTIONS: dict[str, Any] = {
    "log_level": "warning",
    "ws_max_size": 4096,
    "ws_per_message_deflate": False,
}


def listen(host: str, port: int) -> socket.socket:
    """A socket listening on ``host:port`` (0: any free port), bound before the server says
    where it is, so that a port in use or out of range is an error of its own."""
    if not 0 <= port <= 65535:
        raise UsageError(
            f"--port must be a port number from 1 to 65535 (0: any free one), not {port}"
        )
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    try:
        sock = socket.socket(family, socket.SOCK_STREAM)
    except OSError as error:
        raise UsageError(f"cannot listen on {host}: {error.strerror or error}") from None
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind((host, port))
        sock.listen(2048)
    except (OSError, OverflowError) as error:
        sock.close()
        reason = (getattr(error, "strerror", None) or str(error)).lower()
        raise UsageError(f"cannot listen on {host}:{port}: {reason}") from None
    sock.set_inheritable(True)  # worker processes serve on it too
    return sock


def cmd_serve(args: argparse.Namespace) -> int:
    try:
        import uvicorn

        from scoundrel.web.app import create_app, settle_collector
    except ImportError as error:  # pragma: no cover - the package depends on them
        raise UsageError(f"the web game needs {error.name}: pip install scoundrel") from None
    from scoundrel.store import connect, default_url

    if not 1 <= args.workers <= 64:
        raise UsageError(f"--workers must be from 1 to 64, not {args.workers}")
    if args.redis:
        try:
            import redis  # noqa: F401
        except ImportError:
            raise UsageError(
                "--redis needs the redis package: pip install 'scoundrel-cards[scale]'"
            ) from None
    url = args.db or default_url()
    # a client's address is the connection's, unless a proxy the operator names forwards it
    options = {
        **UVICORN_OPTIONS,
        "proxy_headers": args.proxy,
        "forwarded_allow_ips": args.forwarded_allow_ips if args.proxy else None,
    }
    sock = listen(args.host, args.port)
    settings = Settings.read()
    secret = settings.daily_secret
    try:
        if args.workers == 1:
            app = create_app(  # migrates
                url, daily_secret=secret, redis_url=args.redis, behind_proxy=args.proxy or None
            )
        else:
            connect(url).dispose()  # create or migrate the schema once, before the workers
            app = None
    except Exception as error:
        sock.close()
        raise UsageError(f"cannot open the database {url}: {error}") from None
    port = sock.getsockname()[1]
    host = f"[{args.host}]" if ":" in args.host else args.host
    print(f"Scoundrel is at http://{host}:{port}/  (database: {url})", flush=True)
    if args.workers > 1 and not args.redis:
        print(
            "No --redis: live co-op updates between workers fall back to polling every second.",
            flush=True,
        )
    print("Press Ctrl+C to stop.", flush=True)
    if app is not None:
        settle_collector()
        config = uvicorn.Config(app, **options)
        uvicorn.Server(config).run(sockets=[sock])
        return 0
    # Several workers: each builds the app from these settings (app_from_environment).
    workers = replace(settings, db=url, redis=args.redis, alone=False, proxy=args.proxy)
    os.environ.update(workers.for_workers())
    uvicorn.run(
        "scoundrel.web.app:app_from_environment",
        factory=True,
        fd=sock.fileno(),
        workers=args.workers,
        **options,
    )
    return 0


DB_HELP = """\
Back up the game store, or restore it from a backup. A SQLite store is copied with
SQLite's online backup API, a PostgreSQL one with pg_dump (PostgreSQL's client programs:
pg_dump, pg_restore, psql). A backup may be taken while the server runs; stop the server
before a restore (a store in use is refused). After a restore the store is migrated to
this version's schema, as the server does at start.
"""


def cmd_db(args: argparse.Namespace) -> int:
    from scoundrel.store import default_url
    from scoundrel.store.backup import BackupError, backup, restore

    if args.action is None:
        raise UsageError("say what to do: scoundrel db backup FILE, or scoundrel db restore FILE")
    url = args.db or default_url()
    try:
        if args.action == "backup":
            print(backup(url, args.file, force=args.force).line())
        else:
            print(restore(args.file, url, force=args.force).line(restored=True))
    except BackupError as error:
        raise UsageError(f"{args.action}: {error}") from None
    return 0


COMPLETION_HELP = """\
Print the script that lets the shell complete scoundrel's commands, options, their
values and record files with Tab. To have it in every new shell:

  bash, in ~/.bashrc:                 eval "$(scoundrel completion bash)"
  zsh, in ~/.zshrc (after compinit):  eval "$(scoundrel completion zsh)"
  fish, once:  scoundrel completion fish > ~/.config/fish/completions/scoundrel.fish
"""


def cmd_completion(args: argparse.Namespace) -> int:
    from argcomplete.shell_integration import shellcode  # argcomplete.shellcode, typed

    sys.stdout.write(shellcode(["scoundrel"], shell=args.shell))
    return 0


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="scoundrel",
        description="Scoundrel, the solo card roguelike, and Scoundrel for two.",
        epilog="Exit status: 0 done, 1 a record the rules do not allow, 2 bad input, "
        "130 interrupted (Ctrl+C).",
    )
    parser.add_argument("--version", action="version", version=f"{DISTRIBUTION} {__version__}")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND")

    play = commands.add_parser(
        "play",
        help="play in the terminal (full screen; --plain for the line game)",
        description="Play in the terminal: the full-screen game, or the line game with "
        "--plain (also when the input or output is not a terminal). Every move is kept in "
        "the same store as the browser's: quit any way you like, and the next start offers "
        "the game in play. --seed, --daily, --ruleset or --option deal a new game at once.",
    )
    play.add_argument(
        "--plain",
        action="store_true",
        help="the line-based game, for screen readers and pipes",
    )
    play.add_argument("--load", metavar="RECORD.json", help="continue a saved record")
    play.add_argument("--ascii", action="store_true", help="cards as 7D, not 7♦")
    play.add_argument(
        "--lang",
        choices=tuple(LANGUAGES),
        help="the language: en, it, ru, de, es or fr (default: the terminal's locale)",
    )
    play.add_argument(
        "--db", metavar="URL", help="SQLAlchemy database URL (default: SQLite in your data folder)"
    )
    _add_deal_options(play, ruleset_default=None)
    play.set_defaults(func=cmd_play)

    serve = commands.add_parser("serve", help="the browser game")
    serve.add_argument("--host", default="127.0.0.1", help="address to listen on (127.0.0.1)")
    serve.add_argument("--port", type=int, default=8000, help="port (8000)")
    serve.add_argument(
        "--db", metavar="URL", help="SQLAlchemy database URL (default: SQLite in your data folder)"
    )
    serve.add_argument(
        "--workers",
        type=int,
        default=1,
        help="server processes sharing the port (1); with several, use PostgreSQL and --redis",
    )
    serve.add_argument(
        "--redis",
        metavar="URL",
        help="Redis URL (redis://host:6379/0) carrying live co-op updates between processes",
    )
    serve.add_argument(
        "--proxy",
        action="store_true",
        help="behind a reverse proxy: take each client's address from X-Forwarded-For sent "
        "by --forwarded-allow-ips (without it loopback is one client like any other)",
    )
    serve.add_argument(
        "--forwarded-allow-ips",
        metavar="IPS",
        default="127.0.0.1",
        help="with --proxy: the proxies' addresses, comma-separated ('*': any) (127.0.0.1)",
    )
    serve.set_defaults(func=cmd_serve)

    db = commands.add_parser(
        "db",
        help="back up the game store, or restore it",
        description=DB_HELP,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    actions = db.add_subparsers(dest="action", metavar="ACTION")
    for action, text, file_help in (
        (
            "backup",
            "write a backup of the store to FILE (the server may be running)",
            "the backup to write (refused if it exists, unless --force)",
        ),
        (
            "restore",
            "replace the store with the backup in FILE (stop the server first)",
            "a backup written by scoundrel db backup",
        ),
    ):
        each = actions.add_parser(action, help=text, description=text[0].upper() + text[1:] + ".")
        each.add_argument("file", metavar="FILE", help=file_help)
        each.add_argument(
            "--db",
            metavar="URL",
            help="SQLAlchemy database URL (default: SQLite in your data folder)",
        )
        each.add_argument(
            "--force",
            action="store_true",
            help="replace an existing FILE"
            if action == "backup"
            else "replace a store that has games",
        )
    db.set_defaults(func=cmd_db, action=None)

    deal = commands.add_parser("deal", help="write a new record with no moves")
    _add_deal_options(deal)
    deal.set_defaults(func=cmd_deal)

    replay = commands.add_parser("replay", help="replay a record (N4)")
    replay.add_argument("record", metavar="RECORD.json")
    replay.add_argument("--json", action="store_true", help="print the N4 summary as JSON")
    replay.add_argument("--ascii", action="store_true", help="cards as 7D, not 7♦")
    replay.set_defaults(func=cmd_replay)

    bench = commands.add_parser("bench", help="measure the rules core with random play")
    bench.add_argument("--games", type=int, default=100_000, help="games (default 100000)")
    bench.add_argument("--seed", type=int, default=0, help="first deal's seed (default 0)")
    bench.add_argument("--ruleset", choices=("solo", "coop"), default="solo")
    bench.add_argument("--option", "-o", action="append", metavar="KEY=VALUE")
    bench.add_argument(
        "--batch",
        type=int,
        default=0,
        metavar="N",
        help="step N games at once, compiled with Numba (the fast extra); 0: one at a time",
    )
    bench.add_argument(
        "--observe",
        action="store_true",
        help="with --batch: step the learning environment's batch, which writes every "
        "game's observation, mask and reward each step, and say what that costs",
    )
    bench.add_argument("--json", action="store_true")
    bench.set_defaults(func=cmd_bench)
    solve = commands.add_parser(
        "solve", help="could a deal be won? (sees the whole dungeon: for analysis)"
    )
    solve.add_argument(
        "record", nargs="?", metavar="RECORD.json", help="a record; continues after its moves"
    )
    _add_deal_options(solve, ruleset_default=None)
    solve.add_argument("--best", action="store_true", help="find the best reachable score")
    solve.add_argument(
        "--games",
        type=int,
        metavar="N",
        help="solve the N deals from --seed (default 0) on: how many are winnable, and which not",
    )
    solve.add_argument(
        "--jobs", "-j", type=int, default=1, help="processes, with --games (default 1)"
    )
    _add_ray_option(solve)
    solve.add_argument("--json", action="store_true", help="print one JSON object")
    solve.set_defaults(func=cmd_solve)

    analyse = commands.add_parser(
        "analyse", aliases=["analyze"], help="where did a game slip? (best score, first slip)"
    )
    analyse.add_argument("record", metavar="RECORD.json")
    analyse.add_argument("--json", action="store_true", help="print one JSON object")
    analyse.add_argument(
        "--no-review",
        action="store_true",
        help="skip the fair review (each move's chance to win, by the searching bot)",
    )
    analyse.add_argument(
        "--best-seconds",
        type=float,
        metavar="SECONDS",
        help="how long the searches for where the game slipped and for the best score may "
        "take, after the rest (default: a minute; 0: as long as they need)",
    )
    analyse.set_defaults(func=cmd_analyse)

    bot = commands.add_parser("bot", help="the fair bot's win rate over seeded deals")
    bot.add_argument("--games", type=int, default=1000, help="games (default 1000)")
    bot.add_argument("--seed", type=int, default=0, help="first deal's seed (default 0)")
    bot.add_argument("--ruleset", choices=("solo", "coop"), default="solo")
    bot.add_argument("--option", "-o", action="append", metavar="KEY=VALUE")
    bot.add_argument("--jobs", "-j", type=int, default=1, help="processes (default 1)")
    _add_ray_option(bot)
    bot.add_argument(
        "--level",
        choices=("fast", "search", "search128", "learned", "random"),
        default="fast",
        help="fast: scores one room at a time (default); search: plays each way out "
        "over 32 orders of the unseen cards (stronger; about two seconds per solo game, "
        "many in co-op); search128: over 128 (stronger again, four times slower); "
        "learned: the fast bot's rooms judged by a trained network (strict solo "
        "only); random: a uniformly random legal move (a baseline)",
    )
    bot.add_argument("--json", action="store_true")
    bot.set_defaults(func=cmd_bot)

    arena = commands.add_parser(
        "arena",
        help="policies on held-out deals, with a fairness certificate",
        description="Play each policy on the same held-out deals twice: as dealt, and with "
        "the cards nobody has seen reshuffled before every move. A fair policy wins as "
        "often both ways; one that reads the hidden order collapses, and is named.",
    )
    arena.add_argument(
        "policies",
        nargs="+",
        metavar="POLICY",
        help="random, fast, search, search128, learned (strict solo), or an importable "
        "module:callable that takes an observation and returns a move",
    )
    arena.add_argument("--games", type=int, default=2000, help="deals (default 2000)")
    arena.add_argument(
        "--seed",
        type=int,
        default=HELD_OUT_SEED,
        help=f"first deal's seed (default {HELD_OUT_SEED:,}, the held-out deals)",
    )
    arena.add_argument("--ruleset", choices=("solo", "coop"), default="solo")
    arena.add_argument("--option", "-o", action="append", metavar="KEY=VALUE")
    arena.add_argument("--jobs", "-j", type=int, default=1, help="processes (default 1)")
    _add_ray_option(arena)
    arena.add_argument(
        "--log",
        metavar="FILE",
        help="keep every game in FILE as it is played, and play only the deals FILE lacks "
        "(after Ctrl+C or a crash, the same command goes on where it stopped)",
    )
    arena.add_argument("--json", action="store_true", help="print one JSON object")
    arena.set_defaults(func=cmd_arena)

    pyodide = commands.add_parser(
        "pyodide",
        help="download Pyodide (about 6 MB) so that the browser game can be played offline",
        description="Download the pinned Pyodide from the npm registry, check its published "
        "hash and keep it in the data folder, where scoundrel serve finds it (or set "
        "SCOUNDREL_PYODIDE to a folder holding it).",
    )
    pyodide.set_defaults(func=cmd_pyodide)

    completion = commands.add_parser(
        "completion",
        help="the script for Tab completion in bash, zsh or fish",
        description=COMPLETION_HELP,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    completion.add_argument("shell", choices=("bash", "zsh", "fish"), help="your shell")
    completion.set_defaults(func=cmd_completion)
    return parser


#: What a terminal that cannot show a character gets instead (cards as in ``--ascii``).
ASCII = {
    "♠": "S", "♥": "H", "♦": "D", "♣": "C", "★": "*", "→": "->", "←": "<-", "–": "-",
    "—": "-", "−": "-", "…": "...", "·": "-", "±": "+/-", "×": "x", "≤": "<=", "≥": ">=",
    "‘": "'", "’": "'", "“": '"', "”": '"', "✓": "ok", "✕": "x", "█": "#", "░": ".",
    "↑": "^", "↓": "v", "☠": "x",
}  # fmt: skip


def _to_ascii(error: UnicodeError) -> tuple[str, int]:
    if not isinstance(error, UnicodeEncodeError):
        raise error
    text = error.object[error.start : error.end]
    return "".join(ASCII.get(char, "?") for char in text), error.end


codecs.register_error("scoundrel-ascii", _to_ascii)


def plain_output() -> None:
    """Let standard output and error write what their encoding cannot (an ASCII or
    Latin-1 terminal, ``LC_ALL=C``) as ASCII instead of failing: 7♦ as 7D, → as ->."""
    for stream in (sys.stdout, sys.stderr):
        if isinstance(stream, io.TextIOWrapper):
            stream.reconfigure(errors="scoundrel-ascii")


LONG_RUNS = frozenset({"bot", "solve", "arena", "analyse", "bench"})
"""Commands that SIGTERM and SIGHUP stop as Ctrl+C does (:func:`leaving_as_interrupted`);
the games and the server hear those signals their own way."""


def main(argv: Sequence[str] | None = None) -> int:
    plain_output()
    parser = build_parser()
    if "_ARGCOMPLETE" in os.environ:  # the shell's completion hook: print the completions, exit
        import argcomplete

        argcomplete.autocomplete(parser)
    args = parser.parse_args(argv)
    if args.command is None:
        parser.print_help()
        return 0
    stops = leaving_as_interrupted() if args.command in LONG_RUNS else contextlib.nullcontext()
    try:
        with stops:
            return int(args.func(args))
    except IllegalRecord as error:
        print(f"scoundrel {args.command}: {error}", file=sys.stderr)
        return EXIT_ILLEGAL
    except (UsageError, SettingError) as error:
        print(f"scoundrel {args.command}: {error}", file=sys.stderr)
        return EXIT_USAGE
    except KeyboardInterrupt:
        print(f"\nscoundrel {args.command}: interrupted", file=sys.stderr)
        return EXIT_INTERRUPTED
    except BrokenPipeError:
        return 0
    except Exception as error:  # a defect: logged, one line, never mistaken for Ctrl+C
        return crash.report(error, args.command)
