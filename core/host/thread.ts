/**
 * Plugin threads: where a plugin's code runs, never on the main thread. A plugin thread
 * is a Node worker whose heap is bounded (a plugin that allocates without end fails
 * alone: "ran out of memory (limit 2048 MB)"), started by a relay Web Worker
 * (`relay.ts`) that carries the plugin's permissions: a user's plugin runs without file,
 * network, environment, subprocess, FFI or system permissions unless the user grants
 * them (`--plugin-allow`); the built-in plugins run with the program's.
 *
 * Why this shape: Deno can bound the heap of a Node worker (`resourceLimits`) but not of
 * a Web Worker, and can narrow the permissions of a Web Worker (`deno.permissions`,
 * which needs `--unstable-worker-options`) but not of a Node worker, which inherits its
 * parent's. Nested, the plugin's thread gets both. A child process would too, at about
 * 0.3 s of start-up per game and a pipe per call.
 *
 * A built-in plugin's thread is a Node worker started directly (about 0.12 s, against
 * 0.6 s for one started inside a relay, which must set up Deno's Node layer first).
 *
 * @module
 */
import { Worker as NodeWorker } from "node:worker_threads";
import { markDeath, nodeWorkerEntry } from "./entry.ts";
import type { ThreadStart } from "./inside.ts";

/** What a plugin may do and use (the program's flags set them). */
export interface PluginLimits {
  /**
   * Milliseconds a call into a game's code (a rule, a picture, a move's notation) may
   * take before the game fails (`--call-limit`); a search that reports no progress for
   * this long is stopped the same way.
   */
  readonly callLimitMs: number;
  /** The heap limit of a plugin thread in MB (`--memory`). */
  readonly memoryMb: number;
  /** The permissions a user's plugin is granted (`--plugin-allow`); none by default. */
  readonly grants: readonly Grant[];
}

/** A permission a user's plugin may be granted. */
export type Grant = "read" | "write" | "net" | "env" | "run" | "ffi" | "sys";

/** Every permission a user's plugin may be granted, as `--plugin-allow` names them. */
export const GRANTS: readonly Grant[] = ["read", "write", "net", "env", "run", "ffi", "sys"];

/**
 * How long a plugin thread may take to start and open its game or load its module (not a
 * call of the plugin's: a busy machine may take seconds; only a thread that never starts
 * fails).
 */
export const THREAD_START_MS = 60_000;

/** The limits when a program sets none: 2 s per call, 2048 MB, no permissions. */
export const DEFAULT_LIMITS: PluginLimits = { callLimitMs: 2000, memoryMb: 2048, grants: [] };

/** How a relay is started (the first message it gets). */
export interface RelayStart {
  /** The plugin thread's module URL. */
  readonly module: string;
  /** The plugin thread's data (`threadData` in `inside.ts`); absent for a thread started early. */
  readonly data?: unknown;
  /** For a thread started early: the plugin's module, which it loads meanwhile. */
  readonly warm?: string;
  /** The plugin thread's end of its owner's channel (`ownerPort` in `inside.ts`). */
  readonly port: MessagePort;
  /** Its heap limit in MB. */
  readonly memoryMb: number;
  /**
   * Where the relay says that the plugin thread died, for a caller blocked waiting on
   * it: an Int32 cell set to 3 (and `[1]` to 2 when it ran out of memory, else 1).
   */
  readonly death?: SharedArrayBuffer;
}

/** What a relay says when its plugin thread ended (ran out of memory, or crashed). */
export interface RelayEnd {
  /** True when it ran out of memory. */
  readonly oom: boolean;
  readonly message: string;
  readonly trace?: string;
}

/** A plugin thread as its owner sees it. */
export interface PluginThread {
  /** Sends a message to the plugin thread (shared memory is shared, not copied). */
  readonly post: (message: unknown) => void;
  /** Stops the plugin thread at once, whatever it runs. */
  readonly terminate: () => void;
}

/** How a plugin thread's owner hears from it. */
export interface ThreadEvents {
  /** A message from the plugin thread. */
  readonly message: (message: unknown) => void;
  /** The plugin thread ended by itself: it ran out of memory (`oom`) or crashed. */
  readonly exit: (
    end: { readonly oom: boolean; readonly message: string; readonly trace?: string },
  ) => void;
}

/** The folder of ply's own modules (the plugin thread's code, the built-in games). */
const PLY_ROOT = new URL("../../", import.meta.url);

/**
 * The relay's permissions for a user's plugin: only the grants, and reading the modules
 * it is made of (ply's, and those in the plugin's own folder: Deno asks for read access
 * to load a module from a file). Loading modules from URLs is the program's permission
 * (`--allow-import`), not one the plugin uses.
 */
