"""The ``bingfa`` command line.

    bingfa selfplay [--game KEY] [-n 1000] [--seed 1] [--option name=value ...]
                    [--seat seat=policy ...] [--each option]
    bingfa tournament [--game KEY] [--levels random,easy,medium,hard] [--games 20] [--jobs N]
                      [--seed 1] [--option name=value ...]   (AI levels against each other)
    bingfa rebuild [--partitions 16]     (REDIS_URL: the event store's Redis)
    bingfa up [--data ./data] [--port 8000] [--flower]   (every Procfile process; Ctrl-C stops them)
    bingfa verify <file.jsonl | replay id>   (audit a record; exit 0 if it holds, 1 if not)
    bingfa export <replay id> [-o file]      (a finished game's record as JSON Lines)
    bingfa archive --all | <game id> ...     (finished games into the replay store)
    bingfa backup DIR | bingfa restore DIR   (REDIS_URL's keys and finished games' records;
                                              restore only into an empty Redis)

A policy is a name from ``games.playout.POLICIES`` (``random``, ``heuristic``), an AI level
(``ai:easy``, ``ai:medium``, ...) or ``module:function`` with the signature ``(rules,
state, seat, rng) -> command``. ``--game`` defaults to the first
registered game; ``--option`` values are read as JSON when they are JSON, else as text, and
checked by the game's rules (``service.tool_args``).
"""

from __future__ import annotations

import argparse
import contextlib
import importlib
import json
import os
import random
import secrets
import signal
import socket
import sys
import threading
import time
import urllib.error
import urllib.request
from collections import Counter
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.markup import escape
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TimeRemainingColumn
from rich.table import Table
from rich.theme import Theme

from events.metrics import MULTIPROC_ENV
from games.playout import POLICIES, Policy, play
from service import tool_args


def load_policy(spec: str) -> Policy:
    if spec in POLICIES:
        return POLICIES[spec]
    if spec.startswith("ai:"):
        return ai_policy(spec[3:])
    module, _, name = spec.partition(":")
    if not name:
        known = ", ".join(sorted(POLICIES))
        raise SystemExit(
            f"unknown policy {spec!r}: use one of {known}, ai:LEVEL or module:function"
        )
    try:
        return getattr(importlib.import_module(module), name)
    except (ImportError, AttributeError) as error:
        raise SystemExit(f"cannot load policy {spec!r}: {error}") from None


def ai_policy(level: str) -> Policy:
    """An AI level of ``workers.ai`` as a policy (``ai:easy``, ``ai:medium``, ...), seeing
    only its seat's view like the AI opponents do."""
    from workers import ai  # the AI levels load only when asked for

    if level not in ai.LEVELS:
        raise SystemExit(f"there is no AI level {level!r}; the levels are: {', '.join(ai.LEVELS)}")

    def policy(rules: Any, state: Any, seat: str, rng: Any) -> dict[str, Any]:
        command = ai.choose_command(rules, state, seat, level, rng)
        if command is None:  # play only asks a seat that owes a decision
            raise RuntimeError(f"level {level!r} had no answer for {seat}")
        return command

    return policy


def selfplay(args: argparse.Namespace, console: Console) -> int:
    try:
        rules = tool_args.rules_of(args.game)
        options = tool_args.parse_options(rules, args.option)
        specs = tool_args.parse_seats(rules, args.seat, default="random")
        runs = each_value(rules, args.each, options)
    except tool_args.ToolArgError as error:
        console.print(f"[error]{escape(str(error))}[/error]", soft_wrap=True)
        return 2
    policies = {seat: load_policy(spec) for seat, spec in specs.items()}
    for run in runs:
        selfplay_run(rules, run, policies, specs, args, console)
    return 0


def each_value(rules: Any, name: str | None, options: dict[str, Any]) -> list[dict[str, Any]]:
    """The options of each run: one, or one per value of the option ``name`` (``--each``)."""
    if not name:
        return [options]
    option = next((o for o in rules.catalogue.options if o.name == name), None)
    if option is None:
        raise tool_args.ToolArgError(f"{rules.key} has no option {name!r} to play each value of")
    if name in options:
        raise tool_args.ToolArgError(f"{name!r} is given with --option and with --each")
    values = [False, True] if option.kind == "bool" else [v for v, _ in option.choices]
    return [{**options, name: value} for value in values]


