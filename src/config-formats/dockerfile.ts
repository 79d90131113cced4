import type { ConfigEntry, ConfigFormat } from "./entry.js";
import { unquote } from "./entry.js";

const PAIR = /([A-Za-z_][\w.-]*)=("(?:[^"\\]|\\.)*"|'[^']*'|[^\s"'\\]+)/g;
/** `--password=x`, `--token x`, `-e DB_PASSWORD=x` in a command. */
const FLAG = /(?:^|\s)--([A-Za-z][\w-]*)(?:=|\s+)("(?:[^"\\]|\\.)*"|'[^']*'|[^\s"'\\;&|-][^\s"'\\;&|]*)/g;
const SHELL_ASSIGNMENT = /(?:^|[\s;&|("'])(?:export\s+)?([A-Za-z_][\w.]*)=("(?:[^"\\]|\\.)*"|'[^']*'|[^\s"'\\;&|)]+)/g;

/**
 * Dockerfiles (`Dockerfile`, `Dockerfile.*`, `*.dockerfile`, `Containerfile`): `ENV` and `ARG`
 * pairs (`ENV KEY=value`, `ENV KEY value`), and in `RUN` lines (and their continuations) the
 * assignments (`export TOKEN=...`) and flags (`--password=...`) that pass a credential. `#`
 * comments are read too.
 *
 * @example dockerfileFormat.read(["ENV API_TOKEN=abc123xyz"])[0]?.path // ["ENV", "API_TOKEN"]
 */
export const dockerfileFormat: ConfigFormat = {
  id: "dockerfile",
  matches: (path) => /(^|\/)(Dockerfile|Containerfile)([.-][\w.-]+)?$|\.dockerfile$/i.test(path),
  read(rows) {
    const out: ConfigEntry[] = [];
    rows.forEach((row, index) => {
      const trimmed = row.trim();
      const commented = trimmed.startsWith("#");
      const text = commented ? trimmed.replace(/^#+\s*/, "") : trimmed;
      const push = (path: string[], raw: string) => {
        const { value, quoted } = unquote(raw, "");
        out.push({ row: index, path, value, commented, quoted });
      };
      const instr = /^(ENV|ARG)\s+(.*)$/i.exec(text);
      if (instr) {
        const kind = (instr[1] ?? "").toUpperCase();
        const rest = instr[2] ?? "";
        const legacy = /^([A-Za-z_][\w.-]*)\s+([^=\s].*)$/.exec(rest);
        if (legacy && !rest.slice(0, rest.indexOf(" ")).includes("=")) push([kind, legacy[1] ?? ""], legacy[2] ?? "");
        else for (const m of rest.matchAll(PAIR)) push([kind, m[1] ?? ""], m[2] ?? "");
        return;
      }
      // A commented example of another format (a compose file's `KEY: value`) is read as a pair.
      const pair = commented ? /^-?\s*([A-Za-z_][\w.-]*)\s*:\s+(\S.*)$/.exec(text) : null;
      if (pair) {
        push(["#", pair[1] ?? ""], pair[2] ?? "");
        return;
      }
      if (
        /^(FROM|COPY|ADD|WORKDIR|EXPOSE|USER|VOLUME|LABEL|ENTRYPOINT|CMD|HEALTHCHECK|SHELL|STOPSIGNAL|ONBUILD)\b/i.test(
          text,
        )
      )
        return;
      for (const m of text.matchAll(SHELL_ASSIGNMENT)) push(["RUN", m[1] ?? ""], m[2] ?? "");
      for (const m of text.matchAll(FLAG)) push(["RUN", m[1] ?? ""], m[2] ?? "");
    });
    return out;
  },
};
