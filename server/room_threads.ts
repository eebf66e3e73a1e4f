/**
 * The rooms' threads (see `room_link.ts`): each room runs in a thread of its own, lent by
 * this pool. A thread whose room ended holds the next one: its modules are loaded, so a
 * room opens in milliseconds rather than the third of a second a new thread takes to
 * load them. A few threads wait ready (one is started as soon as none waits); the rest
 * end with their rooms. Every thread's heap is bounded as a plugin thread's.
 *
 * @module
 */
import { type PluginLimits, type PluginThread, spawnPluginThread } from "../core/host/thread.ts";
import type { FromRoom, RoomControl, ToRoom } from "./room_link.ts";

/** What a room hears from its thread: its messages, and its end if it dies. */
export interface RoomEvents {
  /** A message from the thread. */
  readonly message: (m: FromRoom) => void;
  /** The thread ended by itself (out of memory, or crashed): why. */
  readonly exit: (why: string) => void;
}

/** A thread lent to a room. */
export interface RoomThread {
  /** Sends it a message. */
  readonly post: (m: ToRoom | RoomControl) => void;
  /** Sets who hears it (the room it holds). */
  readonly listen: (events: RoomEvents) => void;
  /** Notes that it holds a game between AIs: its priority is lowered for good. */
  readonly lower: () => void;
  /** Gives it back: its room ends there, and it waits for the next (or ends). */
  readonly release: () => void;
}

/** How many threads wait ready at most, of each priority. */
const KEEP = 2;

interface Entry {
  readonly thread: PluginThread;
  events: RoomEvents | undefined;
  dead: boolean;
  /** True once its modules are loaded (before that, ending it waits: `FromRoom`'s "loaded"). */
  loaded: boolean;
  /** True when it was ended before it had loaded: it is terminated once it has. */
  ending: boolean;
  /** True once it held a game between AIs: it runs at a lower priority from then on. */
  low: boolean;
}

/** The pool of the rooms' threads. */
export class RoomThreads {
  /** The threads that wait, by priority: a person's game takes a thread never lowered. */
  private readonly idle: { readonly normal: Entry[]; readonly low: Entry[] } = {
    normal: [],
    low: [],
  };
  private readonly all = new Set<Entry>();
  private shut = false;
  private started = 0;

  constructor(
    /** The threads' heap limit (and the plugins' limits, which the rooms pass on). */
    private readonly limits: PluginLimits,
  ) {}

  /**
   * A thread for a room (`low`: likely a game between AIs, which may take a thread whose
   * priority is lowered already): one that waits ready, or a new one; another is readied
   * behind it.
   */
  acquire(low = false): RoomThread {
    const entry = (low ? this.idle.low.pop() : undefined) ?? this.idle.normal.pop() ??
      this.spawn();
    if (this.idle.normal.length === 0 && !this.shut) this.idle.normal.push(this.spawn());
    return {
      post: (m) => {
        if (!entry.dead) entry.thread.post(m);
      },
      listen: (events) => {
        entry.events = events;
      },
      lower: () => {
        entry.low = true;
      },
      release: () => this.release(entry),
    };
  }

  /** How many threads were started so far (the rest of the rooms reused one). */
  spawned(): number {
    return this.started;
  }

  /** Ends every thread, and every thread given back from now on. */
  shutdown(): void {
    this.shut = true;
    for (const e of this.all) this.end(e);
    this.idle.normal.length = 0;
    this.idle.low.length = 0;
  }

  private spawn(): Entry {
    const entry = {
      events: undefined,
      dead: false,
      low: false,
      loaded: false,
      ending: false,
    } as unknown as Entry;
    const memoryMb = this.limits.memoryMb;
    (entry as { thread: PluginThread }).thread = spawnPluginThread(
      new URL("./room_thread.ts", import.meta.url),
      undefined,
      // A room's thread is ply's own code; its heap is bounded as a plugin's.
      { plugin: import.meta.url, trusted: true, limits: this.limits },
      {
        message: (m) => {
          const message = m as FromRoom;
          if (message.type !== "loaded") return entry.events?.message(message);
          entry.loaded = true;
          if (entry.ending) entry.thread.terminate();
        },
        exit: (e) => {
          entry.dead = true;
          this.all.delete(entry);
          for (const list of [this.idle.normal, this.idle.low]) {
            const i = list.indexOf(entry);
            if (i >= 0) list.splice(i, 1);
          }
          entry.events?.exit(
            e.oom ? `its thread ran out of memory (limit ${memoryMb} MB)` : e.message,
          );
        },
      },
    );
    this.all.add(entry);
    this.started++;
    return entry;
  }

  /** A room gave its thread back: its room ends there, and it waits for the next (or ends). */
  private release(entry: Entry): void {
    entry.events = undefined;
    if (entry.dead) return;
    const idle = entry.low ? this.idle.low : this.idle.normal;
    if (this.shut || idle.length >= KEEP) return this.end(entry);
    // The thread ends its room before it reads the next room's first message.
    entry.thread.post({ type: "close" } satisfies RoomControl);
    idle.push(entry);
  }

  /** Ends a thread: at once when its modules are loaded, else as soon as they are. */
  private end(entry: Entry): void {
    entry.dead = true;
    entry.events = undefined;
    this.all.delete(entry);
    if (entry.loaded) entry.thread.terminate();
    else entry.ending = true;
  }
}