def selfplay_run(rules: Any, options: dict[str, Any], policies: dict[str, Policy],
                 specs: dict[str, str], args: argparse.Namespace,
                 console: Console) -> None:  # fmt: skip
    """Play ``args.games`` games with these options and print their summary: wins by seat,
    by side for a game whose outcome says which side each seat played (its ``sides``,
    seat -> side), endings, average length."""
    wins: Counter[str] = Counter()
    side_wins: Counter[str] = Counter()
    seat_sides: Counter[tuple[str, str]] = Counter()
    reasons: Counter[str] = Counter()
    rounds: int | None = 0
    length = 0
    with Progress(
        "[progress.description]{task.description}",
        BarColumn(),
        MofNCompleteColumn(),
        TimeRemainingColumn(),
        console=console,
        transient=True,
    ) as progress:
        task = progress.add_task(f"{rules.key} self-play", total=args.games)
        for i in range(args.games):
            game = play(rules, options, random.Random(f"{args.seed}:{i}"), policies)
            winner = game.outcome["winner"]
            wins[winner or "draw"] += 1
            sides = game.outcome.get("sides") or {}
            for seat, side in sides.items():
                seat_sides[seat, side] += 1
            if sides:
                side_wins[sides[winner] if winner else "draw"] += 1
            reasons[game.outcome["reason"]] += 1
            round_ = rules.view(game.state, None).get("round")  # for a game that has rounds
            rounds = None if rounds is None or round_ is None else rounds + round_
            length += len(game.events)
            progress.advance(task)
    n = args.games
    console.print(
        f"{n} games of {rules.key} ({tool_args.options_text(rules, options)}), seed {args.seed}",
        soft_wrap=True,
    )
    console.print(
        "policies: " + ", ".join(f"{s} = {spec}" for s, spec in specs.items()), soft_wrap=True
    )
    table = Table("result", "games", "rate")
    for who in (*rules.seats, "draw"):
        table.add_row(
            f"{who} wins" if who != "draw" else "draws", str(wins[who]), f"{wins[who] / n:.1%}"
        )
    console.print(table)
    if seat_sides:
        played = ", ".join(f"{seat} played {side} {count}" for (seat, side), count
                           in sorted(seat_sides.items()))  # fmt: skip
        console.print(f"sides: {played}", soft_wrap=True)
        by_side = Table("result by side", "games", "rate")
        for side in dict.fromkeys(side for _, side in sorted(seat_sides)):
            by_side.add_row(f"{side} wins", str(side_wins[side]), f"{side_wins[side] / n:.1%}")
        by_side.add_row("draws", str(side_wins["draw"]), f"{side_wins['draw'] / n:.1%}")
        console.print(by_side)
    ends = Table("ending", "games", "rate")
    for reason, count in reasons.most_common():
        ends.add_row(reason, str(count), f"{count / n:.1%}")
    console.print(ends)
    in_rounds = "" if rounds is None else f"{rounds / n:.2f} rounds, "
    console.print(f"average length: {in_rounds}{length / n:.1f} events")


def tournament(args: argparse.Namespace, console: Console) -> int:
    from workers import ai  # the AI levels load only for this command
    from workers import tournament as tourney

    levels = [level.strip() for level in args.levels.split(",")] if args.levels else list(ai.LEVELS)
    if unknown := [level for level in levels if level not in ai.LEVELS]:
        console.print(
            f"[error]no AI level {', '.join(unknown)}; the levels: {', '.join(ai.LEVELS)}"
        )
        return 2
    try:
        rules = tool_args.rules_of(args.game)
        options = tool_args.parse_options(rules, args.option)
    except tool_args.ToolArgError as error:
        console.print(f"[error]{escape(str(error))}[/error]", soft_wrap=True)
        return 2
    matches = tourney.schedule(tourney.all_pairings(levels), args.games, args.seed)
    jobs = args.jobs or os.cpu_count() or 1
    results = tourney.run(matches, options, jobs=jobs, console=console, game=rules.key)
    console.print(
        f"{len(results)} games of {rules.key} ({args.games} per pairing, seats alternated), "
        f"{tool_args.options_text(rules, options)}, seed {args.seed}",
        soft_wrap=True,
    )
    tourney.report(results, list(dict.fromkeys(levels)), console, jobs)
    return 0