const sandbox = (grants: readonly Grant[], plugin: string): Deno.PermissionOptionsObject => ({
  ...Object.fromEntries(GRANTS.map((g) => [g, grants.includes(g) ? "inherit" : false])),
  ...(grants.includes("read") ? {} : {
    read: [PLY_ROOT, new URL(plugin)].filter((u) => u.protocol === "file:")
      .map((u) => new URL("./", u)),
  }),
  import: "inherit",
});

let sandboxing: boolean | undefined;

/**
 * False when this process surely runs without `--unstable-worker-options`, which the
 * sandbox needs (without it Deno ends the process at the first sandboxed worker): ply
 * run from its URL by `deno run -A URL`. Linux says so in `/proc/self/cmdline`; where
 * nothing says, true. The first time it is false, standard error says that a user's
 * plugin then runs with the program's permissions (still watched, its heap bounded).
 */
const canSandbox = (): boolean => {
  if (sandboxing !== undefined) return sandboxing;
  const cmdline = "/proc/self/cmdline";
  try {
    sandboxing = Deno.permissions.querySync({ name: "read", path: cmdline }).state !== "granted" ||
      Deno.readTextFileSync(cmdline).split("\0").includes("--unstable-worker-options");
  } catch {
    sandboxing = true;
  }
  if (!sandboxing) {
    console.error(
      "note: without --unstable-worker-options a user's plugin cannot be sandboxed: it runs " +
        "with this program's permissions",
    );
  }
  return sandboxing;
};

/** How a plugin thread is started: its plugin, its trust, its limits. */
export interface ThreadOptions {
  /** The plugin's module URL. */
  readonly plugin: string;
  /** True for a built-in plugin (it keeps the program's permissions). */
  readonly trusted: boolean;
  readonly limits: PluginLimits;
}

/** A plugin thread as it is started: the thread, and how to tell it its caller's death cell. */
interface Started {
  readonly thread: PluginThread;
  /** Sets the cell marked when the thread dies (see `RelayStart.death`). */
  readonly setDeath: (death: SharedArrayBuffer | undefined) => void;
}

/** A plugin thread started before a caller asked for it (`prestartPluginThread`). */
interface Early {
  /** What it was started for (`earlyKey`): a caller asking for the same takes it. */
  readonly key: string;
  readonly started: Started;
  /** Hands the thread to its caller: the events from now on (and any that came before). */
  readonly adopt: (events: ThreadEvents) => void;
}

/** The threads started early, by their module's URL (at most one each). */
const early = new Map<string, Early>();

/** How many threads were started early, and how many of them a caller took. */
const earlyCount = { started: 0, taken: 0 };

/** How many plugin threads were started early (`prestartPluginThread`) and how many were taken. */
export const earlyThreads = (): { readonly started: number; readonly taken: number } => ({
  ...earlyCount,
});

const earlyKey = ({ plugin, trusted, limits }: ThreadOptions): string =>
  JSON.stringify([plugin, trusted, limits.memoryMb, [...limits.grants].sort()]);

/**
 * Starts a plugin thread for `module` before a caller asks for it: a program's entry
 * calls it before it loads the program's modules (Effect among them), so that the thread
 * starts, and loads the plugin's module, meanwhile. The first `spawnPluginThread` of the
 * same module with the same options takes it, with its data (sent as `{ start: data }`:
 * `threadData` in `inside.ts`); one with other options terminates it and starts its own.
 * Nothing of ply's but `thread.ts` itself loads here.
 */
export const prestartPluginThread = (module: URL, options: ThreadOptions): void => {
  if (early.has(module.href)) return;
  const { events, adopt } = buffered();
  earlyCount.started++;
  early.set(module.href, {
    key: earlyKey(options),
    started: start(module, { warm: options.plugin }, options, undefined, events),
    adopt,
  });
};

/**
 * A Web Worker as a plugin thread's owner sees one (the built-in plugins' search workers,
 * whose messages cost a tenth of a Node worker's), taken from an early start of the same
 * module if one waits (`prestartWebThread`).
 */
export const spawnWebThread = (module: URL, events: ThreadEvents): PluginThread => {
  const waiting = early.get(module.href);
  if (waiting !== undefined && waiting.key === WEB) {
    early.delete(module.href);
    earlyCount.taken++;
    waiting.adopt(events);
    return waiting.started.thread;
  }
  return webThread(module, events);
};

/** The early-start key of a Web Worker (it carries no plugin's options). */
const WEB = "web";

/**
 * Starts a Web Worker for `module` before it is asked for (see `prestartPluginThread`):
 * the first `spawnWebThread` of the module takes it.
 */
export const prestartWebThread = (module: URL): void => {
  if (early.has(module.href)) return;
  const { events, adopt } = buffered();
  earlyCount.started++;
  early.set(module.href, {
    key: WEB,
    started: { thread: webThread(module, events), setDeath: () => {} },
    adopt,
  });
};

