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
  /** Gives it back: its room ends there, and it waits for the next (or ends). */
  readonly release: () => void;
}

/** How many threads wait ready at most. */
const KEEP = 2;

interface Entry {
  readonly thread: PluginThread;
  events: RoomEvents | undefined;
  dead: boolean;
}

/** The pool of the rooms' threads. */
export class RoomThreads {
  private readonly idle: Entry[] = [];
  private readonly all = new Set<Entry>();
  private shut = false;

  constructor(
    /** The threads' heap limit (and the plugins' limits, which the rooms pass on). */
    private readonly limits: PluginLimits,
  ) {}

  /** A thread for a room: one that waits ready, or a new one; another is readied behind it. */
  acquire(): RoomThread {
    const entry = this.idle.pop() ?? this.spawn();
    if (this.idle.length === 0 && !this.shut) this.idle.push(this.spawn());
    return {
      post: (m) => {
        if (!entry.dead) entry.thread.post(m);
      },
      listen: (events) => {
        entry.events = events;
      },
      release: () => this.release(entry),
    };
  }

  /** Ends every thread that waits, and every thread given back from now on. */
  shutdown(): void {
    this.shut = true;
    for (const e of this.all) this.end(e);
    this.idle.length = 0;
  }

  private spawn(): Entry {
    const entry: Entry = {
      thread: undefined as unknown as PluginThread,
      events: undefined,
      dead: false,
    };
    const memoryMb = this.limits.memoryMb;
    (entry as { thread: PluginThread }).thread = spawnPluginThread(
      new URL("./room_thread.ts", import.meta.url),
      undefined,
      // A room's thread is ply's own code; its heap is bounded as a plugin's.
      { plugin: import.meta.url, trusted: true, limits: this.limits },
      {
        message: (m) => {
          const r = m as FromRoom;
          if (r.type === "closed") return this.closed(entry, r.reusable);
          entry.events?.message(r);
        },
        exit: (e) => {
          entry.dead = true;
          this.all.delete(entry);
          const i = this.idle.indexOf(entry);
          if (i >= 0) this.idle.splice(i, 1);
          entry.events?.exit(
            e.oom ? `its thread ran out of memory (limit ${memoryMb} MB)` : e.message,
          );
        },
      },
    );
    this.all.add(entry);
    return entry;
  }

  private release(entry: Entry): void {
    entry.events = undefined;
    if (entry.dead) return;
    if (this.shut) return this.end(entry);
    entry.thread.post({ type: "close" } satisfies RoomControl);
  }

  /** A thread's room has ended: it waits for the next, or ends. */
  private closed(entry: Entry, reusable: boolean): void {
    if (reusable && !this.shut && this.idle.length < KEEP) this.idle.push(entry);
    else this.end(entry);
  }

  private end(entry: Entry): void {
    entry.dead = true;
    entry.events = undefined;
    this.all.delete(entry);
    entry.thread.terminate();
  }
}
