/**
 * What a server's database holds of its games, read as a test reads it: for handshakes
 * on the store (a game's move is stored before the test kills the server).
 *
 * @module
 */
import { DatabaseSync } from "node:sqlite";

/** How many moves (main line and variations) a SQLite database holds of a game, if any. */
export const storedMoves = (db: string, id: string): number | undefined => {
  const d = new DatabaseSync(db, { readOnly: true });
  try {
    const row = d.prepare("SELECT record FROM ply_rooms WHERE id = ?").get(id) as
      | { record: string }
      | undefined;
    if (row === undefined) return undefined;
    const t = JSON.parse(row.record).transcript;
    return t.moves.length + (t.variations?.length ?? 0);
  } finally {
    d.close();
  }
};

/** Waits (a bounded number of reads) until the database holds `moves` moves of a game. */
export const waitStored = async (db: string, id: string, moves: number): Promise<void> => {
  for (let i = 0; i < 1500; i++) {
    if ((storedMoves(db, id) ?? -1) >= moves) return;
    await new Promise((r) => setTimeout(r, 20));
  }
  throw new Error(`the database never held ${moves} moves of ${id} (${storedMoves(db, id)})`);
};