const webThread = (module: URL, events: ThreadEvents): PluginThread => {
  const worker = new Worker(module, { type: "module" });
  worker.onmessage = (e: MessageEvent) => events.message(e.data);
  worker.onerror = (e: ErrorEvent) => {
    e.preventDefault();
    events.exit({ oom: false, message: e.message || "its thread crashed" });
  };
  return { post: (m) => worker.postMessage(m), terminate: () => worker.terminate() };
};

/** Events kept until an owner takes the thread (`adopt`), then passed on. */
const buffered = (): { events: ThreadEvents; adopt: (to: ThreadEvents) => void } => {
  const before: ({ m: unknown } | { end: Parameters<ThreadEvents["exit"]>[0] })[] = [];
  let to: ThreadEvents | undefined;
  return {
    events: {
      message: (m) => to === undefined ? before.push({ m }) : to.message(m),
      exit: (end) => to === undefined ? before.push({ end }) : to.exit(end),
    },
    adopt: (events) => {
      to = events;
      for (const e of before.splice(0)) "m" in e ? events.message(e.m) : events.exit(e.end);
    },
  };
};

/**
 * Starts `module` in a plugin thread with `data` as its `workerData`, bounded by
 * `limits` (its heap; its permissions unless `trusted`, where `--unstable-worker-options`
 * allows: see `canSandbox`). `death`, if given, is the cell
 * the relay marks when the thread dies (see `RelayStart.death`). A thread started early
 * for the same module and options (`prestartPluginThread`) is taken instead of a new one.
 */
export const spawnPluginThread = (
  module: URL,
  data: unknown,
  options: ThreadOptions & { readonly death?: SharedArrayBuffer },
  events: ThreadEvents,
): PluginThread => {
  const waiting = early.get(module.href);
  if (waiting !== undefined) {
    early.delete(module.href);
    if (waiting.key === earlyKey(options)) {
      earlyCount.taken++;
      waiting.started.setDeath(options.death);
      waiting.started.thread.post({ start: data });
      waiting.adopt(events);
      return waiting.started.thread;
    }
    waiting.started.thread.terminate();
  }
  return start(module, { data }, options, options.death, events).thread;
};

/** A plugin thread started with `workerData` (its data, or the module to load early). */
const start = (
  module: URL,
  workerData: ThreadStart,
  options: ThreadOptions,
  death: SharedArrayBuffer | undefined,
  events: ThreadEvents,
): Started => {
  const { trusted, limits } = options;
  if (trusted || !canSandbox()) return direct(module, workerData, limits, death, events);
  const relay = new Worker(new URL("./relay.ts", import.meta.url), {
    type: "module",
    deno: { permissions: sandbox(limits.grants, options.plugin) },
  });
  // The plugin thread's messages come straight from it, on a channel of their own.
  const { port1, port2 } = new MessageChannel();
  let ended = false;
  const end = () => {
    ended = true;
    port1.close();
    relay.terminate();
  };
  port1.onmessage = (e: MessageEvent) => {
    if (!ended) events.message(e.data);
  };
  relay.onmessage = (e: MessageEvent<RelayEnd>) => {
    if (ended) return;
    end();
    events.exit(e.data);
  };
  relay.onerror = (e: ErrorEvent) => {
    e.preventDefault();
    if (ended) return;
    end();
    events.exit({ oom: false, message: e.message || "its thread crashed" });
  };
  relay.postMessage({
    start: {
      module: module.href,
      ...workerData,
      port: port2,
      memoryMb: limits.memoryMb,
      ...(death !== undefined ? { death } : {}),
    } satisfies RelayStart,
  }, [port2]);
  return {
    thread: { post: (message) => port1.postMessage(message), terminate: end },
    setDeath: (cell) => relay.postMessage({ death: cell }),
  };
};

/** A built-in plugin's thread: a Node worker of the caller's, with the program's permissions. */
const direct = (
  module: URL,
  workerData: ThreadStart,
  limits: PluginLimits,
  death: SharedArrayBuffer | undefined,
  events: ThreadEvents,
): Started => {
  const worker = new NodeWorker(nodeWorkerEntry(module), {
    workerData,
    resourceLimits: { maxOldGenerationSizeMb: limits.memoryMb },
  });
  let ended = false;
  const end = (oom: boolean, message: string, trace?: string) => {
    if (ended) return;
    ended = true;
    markDeath(death, oom);
    events.exit({ oom, message, ...(trace !== undefined ? { trace } : {}) });
  };
  worker.on("message", (m: unknown) => {
    if (!ended) events.message(m);
  });
  worker.on(
    "error",
    (e: Error & { code?: string }) =>
      end(e.code === "ERR_WORKER_OUT_OF_MEMORY", e.message, e.stack),
  );
  worker.on("exit", (code: number) => end(false, `its thread exited (code ${code})`));
  return {
    thread: {
      post: (message) => worker.postMessage(message),
      terminate: () => {
        ended = true;
        void worker.terminate();
      },
    },
    setDeath: (cell) => {
      death = cell;
    },
  };
};
