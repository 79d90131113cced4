// Preloaded with `node --import`: at exit, writes this process's CPU time (user + system, ms) to
// the file named by BENCH_CPU_OUT. The same preload runs on both sides of a comparison.
import { writeFileSync } from "node:fs";

process.on("exit", () => {
  const u = process.cpuUsage();
  if (process.env.BENCH_CPU_OUT) writeFileSync(process.env.BENCH_CPU_OUT, String((u.user + u.system) / 1000));
});
