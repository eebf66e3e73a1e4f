/**
 * A review's verdict on a move as the page shows it (`NodeView.review`), from the
 * analysis of `app/review.ts`: the mark, its words, both values and the graph's points.
 *
 * @module
 */
import type { MoveAnalysis } from "../app/review.ts";
import type { Annotation } from "./room_state.ts";
import { barOf, valueText } from "./room_view.ts";

/** The annotation of one analysed move. */
export const annotationOf = (a: MoveAnalysis): Annotation => {
  const toZero = (v: number) => (a.by === 0 ? v : -v);
  const worse = Number.isInteger(a.loss) ? String(a.loss) : a.loss.toFixed(2);
  return {
    best: a.bestNotation,
    loss: a.loss,
    mistake: a.judgement !== undefined,
    text: a.judgement?.why ??
      (a.loss === 0 ? "the best move" : a.exact ? "keeps the result" : `${worse} worse`),
    ...(a.judgement !== undefined ? { severity: a.judgement.severity } : {}),
    exact: a.exact,
    bestText: valueText(a.bestValue, a.exact),
    playedText: valueText(a.playedValue, a.exact),
    bars: [barOf(toZero(a.bestValue)), barOf(toZero(a.playedValue))],
  };
};
