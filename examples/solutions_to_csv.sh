#!/usr/bin/env sh
# Pipe nqueens' JSON lines into another program: here, every 8-queens solution as a CSV row of
# 1-based rows, one column per board column. The last line, the status record, says how the
# search ended. Needs only the nqueens command and python3; `| head` ends it quietly.
set -eu
nqueens solve 8 --format json | python3 -c '
import json, signal, sys
signal.signal(signal.SIGPIPE, signal.SIG_DFL)  # a reader that leaves early ends us quietly
for line in sys.stdin:
    record = json.loads(line)
    if record["type"] == "solution":
        print(",".join(str(row + 1) for row in record["rows"]))
'
