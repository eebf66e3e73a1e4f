/**
 * What a test or a bench reads of a running program from Linux's `/proc`: the program a
 * `deno task` started, its resident memory, its threads' priorities.
 *
 * @module
 */

/** The fields of `/proc/PID/stat` after the command's name (the third field first). */
const statFields = (path: string): string[] => {
  const stat = Deno.readTextFileSync(path);
  return stat.slice(stat.lastIndexOf(")") + 2).split(" ");
};

/**
 * The process that `deno task` (process `task`) started for `script` (a part of its
 * command line, such as `scripts/serve.ts`).
 */
export const programPid = (task: number, script: string): number => {
  for (const e of Deno.readDirSync("/proc")) {
    if (!/^\d+$/.test(e.name)) continue;
    try {
      const ppid = Number(statFields(`/proc/${e.name}/stat`)[1]);
      const cmd = Deno.readTextFileSync(`/proc/${e.name}/cmdline`);
      if (ppid === task && cmd.includes(script)) return Number(e.name);
    } catch { /* gone */ }
  }
  throw new Error(`no process of ${script} under ${task}`);
};

/** A process's resident memory (`VmRSS`), in MiB. */
export const rssMiB = (pid: number): number => {
  const status = Deno.readTextFileSync(`/proc/${pid}/status`);
  return Number(/VmRSS:\s+(\d+) kB/.exec(status)![1]) / 1024;
};

/** The priority (`nice` value) of each thread of a process. */
export const threadNices = (pid: number): number[] => {
  const nices: number[] = [];
  for (const t of Deno.readDirSync(`/proc/${pid}/task`)) {
    try {
      nices.push(Number(statFields(`/proc/${pid}/task/${t.name}/stat`)[16]));
    } catch { /* gone */ }
  }
  return nices;
};
