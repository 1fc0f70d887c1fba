// A benchmark's wrangler dev children run detached (a process group of their own, so stop() ends wrangler and its
// workerd together). A signal to the benchmark (Ctrl-C, a kill) skips its finally blocks and would leave them
// running, holding ports and CPU: the groups registered here are killed on SIGINT or SIGTERM first.

const groups = new Set();

/** Sends a signal to the process group `pid` (a detached child and everything it started), if it is still there. */
export function signalGroup(pid, signal) {
  try {
    process.kill(-pid, signal);
  } catch {
    // already gone
  }
}

function killAll(signal) {
  for (const pid of groups) signalGroup(pid, 'SIGKILL');
  process.exit(signal === 'SIGINT' ? 130 : 143);
}

/** Kills the process group `pid` if the benchmark is signalled; answers a function to call once it is stopped. */
export function killOnSignal(pid) {
  if (groups.size === 0) for (const signal of ['SIGINT', 'SIGTERM']) process.once(signal, killAll);
  groups.add(pid);
  return () => {
    groups.delete(pid);
    if (groups.size === 0) for (const signal of ['SIGINT', 'SIGTERM']) process.off(signal, killAll);
  };
}
