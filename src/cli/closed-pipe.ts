/**
 * Lets a reader close our output early (`gate status acme/web#7 | head -1`): a write into a closed
 * pipe fails with EPIPE, which Node raises as an 'error' event and, unhandled, as a crash. Here the
 * rest of the output is dropped quietly and the command finishes its work (a decision it was
 * applying is still applied) with its own exit code. Any other stream error still surfaces.
 *
 * @example quietOnClosedPipe(process.stdout);
 */
export function quietOnClosedPipe(stream: NodeJS.WriteStream): void {
  stream.on("error", (error: NodeJS.ErrnoException) => {
    // The stream is destroyed after this error, so later writes are dropped without another event.
    if (error.code === "EPIPE") return;
    throw error;
  });
}
