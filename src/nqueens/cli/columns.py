"""The time left, as the progress bars of counts and listings show it: a rich column, loaded
only where a bar is drawn (on a terminal), so that a command in a pipe starts without it."""

from __future__ import annotations

from rich.progress import ProgressColumn, Task
from rich.text import Text

from nqueens.core.wording import duration


class TimeLeftColumn(ProgressColumn):
    """The time left: from the estimate a long count starts with, until the count outlasts it;
    otherwise from the average pace since the start (steadier than a recent window, which jumps
    as subproblems of very different sizes finish), counting only the work done in this run, not
    what a checkpoint had. Nothing in the first second, when a pace means little."""

    def render(self, task: Task) -> Text:
        elapsed, done, total = task.elapsed, task.completed, task.total
        if not elapsed or not total or done >= total:
            return Text("")
        expected = task.fields.get("expected")
        counted = done - task.fields.get("resumed_from", 0)
        if expected is not None and elapsed < expected:
            left = expected - elapsed
        elif counted > 0 and elapsed >= _FIRST_PACE_SECONDS:
            left = elapsed * (total - done) / counted
        else:
            return Text("")
        return Text(f"~{clock_text(left)} left", style="progress.remaining")


_FIRST_PACE_SECONDS = 1.0


def clock_text(seconds: float) -> str:
    """'4:05', '1:04:05', or for days of work '9 days'."""
    whole = int(seconds)
    if whole >= 2 * 86400:
        return duration(seconds)
    hours, minutes, secs = whole // 3600, whole // 60 % 60, whole % 60
    return f"{hours}:{minutes:02d}:{secs:02d}" if hours else f"{minutes}:{secs:02d}"
