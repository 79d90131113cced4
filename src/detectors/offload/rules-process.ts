import os from "node:os";
import { progressWriter } from "./rule-progress.js";
import { checkPolicies, runRules } from "./rules-run.js";
import type { CheckPoliciesJob, PoliciesChecked, RulesDone, RulesJob, RulesSearching } from "./rules-protocol.js";

// The rules process (rules-runner.ts): teams' ast-grep rules run here, in a child process the
// server kills when one runs past its budget. A worker thread cannot be stopped inside ast-grep's
// native search (terminate() waits for it to return, a minute for a quadratic rule); a process can.
try {
  // Below the server: on a busy machine a webhook or a click is answered first.
  os.setPriority(10);
} catch {
  // Not allowed here: the rules run at the server's priority.
}
// Its one argument: the file where it writes which rule is searching (rule-progress.ts).
const file = process.argv[2];
const at = file ? progressWriter(file) : undefined;
const reply = (message: RulesDone | PoliciesChecked | RulesSearching) => process.send?.(message);

process.on("message", (message: RulesJob | CheckPoliciesJob) => {
  if (message.type === "check-policies") reply(checkPolicies(message));
  else void runRules(message, at, () => reply({ type: "searching", job: message.job })).then(reply);
});
// The server gone, so is this process.
process.on("disconnect", () => process.exit(0));
