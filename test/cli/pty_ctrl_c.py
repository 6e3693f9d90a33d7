"""Runs a command in a new pseudo-terminal, as a person's terminal would, types Ctrl-C once a line holding
WAIT_FOR has appeared, and prints the command's exit as JSON: {"code": N} or {"signal": N}, and its output.

The pty is the command's controlling terminal and the command is its foreground process group, so a Ctrl-C
the terminal turns into SIGINT reaches every process of the group (npm, its script shell, node), exactly
as in a terminal window. Used by test/cli/ctrl-c-terminal.test.ts."""
import json, os, pty, select, sys, time

wait_for = sys.argv[1].encode()
argv = sys.argv[2:]
pid, fd = pty.fork()
if pid == 0:
    os.execvp(argv[0], argv)

out = b''
typed = False
deadline = time.monotonic() + 90
while time.monotonic() < deadline:
    ready, _, _ = select.select([fd], [], [], 1)
    if ready:
        try:
            chunk = os.read(fd, 65536)
        except OSError:  # EIO: every process holding the terminal has ended
            break
        if not chunk:
            break
        out += chunk
    if not typed and wait_for in out:
        os.write(fd, b'\x03')
        typed = True
_, status = os.waitpid(pid, 0)
result = {'code': os.WEXITSTATUS(status)} if os.WIFEXITED(status) else {'signal': os.WTERMSIG(status)}
result['typed'] = typed
result['output'] = out.decode('utf-8', 'replace')
print(json.dumps(result))