def rebuild(args: argparse.Namespace, console: Console) -> int:
    """Throw the read models away and rebuild them from the event streams."""
    url = os.environ.get("REDIS_URL")
    if not url:
        console.print("[error]bingfa rebuild needs REDIS_URL (the event store's Redis)[/error]")
        return 2
    partitions = args.partitions or int(os.environ.get("BINGFA_PARTITIONS", 16))
    import redis

    from events.followers import followers_for
    from events.readmodels import ReadModels
    from events.redis_store import RedisEventStore, connect

    client = connect(url)
    try:
        store = RedisEventStore(client, partitions=partitions)
        counts = ReadModels(client, partitions, followers_for(client, partitions)).rebuild(store)
    except redis.ConnectionError as error:
        console.print(f"[error]cannot reach the Redis at REDIS_URL: {error}[/error]")
        return 1
    finally:
        client.close()
    console.print(
        f"deleted {counts['deleted']} read-model keys; rebuilt from {counts['games']} games: "
        f"{counts['lobby']} in the lobby, {counts['finished']} finished, "
        f"{counts['players']} players with games",
        soft_wrap=True,
    )
    return 0


# -- bingfa up: every Procfile process, on the embedded Redis unless REDIS_URL is set ------

ROOT = Path(__file__).resolve().parent.parent  # the checkout (the project is installed -e)
WILDCARD_HOSTS = {"0.0.0.0", "::", ""}
THEME = Theme({"error": "bold #d23c3c"})  # what a command says went wrong
LOOPBACK_HOSTS = ("127.0.0.1", "localhost", "::1")
# How a process may end when it was asked to stop: on its own (0), or by the SIGTERM
# honcho sent its process group (as the signal itself, or as a shell reports it).
STOPPED_CLEANLY = {0, -signal.SIGTERM, 128 + signal.SIGTERM}


def load_secret_key(data: Path) -> str:
    """The SECRET_KEY kept in ``<data>/secret_key`` (mode 600): made once, then reused, so
    signed cookies survive a restart."""
    path = data / "secret_key"
    if path.exists():
        path.chmod(0o600)
        key = path.read_text().strip()
        if key:
            return key
    key = secrets.token_hex(32)
    partial = path.with_name(".secret_key.partial")
    fd = os.open(partial, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "w") as out:
        out.write(key + "\n")
        out.flush()
        os.fsync(out.fileno())
    partial.chmod(0o600)
    partial.replace(path)
    return key


def lock_data(data: Path) -> int | None:
    """Hold ``<data>/.lock`` for the life of this process (two servers on one AOF folder
    would corrupt it); None if another ``bingfa up`` holds it."""
    import fcntl

    fd = os.open(data / ".lock", os.O_RDWR | os.O_CREAT, 0o600)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        os.close(fd)
        return None
    return fd


def port_is_free(host: str, port: int) -> bool:
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    with socket.socket(family) as s:
        s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)  # as gunicorn binds
        try:
            s.bind((host, port))
        except OSError:
            return False
    return True


def start_bundled_redis(folder: Path, started: list[Any]) -> None:
    """Start the bundled redis-server with AOF in ``folder`` on a free port and append it to
    ``started``. SIGINT is blocked meanwhile, and a child keeps its parent's signal mask, so
    the Ctrl-C the terminal sends to the whole foreground group does not reach this Redis:
    it is stopped last, with SIGTERM, after everything that uses it. If this process dies
    without stopping it (kill -9), the kernel sends it SIGTERM (``service.pdeath``): an
    orphan would keep the AOF folder that the next ``bingfa up`` starts a Redis on."""
    from events.embedded import start_redis
    from service.pdeath import set_parent_death_signal

    supervisor = os.getpid()
    previous = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
    try:
        started.append(start_redis(folder, preexec_fn=lambda: set_parent_death_signal(
            signal.SIGTERM, parent=supervisor)))  # fmt: skip
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, previous)


