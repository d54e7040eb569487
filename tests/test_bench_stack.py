"""``bench.stack``: the harness of the cluster test and ``bench.soak`` keeps what it starts
alive whatever thread restarts it, and stops or kills all of it."""

from __future__ import annotations

import threading
import time

import psutil

from bench.stack import Stack, procfile_commands


def test_the_procfile_lines_are_read():
    commands = procfile_commands()
    assert {"web", "worker", "analysis", "beat", "projector"} <= set(commands)
    assert commands["web"].startswith("gunicorn")


def test_a_process_restarted_from_a_thread_that_ends_lives_on(tmp_path):
    # The parent-death signal follows the thread that forked: a restart from a passing
    # thread must not kill what it started when that thread ends.
    with Stack(tmp_path) as stack:
        stack.add("sleeper", command="sleep 60")
        stack.start()
        first = stack.members["sleeper"].popen.pid
        worker = threading.Thread(target=stack.restart, args=("sleeper",))
        worker.start()
        worker.join()
        time.sleep(0.5)
        member = stack.members["sleeper"]
        assert member.popen.pid != first and member.starts == 2
        assert member.running
        assert stack.rss_mb("sleeper") > 0


def test_kill_and_close_leave_nothing_running(tmp_path):
    stack = Stack(tmp_path)
    stack.add("one", command="sleep 60")
    stack.add("two", command="sh -c 'sleep 60 & sleep 60'")  # a child in its group
    stack.start()
    pids = [m.popen.pid for m in stack.members.values()]
    children = psutil.Process(pids[1]).children(recursive=True)
    stack.kill("one")
    assert not stack.members["one"].running
    stack.close()
    time.sleep(0.3)
    alive = [p for p in children if p.is_running() and p.status() != psutil.STATUS_ZOMBIE]
    assert not stack.members["two"].running and alive == []
