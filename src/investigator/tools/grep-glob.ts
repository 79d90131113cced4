import picomatch from "picomatch";
import { RE2JS } from "re2js";
import { GateError, messageOf } from "../../domain/errors.js";
import { GREP_MAX_PATTERN, GREP_MAX_PROGRAM } from "./grep-pattern.js";

/**
 * The lookarounds picomatch writes with `dot: true`: they keep `*` and `**` from matching an empty
 * name or a `.`/`..` segment, neither of which a listed file path has, so dropping them changes no
 * answer here. RE2 has no lookaround.
 */
const PICOMATCH_GUARDS = ["(?!(?:^|\\/)\\.{1,2}(?:\\/|$))", "(?!\\.{1,2}(?:\\/|$))", "(?=.)"];

function refuse(message: string): never {
  throw new GateError("SANDBOX_REFUSED", message);
}

/**
 * Compiles a grep glob into a path test that runs in linear time: picomatch parses it (extglobs
 * off: `@(…)`, `+(…)` are plain text) and RE2 runs the result, because picomatch's own regex
 * backtracks on globs such as `*a*a*a*a*a*b` (seconds on a 40-character name). A glob without `/`
 * matches the file name; leading `!`s negate. Throws GateError SANDBOX_REFUSED for an over-long
 * glob or one RE2 cannot run.
 *
 * @example compileGlob("src/**\/*.ts")("src/auth/session.ts") // true
 */
export function compileGlob(glob: string): (rel: string) => boolean {
  if (glob.length > GREP_MAX_PATTERN) refuse(`grep_repo glob is longer than ${GREP_MAX_PATTERN} characters`);
  let rest = glob;
  let negated = false;
  while (rest.startsWith("!")) {
    rest = rest.slice(1);
    negated = !negated;
  }
  let source = picomatch.makeRe(rest, { dot: true, noextglob: true }).source;
  for (const guard of PICOMATCH_GUARDS) source = source.split(guard).join("");
  if (/\(\?<?[=!]/.test(source)) refuse(`grep_repo cannot use the glob ${JSON.stringify(glob)}; write it more simply`);
  let re: RE2JS;
  try {
    re = RE2JS.compile(RE2JS.translateRegExp(source));
  } catch (error) {
    return refuse(`grep_repo cannot use the glob ${JSON.stringify(glob)}: ${messageOf(error)}`);
  }
  if (re.programSize() > GREP_MAX_PROGRAM) refuse(`grep_repo glob ${JSON.stringify(glob)} is too complex`);
  // picomatch's `basename` rule: a glob without a slash is matched against the file name.
  const onName = !rest.includes("/");
  return (rel) => {
    const subject = onName ? rel.slice(rel.lastIndexOf("/") + 1) : rel;
    return re.test(subject) !== negated;
  };
}