def gunicorn_args(env: dict[str, str]) -> str:
    """GUNICORN_CMD_ARGS for the web process: newer gunicorns open a control socket at one
    fixed path in the home folder, which a second server on this machine would take over;
    nothing here uses it, so it is turned off where the setting exists."""
    given = env.get("GUNICORN_CMD_ARGS", "")
    try:
        from gunicorn.config import KNOWN_SETTINGS
    except ImportError:
        return given
    if "control_socket_disable" not in {setting.name for setting in KNOWN_SETTINGS}:
        return given
    return f"{given} --no-control-socket".strip()


def redis_where(url: str) -> str:
    """host:port/db of a Redis URL, never its password."""
    from urllib.parse import urlsplit

    parts = urlsplit(url)
    return f"{parts.hostname}:{parts.port or 6379}{parts.path or ''}"


def watch_web(url: str, done: threading.Event, console: Console, patience: float = 60) -> None:
    """Print the URL to open as soon as the service is ready (``/readyz`` answers 200: the
    web process, the event store, the broker and the projector); past ``patience`` seconds,
    say once what it is still waiting for."""
    probe = url + "readyz"
    started = time.monotonic()
    warned = False
    while not done.is_set():
        waiting = ready_or_why(probe)
        if waiting is None:
            break
        if not warned and time.monotonic() - started > patience:
            console.print(
                f"[yellow]Bingfa is not ready at {url} after {patience:.0f} s ({escape(waiting)});"
                " see the logs above[/yellow]",
                soft_wrap=True,
            )
            warned = True
        done.wait(0.25)
    if not done.is_set():
        console.print(
            f"[bold green]Bingfa is running: open {url}[/bold green]  (Ctrl-C stops it)",
            soft_wrap=True,
        )


def ready_or_why(probe: str) -> str | None:
    """None if ``probe`` (a ``/readyz``) answers 200, else why not (the failed checks)."""
    try:
        with urllib.request.urlopen(probe, timeout=2):
            return None
    except urllib.error.HTTPError as error:
        try:
            body = json.loads(error.read())
            return "; ".join(check["reason"] for check in body["checks"].values()
                             if not check["ok"]) or f"HTTP {error.code}"  # fmt: skip
        except (ValueError, KeyError, TypeError):
            return f"HTTP {error.code}"
    except (OSError, ValueError):
        return "the web process does not answer"


def supervised_process(supervisor: int) -> Any:
    """honcho's Process, tied to the life of ``supervisor`` (this ``bingfa up``). honcho runs
    each Procfile process from a runner it forks, which ignores SIGTERM and outlives us, in
    a session of its own (so a signal to our group misses it), behind a shell that need not
    exec it. The runner now asks for SIGHUP when we die and then sends SIGTERM to the
    process's whole group, as honcho's own stop does; the shell itself gets SIGTERM if the
    runner dies. So a kill -9 of ``bingfa up`` stops all it started: the port is freed."""
    from honcho.process import Popen, Process

    from service.pdeath import set_parent_death_signal

    class SupervisedProcess(Process):
        def run(self, events: Any = None, ignore_signals: bool = False) -> None:
            def orphaned(_signum: int, _frame: Any) -> None:
                if self._child is not None:
                    with contextlib.suppress(ProcessLookupError):  # its group: its session
                        os.killpg(self._child.pid, signal.SIGTERM)
                os._exit(1)

            signal.signal(signal.SIGHUP, orphaned)
            set_parent_death_signal(signal.SIGHUP, parent=supervisor)
            runner = os.getpid()

            def child(cmd: str, **options: Any) -> Any:
                # preexec_fn: in the child, before exec; the request survives the exec
                return Popen(cmd, preexec_fn=lambda: set_parent_death_signal(
                    signal.SIGTERM, parent=runner), **options)  # fmt: skip

            self._child_ctor = child
            super().run(events, ignore_signals)

    return SupervisedProcess


