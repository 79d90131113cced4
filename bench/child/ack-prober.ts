// The client side of the heavy-review ack figure, in a process of its own: sends bursts of signed
// `pull_request.closed` deliveries to the gate and times each answer. Apart from the bench process
// (which also plays GitHub, serving the heavy PR's pages and tarball), so that work done there
// never counts as the gate's lateness. Reads on stdin `go <bursts>` (a run of at most that many
// bursts) and `stop` (ends the run after the burst under way); prints `{"ready":true}` once set
// up, then `{"answers":[ms, ...]}` at the end of each run. Arguments: port, webhook secret, the
// delivery body to send (a JSON file; its numbers are replaced by a fresh one each time), burst
// size, and the pause between bursts in ms.
import { readFileSync } from "node:fs";
import { createInterface } from "node:readline";
import { Webhooks } from "@octokit/webhooks";
import { burst, signedDelivery } from "../burst.js";

const [port, secret, templateFile, size, pause] = process.argv.slice(2);
const template = JSON.parse(readFileSync(String(templateFile), "utf8")) as {
  number: number;
  pull_request: { number: number };
};
const signer = new Webhooks({ secret: String(secret) });
let next = 600_000;

async function delivery() {
  const number = next++;
  const body = JSON.stringify({ ...template, number, pull_request: { ...template.pull_request, number } });
  return signedDelivery(signer, body);
}

// One run per `go <bursts>`: it ends after that many bursts, or at `stop` after the burst under way.
const commands = createInterface({ input: process.stdin });
let stopping = false;
let run: Promise<void> = Promise.resolve();
commands.on("line", (line) => {
  const [command, bursts] = line.trim().split(/\s+/);
  if (command === "stop") stopping = true;
  if (command === "go") {
    stopping = false;
    run = run.then(() => probe(Number(bursts)));
  }
});
commands.on("close", () => void run.then(() => process.exit(0)));
process.stdout.write(`${JSON.stringify({ ready: true })}\n`);

async function probe(bursts: number): Promise<void> {
  const answers: number[] = [];
  for (let i = 0; i < bursts && !stopping; i++) {
    const deliveries = await Promise.all(Array.from({ length: Number(size) }, delivery));
    answers.push(...(await burst(Number(port), deliveries)));
    await new Promise((r) => setTimeout(r, Number(pause)));
  }
  process.stdout.write(`${JSON.stringify({ answers })}\n`);
}
