"""Children that die with their supervisor. On Linux a process can ask the kernel for a
signal when its parent dies (``prctl(PR_SET_PDEATHSIG)``); the request survives ``exec``,
so it is made in the child just before the program starts. ``bingfa up`` does it for
every Procfile process (``service.cli``), so a ``kill -9`` of ``bingfa up`` no longer
leaves gunicorn holding the port, nor the workers, beat and the projector running.

``python -m service.pdeath CMD [ARG...]`` runs CMD with that request made, for another
supervisor's command lines. Elsewhere than Linux it just runs CMD.
"""

from __future__ import annotations

import ctypes
import os
import signal
import sys

PR_SET_PDEATHSIG = 1  # from <linux/prctl.h>


def set_parent_death_signal(signum: int = signal.SIGTERM, parent: int | None = None) -> bool:
    """Ask for ``signum`` when this process's parent dies; whether it could be asked.
    ``parent`` is the pid the caller knows as its parent: if that parent died before the
    request was made, the signal is sent to this process now (else it would never come)."""
    if not sys.platform.startswith("linux"):
        return False
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        if libc.prctl(PR_SET_PDEATHSIG, int(signum), 0, 0, 0) != 0:
            return False
    except (OSError, AttributeError):
        return False
    if parent is not None and os.getppid() != parent:
        os.kill(os.getpid(), signum)
    return True


def main(argv: list[str] | None = None) -> None:
    args = sys.argv[1:] if argv is None else argv
    if not args:
        sys.exit("usage: python -m service.pdeath CMD [ARG...]")
    set_parent_death_signal(signal.SIGTERM)
    os.execvp(args[0], args)


if __name__ == "__main__":
    main()