def make_manager(on_started: Any, stop_asked: list[str]) -> Any:
    """A honcho Manager that also remembers how the stop came about, calls ``on_started``
    once every process is launched, stops at once if ``stop_asked`` (a signal came before
    honcho took the signals over), and puts off a stop asked for before every process has
    reported its pid (honcho could not signal those yet) until they all have."""
    from honcho.manager import Manager

    class UpManager(Manager):
        def __init__(self) -> None:
            super().__init__()
            self._process_ctor = supervised_process(os.getpid())
            self.first_stopped: list[str] | None = None  # stopped before we stopped them
            self.killed = False
            self._deferred = False

        def _start(self) -> None:
            super()._start()
            on_started()
            if stop_asked:
                self.terminate()

        def _all_started(self) -> bool:
            started = super()._all_started()
            if started and self._deferred:
                self._deferred = False
                self.terminate()
            return started

        def terminate(self) -> None:
            if not super()._all_started():
                self._deferred = True
                return
            if self.first_stopped is None:
                self.first_stopped = [
                    name for name, p in self._processes.items() if "returncode" in p
                ]
            super().terminate()

        def kill(self) -> None:
            self.killed = True
            super().kill()

        def returncodes(self) -> dict[str, int | None]:
            return {name: p.get("returncode") for name, p in self._processes.items()}

    return UpManager()


# Procfile processes started only when asked for: Flower (Celery's monitor, on loopback
# unless FLOWER_ADDRESS says otherwise: it shows every task's arguments, game ids included).
OPTIONAL = ("flower",)


def chosen(processes: dict[str, str], flower: bool = False) -> dict[str, str]:
    """The Procfile processes `bingfa up` runs: all but the optional ones not asked for."""
    wanted = {"flower"} if flower else set()
    return {name: cmd for name, cmd in processes.items()
            if name not in OPTIONAL or name in wanted}  # fmt: skip


def up(args: argparse.Namespace, console: Console) -> int:
    """Run every Procfile process with honcho; the bundled Redis when REDIS_URL is unset.
    SIGINT or SIGTERM stops the processes, then the bundled Redis; 0 if all stopped cleanly.
    """
    from honcho.environ import parse_procfile

    procfile = Path(args.procfile).resolve()
    if not procfile.is_file():
        console.print(f"[error]no Procfile at {escape(str(procfile))}[/error]")
        return 2
    processes = chosen(parse_procfile(procfile.read_text()).processes, args.flower)
    host = os.environ.get("BINGFA_HOST") or "127.0.0.1"
    if not port_is_free(host, args.port):
        console.print(
            f"[error]port {args.port} is in use on {host}: choose another with --port[/error]"
        )
        return 1
    data = Path(args.data).resolve()
    data.mkdir(parents=True, exist_ok=True)
    lock = lock_data(data)
    if lock is None:
        console.print(f"[error]another `bingfa up` is running on {escape(str(data))}[/error]")
        return 1

    stop_asked: list[str] = []  # signals that came before honcho's handlers were in place

    def note_stop(signum: int, _frame: Any) -> None:
        stop_asked.append(signal.Signals(signum).name)

    handlers = {s: signal.signal(s, note_stop) for s in (signal.SIGINT, signal.SIGTERM)}
    redis: list[Any] = []
    done = threading.Event()
    try:
        env = up_redis(dict(os.environ), data, host, redis, console)
        if env is None:
            return 1
        env = up_environment(env, data, host, args.port, console)
        manager = run_processes(processes, env, procfile, web_url(host, args.port), done,
                                stop_asked, console)  # fmt: skip
    finally:
        done.set()
        for server in redis:
            server.stop(timeout=30)
            console.print(f"Redis stopped (exit code {server.process.returncode})")
        for signum, handler in handlers.items():
            signal.signal(signum, handler)
        os.close(lock)
    return up_outcome(manager, [server.process.returncode for server in redis], console)


