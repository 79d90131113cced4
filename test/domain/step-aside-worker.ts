// A worker for step-aside.test.ts: a job that has worked 200 ms, then steps aside while the main
// thread (which shares its count of answers in workerData) answers; it reports how long it waited
// and the count it saw when it went on.
import { parentPort, workerData } from "node:worker_threads";
import { StepAside } from "../../src/domain/step-aside.js";

const cell = new Int32Array((workerData as { answering: SharedArrayBuffer }).answering);
const aside = new StepAside(cell, 1_000);
await aside.during(async () => {
  const until = performance.now() + 200;
  while (performance.now() < until);
  parentPort?.postMessage("stepping");
  const started = performance.now();
  aside.step();
  parentPort?.postMessage({ waited: performance.now() - started, open: Atomics.load(cell, 0) });
});
