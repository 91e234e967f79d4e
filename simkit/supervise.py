"""The command runs in a child of a small supervising process, so that no way of dying is silent.

A strategy's decision can crash the process that plays it (a segmentation fault from recursion too deep or a
write far outside its arrays, an abort) or never return (an endless loop, in compiled code that Ctrl-C cannot
interrupt). Worker processes are watched by the pool (simkit.pool); games played in the command's own process
(``-w 1``, and each engine's first game) are watched from here: the child writes in shared memory which
games it is playing (simkit.faults.set_crash_note), and when it dies of a signal this process prints one line
naming the line-up and the first game to replay, exit status 1. Ctrl-C reaches the child as usual; if the child
has not stopped ``INTERRUPT_GRACE_S`` seconds later (it is inside compiled code), it is killed and the command
ends with the usual one line, exit status 130. A run's finished chunks are kept either way (its parts are
written atomically), and the same command resumes it.
"""
from __future__ import annotations

import ctypes
import mmap
import os
import shutil
import signal
import sys
import threading
import time

from . import faults, guard, pool, progress

INTERRUPT_GRACE_S = 2.0
RELAY_DRAIN_S = 5.0     # how long the child's last words (its workers' too) may take to arrive
_LLVM = b"LLVM ERROR:"
STOP_SIGNALS = (signal.SIGINT, signal.SIGTERM, signal.SIGHUP)


def _die_with(parent: int) -> None:
    """The child dies with its supervisor (``kill -9`` of the simkit process stops the command, as it would
    without a supervisor): Linux's PR_SET_PDEATHSIG."""
    if sys.platform.startswith("linux"):
        try:
            libc = ctypes.CDLL(None, use_errno=True)
            libc.prctl(pool.PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
        except (OSError, AttributeError):
            pass
    if os.getppid() != parent:
        os._exit(1)


def supervise() -> None:
    """Fork: the child returns and runs the command; this process waits for it and exits as it did."""
    note = mmap.mmap(-1, faults.CRASH_NOTE_SIZE)
    parent = os.getpid()
    sys.stderr.flush()
    reading, writing = os.pipe()
    try:
        child = os.fork()
    except OSError:
        os.close(reading)
        os.close(writing)
        return                              # no supervisor: the command runs as it is
    if child == 0:
        os.close(reading)
        if sys.stderr.isatty():
            os.environ[progress.TERMINAL_ENV] = "1"     # its stderr is our pipe now; the terminal is still there
        os.dup2(writing, 2)
        os.close(writing)
        faults.set_crash_note(note)
        _die_with(parent)
        return
    os.close(writing)
    _relaying.append(threading.Thread(target=_relay, args=(reading,), name="simkit-stderr", daemon=True))
    _relaying[0].start()
    stopping = []

    def forward(signum, frame):
        if not stopping:
            stopping.append((signum, time.monotonic()))
        try:
            os.kill(child, signum)
        except ProcessLookupError:
            pass

    for signum in STOP_SIGNALS:
        signal.signal(signum, forward)
    words, seen = guard.words_at(note), [None, 0.0]
    limit = guard.decision_timeout()
    while True:
        pid, status = os.waitpid(child, os.WNOHANG)
        if pid == child:
            break
        if limit and words[guard.W_BUSY] and not stopping:
            now = time.monotonic()
            if words[guard.W_DECISIONS] != seen[0]:
                seen[:] = [words[guard.W_DECISIONS], now]
            elif now - seen[1] > limit:
                os.kill(child, signal.SIGKILL)
                os.waitpid(child, 0)
                _discard(note)
                _fail(note, f"is stuck: a decision has not returned in {limit:g} s (--decision-timeout)")
        else:
            seen[:] = [None, 0.0]
        if stopping and time.monotonic() - stopping[0][1] > INTERRUPT_GRACE_S:
            os.kill(child, signal.SIGKILL)      # stuck in compiled code: its workers die with it (PDEATHSIG)
            os.waitpid(child, 0)
            _drained()
            _write(b"simkit: interrupted; a run's finished chunks are kept and the same command resumes it\n")
            os._exit(130)
        time.sleep(0.02)
    _drained()
    if os.WIFEXITED(status):
        os._exit(os.WEXITSTATUS(status))
    signum = os.WTERMSIG(status)
    if stopping:
        os._exit(128 + signum)
    if signum in faults.CRASH_SIGNALS:
        _discard(note)
    _fail(note, f"killed the simkit process ({faults.death(-signum)})")


def _relay(fd: int) -> None:
    """Copy the child's stderr to ours as it comes, but for the line LLVM prints itself when compiled code
    aborts (``LLVM ERROR: ...``): the command's own one line says what happened."""
    pending = b""
    while True:
        try:
            data = os.read(fd, 65536)
        except OSError:
            data = b""
        if not data:
            break
        pending += data
        *lines, pending = pending.split(b"\n")
        out = b"".join(line + b"\n" for line in lines if not line.startswith(_LLVM))
        if pending and not (pending.startswith(_LLVM) or _LLVM.startswith(pending)):
            out, pending = out + pending, b""    # a partial line (a progress bar's) goes at once
        if out:
            _write(out)
    if pending and not pending.startswith(_LLVM):
        _write(pending)


_relaying: list = []


def _drained() -> None:
    """Wait (a little) for the child's last words on stderr to be relayed."""
    if _relaying:
        _relaying[0].join(RELAY_DRAIN_S)


def _write(data: bytes) -> None:
    try:
        os.write(2, data)
    except OSError:
        pass


def _discard(note) -> None:
    """Remove what the child named to discard should it crash (a run's staging: its results are not trusted)."""
    folder = faults.discard_on_crash(note)
    if folder:
        shutil.rmtree(folder, ignore_errors=True)


def _fail(note, what: str) -> None:
    """Print the one line for the child stopped while it played the games its note names, and exit 1."""
    _drained()
    playing = faults.read_note(note)
    line = faults.stop_line(playing, guard.words_at(note), what) if playing else f"the simkit process {what}"
    _write(f"simkit: error: {line}\n".encode())
    os._exit(1)
