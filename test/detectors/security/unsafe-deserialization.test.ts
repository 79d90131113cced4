import { describe, expect, it } from "vitest";
import {
  mayDeserialize,
  unsafeDeserializationDetector,
} from "../../../src/detectors/security/unsafe-deserialization.js";
import { addedFilePatch, buildPr, detectContext } from "../pr-builder.js";

/** The lines of SEC-02 deserialization findings for one added file, each checked for its shape. */
async function flagged(filename: string, lines: string[]): Promise<number[]> {
  const pr = buildPr({ files: [{ filename, patch: addedFilePatch(lines) }] });
  const findings = await unsafeDeserializationDetector.detect(detectContext(pr));
  for (const f of findings) {
    expect(f).toMatchObject({
      policy: "SEC-02",
      severity: "high",
      blocking: true,
      detector: "unsafe-deserialization",
      file: filename,
    });
  }
  return findings.map((f) => f.line ?? 0);
}

// One row per language: unsafe loading of outside data, and the safe look-alike beside it.
const CASES: Array<{ name: string; file: string; lines: string[]; flags: number[] }> = [
  {
    name: "Python: pickle.loads of a request body and yaml.load with the full loader",
    file: "app/api/imports.py",
    lines: [
      "@app.post('/import')",
      "def import_state():",
      "    blob = request.get_data()",
      "    state = pickle.loads(blob)",
      "    cfg = yaml.load(request.data, Loader=yaml.FullLoader)",
      "    return state, cfg",
    ],
    flags: [4, 5],
  },
  {
    name: "Python clean: json, yaml.safe_load, SafeLoader, and a local pickle cache",
    file: "app/api/imports.py",
    lines: [
      "@app.post('/import')",
      "def import_state():",
      "    state = json.loads(request.get_data())",
      "    cfg = yaml.safe_load(request.data)",
      "    other = yaml.load(request.data, Loader=yaml.SafeLoader)",
      "    cache = pickle.load(open('cache/state.pkl', 'rb'))",
      "    return state, cfg, other, cache",
    ],
    flags: [],
  },
  {
    name: "JavaScript: node-serialize's unserialize of a cookie",
    file: "src/routes/profile.js",
    lines: [
      'const serialize = require("node-serialize");',
      'router.get("/profile", (req, res) => {',
      '  const profile = serialize.unserialize(Buffer.from(req.cookies.profile, "base64").toString());',
      "  res.json(profile);",
      "});",
    ],
    flags: [3],
  },
  {
    name: "JavaScript clean: JSON.parse of a cookie",
    file: "src/routes/profile.js",
    lines: ['router.get("/profile", (req, res) => {', "  res.json(JSON.parse(req.cookies.profile));", "});"],
    flags: [],
  },
  {
    name: "Java: ObjectInputStream over a request body, XMLDecoder, SnakeYAML default, default typing",
    file: "src/main/java/app/ImportController.java",
    lines: [
      "@RestController",
      "class ImportController {",
      '  @PostMapping("/import")',
      "  Object imp(@RequestBody byte[] body, HttpServletRequest request) throws Exception {",
      "    Object o = new ObjectInputStream(new ByteArrayInputStream(body)).readObject();",
      "    Object d = new XMLDecoder(request.getInputStream()).readObject();",
      '    Object y = new Yaml().load(request.getParameter("doc"));',
      "    mapper.enableDefaultTyping();",
      "    return o;",
      "  }",
      "}",
    ],
    flags: [5, 6, 7, 8],
  },
  {
    name: "Java clean: Jackson into a type, SnakeYAML SafeConstructor, a local cache file",
    file: "src/main/java/app/ImportController.java",
    lines: [
      "@RestController",
      "class ImportController {",
      '  @PostMapping("/import")',
      "  Order imp(@RequestBody String body) throws Exception {",
      "    Order o = mapper.readValue(body, Order.class);",
      "    Object y = new Yaml(new SafeConstructor(new LoaderOptions())).load(body);",
      '    Object c = new ObjectInputStream(new FileInputStream("cache/state.bin")).readObject();',
      "    return o;",
      "  }",
      "}",
    ],
    flags: [],
  },
  {
    name: "Kotlin: ObjectInputStream over a Ktor request body",
    file: "src/main/kotlin/app/Import.kt",
    lines: [
      "fun Route.imports() {",
      '  post("/import") {',
      "    val bytes = call.receive<ByteArray>()",
      "    val state = ObjectInputStream(ByteArrayInputStream(bytes)).readObject()",
      "    call.respond(state.toString())",
      "  }",
      "}",
    ],
    flags: [4],
  },
  {
    name: "Kotlin clean: kotlinx.serialization into a declared type",
    file: "src/main/kotlin/app/Import.kt",
    lines: [
      "fun Route.imports() {",
      '  post("/import") {',
      "    val text = call.receiveText()",
      "    val state = Json.decodeFromString<ImportState>(text)",
      "    call.respond(state)",
      "  }",
      "}",
    ],
    flags: [],
  },
  {
    name: "C#: BinaryFormatter and TypeNameHandling.All",
    file: "Api/Controllers/ImportController.cs",
    lines: [
      "public class ImportController : ControllerBase {",
      "  public IActionResult Import() {",
      "    var formatter = new BinaryFormatter();",
      "    var state = formatter.Deserialize(Request.Body);",
      "    var settings = new JsonSerializerSettings { TypeNameHandling = TypeNameHandling.All };",
      "    return Ok(state);",
      "  }",
      "}",
    ],
    flags: [3, 5],
  },
  {
    name: "C# clean: System.Text.Json and TypeNameHandling.None",
    file: "Api/Controllers/ImportController.cs",
    lines: [
      "public class ImportController : ControllerBase {",
      "  public async Task<IActionResult> Import() {",
      "    var state = await JsonSerializer.DeserializeAsync<ImportState>(Request.Body);",
      "    var settings = new JsonSerializerSettings { TypeNameHandling = TypeNameHandling.None };",
      "    return Ok(state);",
      "  }",
      "}",
    ],
    flags: [],
  },
  {
    name: "PHP: unserialize of a cookie, directly and through a variable",
    file: "public/cart.php",
    lines: [
      "<?php",
      "$prefs = unserialize($_COOKIE['prefs']);",
      "$raw = base64_decode($_COOKIE['cart']);",
      "$cart = unserialize($raw);",
    ],
    flags: [2, 4],
  },
  {
    name: "PHP clean: json_decode, allowed_classes => false, a local cache file",
    file: "public/cart.php",
    lines: [
      "<?php",
      "$prefs = json_decode($_COOKIE['prefs'], true);",
      "$cart = unserialize($_COOKIE['cart'], ['allowed_classes' => false]);",
      "$cache = unserialize(file_get_contents('/var/cache/app/state.ser'));",
    ],
    flags: [],
  },
  {
    name: "Ruby: Marshal.load of a cookie, YAML.load of a body, unsafe_load, constantize and send of params",
    file: "app/controllers/sessions_controller.rb",
    lines: [
      "class SessionsController < ApplicationController",
      "  def show",
      "    profile = Marshal.load(Base64.decode64(cookies[:profile]))",
      "    cfg = YAML.load(request.body.read)",
      '    all = YAML.unsafe_load(File.read("config/app.yml"))',
      "    klass = params[:type].constantize",
      "    value = @report.send(params[:column])",
      "  end",
      "end",
    ],
    flags: [3, 4, 5, 6, 7],
  },
  {
    name: "Ruby clean: JSON.parse, YAML.safe_load, send of a symbol, a local Marshal cache",
    file: "app/controllers/sessions_controller.rb",
    lines: [
      "class SessionsController < ApplicationController",
      "  def show",
      "    profile = JSON.parse(cookies[:profile])",
      "    cfg = YAML.safe_load(request.body.read)",
      "    value = @report.send(:total)",
      '    cache = Marshal.load(File.binread("tmp/cache/state.bin"))',
      "  end",
      "end",
    ],
    flags: [],
  },
  {
    name: "Rust: serde formats fill declared types; none is reported",
    file: "src/handlers/import.rs",
    lines: [
      "async fn import(body: Bytes) -> Result<Json<State>, AppError> {",
      "    let state: State = bincode::deserialize(&body)?;",
      "    let other: State = serde_json::from_slice(&body)?;",
      "    Ok(Json(state))",
      "}",
    ],
    flags: [],
  },
  {
    name: "Go: gob and encoding/json fill declared types; none is reported",
    file: "internal/api/import.go",
    lines: [
      "func importState(w http.ResponseWriter, r *http.Request) {",
      "\tvar s State",
      "\t_ = gob.NewDecoder(r.Body).Decode(&s)",
      "\t_ = json.NewDecoder(r.Body).Decode(&s)",
      "}",
    ],
    flags: [],
  },
];

