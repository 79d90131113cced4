import type { ProgressHub } from "../review/progress-hub.js";

/** Shows investigation progress on stderr while a review runs (only on a terminal). */
export function watchProgress(progress: ProgressHub, reviewId: string): () => void {
  const live = process.stderr.isTTY === true;
  let shown = false;
  const stop = progress.listen(reviewId, (p) => {
    const line = `investigating: turn ${p.turn}, ${p.tool_calls} tool calls, ${p.chars_read} chars read, $${p.cost_usd.toFixed(4)}`;
    if (live) process.stderr.write(`\r${line}\x1b[K`);
    else if (!shown || p.tool_calls % 5 === 0) process.stderr.write(`${line}\n`);
    shown = true;
  });
  return () => {
    stop();
    if (live && shown) process.stderr.write("\n");
  };
}
