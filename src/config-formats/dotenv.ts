import type { ConfigEntry, ConfigFormat } from "./entry.js";
import { keyValueLine, uncomment } from "./key-value-line.js";

/**
 * `.env` files (`.env`, `.env.production`, `env.example`, `app.env`) and shell scripts: `KEY=value`
 * and `export KEY=value` lines, `#` comments (read too).
 *
 * @example dotenvFormat.read(["export DB_PASSWORD='hunter22'"])[0]?.path // ["DB_PASSWORD"]
 */
export const dotenvFormat: ConfigFormat = {
  id: "dotenv",
  matches: (path) =>
    /(^|\/)(\.env(\.[\w.-]+)?|[\w.-]+\.env|\.envrc|\.flaskenv)$/i.test(path) ||
    /(^|\/)env[.-](example|sample|template|local|dist|defaults?|dev\w*|prod\w*|staging|test)$/i.test(path) ||
    /\.(sh|bash|zsh|ksh)$/i.test(path),
  read(rows) {
    const out: ConfigEntry[] = [];
    rows.forEach((row, index) => {
      // `;` and `//` are no comment marks of .env, but people write them to turn a line off.
      const inComment = uncomment(row, ["#", ";", "//"]);
      // A shell line may hold several assignments (`A=1 B=2 cmd`); a `.env` line holds one.
      const text = (inComment ?? row).trim();
      const kv = keyValueLine(text, "=");
      if (!kv || /\s/.test(kv.key)) return;
      out.push({ row: index, path: [kv.key], value: kv.value, commented: inComment !== undefined, quoted: kv.quoted });
    });
    return out;
  },
};
