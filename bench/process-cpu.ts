// CPU time of this process and of each process it started (with their own children, such as
// Postgres's backends), read from /proc: where a benchmark's CPU goes, by process.
import { readdirSync, readFileSync } from 'node:fs';

/** Clock ticks a second (`getconf CLK_TCK`, 100 on Linux). */
const TICKS = 100;

interface Proc {
  pid: number;
  ppid: number;
  ticks: number;
}

function readProcs(): Proc[] {
  const procs: Proc[] = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      // Note: the command name (field 2) may hold spaces; fields after it start at ") ".
      const rest = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      procs.push({
        pid: Number(name),
        ppid: Number(rest[1]),
        ticks: Number(rest[11]) + Number(rest[12]),
      });
    } catch {
      // gone meanwhile
    }
  }
  return procs;
}

function label(pid: number): string {
  try {
    const args = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').filter(Boolean);
    const file = args.find((a) => /\.(ts|js|mjs)$/.test(a)) ?? args[0] ?? String(pid);
    return file.split('/').slice(-2).join('/');
  } catch {
    return String(pid);
  }
}

/** CPU seconds used so far by this process and by each process tree it started, by label. */
export function cpuSeconds(): Map<string, number> {
  const procs = readProcs();
  const children = new Map<number, Proc[]>();
  for (const p of procs) children.set(p.ppid, [...(children.get(p.ppid) ?? []), p]);
  const treeTicks = (pid: number): number =>
    (children.get(pid) ?? []).reduce((sum, c) => sum + c.ticks + treeTicks(c.pid), 0);
  const self = procs.find((p) => p.pid === process.pid);
  const out = new Map<string, number>([['benchmark', (self?.ticks ?? 0) / TICKS]]);
  for (const child of children.get(process.pid) ?? []) {
    const name = label(child.pid);
    out.set(name, (out.get(name) ?? 0) + (child.ticks + treeTicks(child.pid)) / TICKS);
  }
  return out;
}

/** The CPU seconds each label used between two readings. */
export function cpuBetween(before: Map<string, number>, after: Map<string, number>) {
  return [...after].map(([name, s]) => ({ name, seconds: s - (before.get(name) ?? 0) }));
}