def up_redis(env: dict[str, str], data: Path, host: str, redis: list[Any],
             console: Console) -> dict[str, str] | None:  # fmt: skip
    """The environment with the event store's Redis: REDIS_URL as given, else the bundled
    one started now (added to ``redis``) with the broker on its db 1. None: it failed."""
    if env.get("REDIS_URL"):
        where = redis_where(env["REDIS_URL"])
        console.print(f"Redis: REDIS_URL from the environment ({where})", soft_wrap=True)
        return env
    try:
        start_bundled_redis(data / "redis", redis)
    except RuntimeError as error:  # it exited at start or did not answer
        console.print(f"[error]cannot start the bundled Redis: {escape(str(error))}[/error]")
        return None
    env["REDIS_URL"] = redis[0].url
    env.setdefault("CELERY_BROKER_URL", redis[0].url.rsplit("/", 1)[0] + "/1")
    # The embedded default serves this machine only: a webhook receiver on it is fine.
    # Served to a network, local addresses stay refused (else anyone could make the server
    # post to this machine's other ports).
    if host in LOOPBACK_HOSTS:
        env.setdefault("BINGFA_WEBHOOK_ALLOW_LOCAL", "1")
    console.print(
        f"Redis: bundled redis-server at {redis[0].url} (Celery broker: db 1), "
        f"AOF in {escape(str(redis[0].data_dir))}",
        soft_wrap=True,
    )
    return env


def up_environment(env: dict[str, str], data: Path, host: str, port: int,
                   console: Console) -> dict[str, str]:  # fmt: skip
    """What every process is started with: the session key, this venv's programs first on
    PATH, the port and host, the data folder, gunicorn's arguments."""
    if not env.get("SECRET_KEY"):
        env["SECRET_KEY"] = load_secret_key(data)
    bin_dir = str(Path(sys.executable).parent)  # gunicorn, celery, python of this venv
    env["PATH"] = os.pathsep.join([bin_dir, env.get("PATH", "")])
    env.update(PORT=str(port), BINGFA_HOST=host, BINGFA_DATA=str(data), PYTHONUNBUFFERED="1",
               GUNICORN_CMD_ARGS=gunicorn_args(env))  # fmt: skip
    env[MULTIPROC_ENV] = metrics_folder(env.get(MULTIPROC_ENV) or data / "metrics")
    if host not in LOOPBACK_HOSTS and not env.get("BINGFA_PUBLIC_ORIGINS"):
        console.print(  # else the web answers only for loopback hosts (DNS rebinding)
            f"[yellow]served on {escape(host)}, but only localhost is answered until "
            "BINGFA_PUBLIC_ORIGINS names the addresses people open (e.g. "
            f"http://192.168.1.5:{port})[/yellow]",
            soft_wrap=True,
        )
    return env


def metrics_folder(folder: str | Path) -> str:
    """The Prometheus multiprocess folder every process of this stack writes its metrics
    to (the web's ``/metrics`` adds them up: the workers', beat's and the projector's too),
    emptied of the last run's files, which would otherwise be counted again."""
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    for stale in folder.glob("*.db"):  # the client's files, one per process and kind
        stale.unlink(missing_ok=True)
    return str(folder)


def web_url(host: str, port: int) -> str:
    """The address to open in a browser."""
    if host in WILDCARD_HOSTS:
        return f"http://127.0.0.1:{port}/"
    return f"http://[{host}]:{port}/" if ":" in host else f"http://{host}:{port}/"


def run_processes(processes: dict[str, str], env: dict[str, str], procfile: Path,
                  url: str, done: threading.Event, stop_asked: list[str],
                  console: Console) -> Any:  # fmt: skip
    """Every Procfile process under honcho until they have all stopped; the manager."""
    watcher = threading.Thread(target=watch_web, args=(url, done, console), daemon=True)
    manager = make_manager(watcher.start, stop_asked)
    for name, command in processes.items():
        manager.add_process(name, command, env={**env, "HONCHO_PROCESS_NAME": name},
                            cwd=str(procfile.parent))  # fmt: skip
    console.print(f"starting {', '.join(processes)} from {escape(str(procfile))}", soft_wrap=True)
    manager.loop()  # returns once every process has stopped
    return manager