describe("SEC-02 unsafe deserialization and dynamic code", () => {
  it.each(CASES)("$name", async ({ file, lines, flags }) => {
    expect(await flagged(file, lines)).toEqual(flags);
  });

  it("names the sink in its message", async () => {
    const pr = buildPr({
      files: [{ filename: "public/cart.php", patch: addedFilePatch(["<?php", "$c = unserialize($_COOKIE['c']);"]) }],
    });
    const [finding] = await unsafeDeserializationDetector.detect(detectContext(pr));
    expect(finding?.message).toContain("unserialize");
    expect(finding?.message).toContain("allowed_classes");
  });

  it("reports only added lines", async () => {
    const patch = ["@@ -1,2 +1,3 @@", " <?php", " $c = unserialize($_COOKIE['c']);", "+$x = 1;"].join("\n");
    const pr = buildPr({ files: [{ filename: "public/cart.php", patch }] });
    expect(await unsafeDeserializationDetector.detect(detectContext(pr))).toEqual([]);
  });

  it("pre-checks on the sinks' names: a file naming none is not parsed", () => {
    expect(mayDeserialize("data = json.dumps(body)", "python")).toBe(false);
    expect(mayDeserialize("data = pickle.loads(body)", "python")).toBe(true);
    expect(mayDeserialize("var s = new JsonSerializerSettings { TypeNameHandling = x };", "csharp")).toBe(true);
    expect(mayDeserialize("klass = params[:t].constantize", "ruby")).toBe(true);
    expect(mayDeserialize("let s: State = bincode::deserialize(&b)?;", "rust")).toBe(false);
  });
});
