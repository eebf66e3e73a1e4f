/**
 * The moves a page holds, as a transcript (the JSON `deno task play --load` and the
 * page's "load a game" read): for a game the server no longer has, so that nothing the
 * page shows is lost. The numbering is the one `app/transcript.ts` writes (the main line,
 * then each variation after its parent); the times and searches, which the page does not
 * hold, are left out.
 *
 * @module
 */
import type { NodeView, ServerMessage } from "../server/protocol.ts";
import type { Transcript, TranscriptMove, VariationMove } from "../app/transcript.ts";

type Position = Extract<ServerMessage, { readonly _tag: "Position" }>;

/** The transcript of the tree `nodes` (the page's, merged) at the position `pos`. */
export const transcriptOfTree = (pos: Position, nodes: readonly NodeView[]): Transcript => {
  const main = [0];
  for (let n = nodes[0]; n !== undefined && n.children.length > 0; n = nodes[n.children[0]]) {
    main.push(n.children[0]);
  }
  const order = [...main];
  const visit = (id: number): void => {
    order.push(id);
    for (const c of nodes[id].children) visit(c);
  };
  for (const m of main) for (const c of nodes[m].children.slice(1)) visit(c);
  const number = new Map(order.map((id, i) => [id, i]));
  const moveOf = (n: NodeView): TranscriptMove => ({
    by: n.by,
    move: n.move,
    notation: n.notation,
    ms: 0,
  });
  const variations = order.slice(main.length).map((id): VariationMove => ({
    parent: number.get(nodes[id].parent)!,
    ...moveOf(nodes[id]),
  }));
  const current = number.get(pos.current) ?? main.length - 1;
  const r = pos.result;
  return {
    version: 2,
    game: pos.kind,
    options: pos.options,
    seed: pos.seed,
    players: [pos.players[0], pos.players[1]],
    moves: main.slice(1).map((id) => moveOf(nodes[id])),
    result: r === undefined
      ? { winner: null, margin: 0, reason: "unfinished" }
      : { winner: r.winner, margin: r.margin, reason: r.reason },
    ...(variations.length > 0 ? { variations } : {}),
    ...(current !== main.length - 1 ? { current } : {}),
  };
};