def up_outcome(manager: Any, redis_codes: list[int | None], console: Console) -> int:
    """0 if the stop was asked for and every process (and the bundled Redis) ended cleanly."""
    codes = manager.returncodes()
    if manager.first_stopped:  # something ended by itself: that is what stopped the rest
        for name in manager.first_stopped:
            console.print(f"[error]{name} stopped by itself (exit code {codes[name]})[/error]")
        return 1
    unclean = {n: rc for n, rc in codes.items() if rc not in STOPPED_CLEANLY}
    for rc in redis_codes:
        if rc != 0:
            unclean["redis-server"] = rc
    if manager.killed or unclean:
        detail = ", ".join(f"{n} exit code {rc}" for n, rc in unclean.items())
        console.print(f"[error]not a clean stop: {detail or 'a process had to be killed'}[/error]")
        return 1
    console.print("[green]everything stopped cleanly[/green]")
    return 0


def parser() -> argparse.ArgumentParser:
    top = argparse.ArgumentParser(prog="bingfa", description="Bingfa command line")
    sub = top.add_subparsers(dest="command", required=True)
    sp = sub.add_parser("selfplay", help="play games between policies and summarise them")
    tool_args.add_game_arguments(sp, seats="a policy (random or module:function; random)")
    sp.add_argument("-n", "--games", type=int, default=1000)
    sp.add_argument("--seed", type=int, default=1)
    sp.add_argument(
        "--each",
        metavar="NAME",
        help="play -n games for each value of this option (e.g. a scenario)",
    )
    tp = sub.add_parser("tournament", help="play AI levels against each other, with statistics")
    tp.add_argument("--levels", help="comma-separated AI levels (default: all of them)")
    tp.add_argument("-n", "--games", type=int, default=20, help="games per pairing (20)")
    tp.add_argument("--jobs", type=int, help="processes (default: one per core)")
    tp.add_argument("--seed", type=int, default=1)
    tool_args.add_game_arguments(tp)
    rb = sub.add_parser("rebuild", help="delete every read model and rebuild it from the streams")
    rb.add_argument(
        "--partitions", type=int, help="partitions of the event store (BINGFA_PARTITIONS, 16)"
    )
    upp = sub.add_parser("up", help="run the whole service (every Procfile process)")
    upp.add_argument("--data", default="./data", help="data folder (Redis AOF, secret key)")
    upp.add_argument("--port", type=int, default=8000, help="the web port (8000)")
    upp.add_argument("--flower", action="store_true",
                     help="also run Flower, Celery's monitor (127.0.0.1:5555 unless "
                          "FLOWER_ADDRESS / FLOWER_PORT say otherwise)")  # fmt: skip
    upp.add_argument("--procfile", default=str(ROOT / "Procfile"), help=argparse.SUPPRESS)
    vp = sub.add_parser("verify", help="audit a replay record: exit 0 if it holds, 1 if not")
    vp.add_argument("target", help="a .jsonl file, or a replay id (REDIS_URL)")
    ep = sub.add_parser("export", help="write a finished game's record as JSON Lines")
    ep.add_argument("replay_id")
    ep.add_argument("-o", "--output", help="the file to write (default: standard output)")
    ap = sub.add_parser("archive", help="put finished games into the replay store")
    ap.add_argument("games", nargs="*", help="game ids")
    ap.add_argument("--all", action="store_true", help="every finished game in the streams")
    ap.add_argument("--partitions", type=int, help="partitions of the event store (16)")
    bp = sub.add_parser("backup", help="copy the event store and every finished game's record")
    bp.add_argument("folder", help="a new or empty folder")
    bp.add_argument("--partitions", type=int, help="partitions of the event store (16)")
    rp = sub.add_parser("restore", help="put a backup into an empty Redis (REDIS_URL)")
    rp.add_argument("folder", help="a folder written by bingfa backup")
    return top


def main(argv: list[str] | None = None) -> int:
    args = parser().parse_args(argv)
    console = Console(theme=THEME)
    if args.command == "selfplay":
        return selfplay(args, console)
    if args.command == "tournament":
        return tournament(args, console)
    if args.command == "rebuild":
        return rebuild(args, console)
    if args.command == "up":
        return up(args, console)
    if args.command in ("verify", "export", "archive", "backup", "restore"):
        from replays import commands  # these work on the replay store: in its package

        return getattr(commands, args.command)(args, console)
    return 2


if __name__ == "__main__":
    sys.exit(main())
