/**
 * The call channel between a thread that uses a game and the plugin thread that runs it
 * (`rules.ts`): one call at a time, in shared memory, so that the caller can wait for
 * the answer synchronously and for no longer than the call limit. Calls and answers
 * travel as JSON in a growable buffer: states are plain data (arrays and objects of
 * numbers, see `core/game.ts`), and JSON is five times faster than V8's serializer here
 * (8 against 39 µs for a call and its answer).
 *
 * @module
 */

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/**
 * The control cell's states (`Channel.control[0]`). `QUIT` asks an idle thread to stop
 * serving, and it says `GONE` when it has: a thread is terminated after that, from its
 * event loop, not while it waits in `Atomics.wait` (Deno prints such a thread's end as
 * an uncaught "execution terminated").
 */
export const IDLE = 0, REQUEST = 1, REPLY = 2, DEAD = 3, STARTING = 4, QUIT = 5, GONE = 6;

/** The shared memory of one channel. */
export interface Channel {
  /** `[0]` the state (`STARTING` until a restarted thread serves), `[1]` why the thread died (2: out of memory), `[2]` the payload's length. */
  readonly control: SharedArrayBuffer;
  /** The payload: a call, or its answer. */
  readonly data: SharedArrayBuffer;
}

/** A call of a game's function (`picture.svg` for the picture's). */
export interface Call {
  readonly fn: string;
  readonly args: readonly unknown[];
}

/** An answer: the value, or the plugin's fault (its message and stack). */
export type Answer =
  | { readonly value: unknown }
  | { readonly fault: { readonly fn: string; readonly message: string; readonly trace?: string } };

/** A new channel (64 KB of payload at first, growing to 256 MB). */
export const newChannel = (): Channel => ({
  control: new SharedArrayBuffer(16),
  data: new (SharedArrayBuffer as unknown as new (
    n: number,
    o: { maxByteLength: number },
  ) => SharedArrayBuffer)(1 << 16, { maxByteLength: 1 << 28 }),
});

/**
 * Writes a payload (a value, or its JSON text) into the channel, growing it if needed,
 * and returns its length.
 */
export const put = (channel: Channel, value: unknown): number => {
  const bytes = encoder.encode(typeof value === "string" ? value : JSON.stringify(value));
  const data = channel.data as SharedArrayBuffer & { grow(n: number): void };
  if (bytes.length > data.byteLength) data.grow(Math.min(1 << 28, bytes.length * 2));
  new Uint8Array(data).set(bytes);
  return bytes.length;
};

/** Reads the payload of `length` bytes. */
export const take = (channel: Channel, length: number): unknown =>
  JSON.parse(decoder.decode(new Uint8Array(channel.data).slice(0, length)));
