import type { SyntaxLanguage } from "../code/grammars.js";
import type { CallRule } from "./call-rule.js";

/**
 * Where each language turns bytes or text into live objects or code, as data: deserializers that
 * can build any class (pickle, Java serialization, BinaryFormatter, PHP `unserialize`, Ruby
 * `Marshal`, full YAML loaders), dynamic code and dispatch (`ScriptEngine.eval`, `instance_eval`,
 * `send`, `constantize`), and templates compiled from data. `unsafe-deserialization.ts` reads it.
 *
 * Not here, on purpose: `json.loads`, `JSON.parse`, `json_decode`, serde_json, Jackson without
 * default typing, `yaml.safe_load`, `YAML.safe_load` (data only, no classes); JavaScript's and
 * Python's `eval`/`exec`/`new Function`/`vm.run*` and PHP's `eval(...)`, which the injection
 * detector's eval rule already reports on any non-literal; Go (gob, encoding/json and yaml.v3
 * build only declared types); Rust (serde formats, bincode and serde_pickle included, fill
 * declared types and run no code while loading: a corrupt input is an error, not a gadget chain).
 *
 * @example DESERIALIZATION_RULES.ruby.sinks.map((s) => s.callee?.source)
 */

/** What reaches a sink for it to be a finding. */
export type Exposure =
  /** Risky whatever the data: the API is unsafe by design (BinaryFormatter, `YAML.unsafe_load`). */
  | "always"
  /** Risky when the data comes from outside (a request, cookie, upload, socket or fetched response). */
  | "outside";

/** One call that deserializes or runs what it is given. */
export interface DeserializationSink extends CallRule {
  /** When it is a finding. */
  exposure: Exposure;
  /** The positional argument that carries the data (default the first). */
  arg?: number;
  /** The call is safe when its own text says so (a safe loader, `allowed_classes => false`). */
  safeCall?: RegExp;
  /** The file configures the API safely (SnakeYAML's `SafeConstructor`, XStream's allow-list). */
  safeFile?: RegExp;
  /** Only when the call's text says this (Jackson's permissive type validator). */
  callRequires?: RegExp;
  /** Only when the file also does this (a formatter that is asked to `Deserialize`). */
  fileRequires?: RegExp;
  /** The form another SEC-02 rule already reports (`eval(...)` with parentheses). */
  reportedElsewhere?: RegExp;
  message: string;
}

/** A property set to a value that makes a deserializer unsafe (Json.NET `TypeNameHandling.All`). */
export interface DeserializationProperty {
  property: RegExp;
  value: RegExp;
  message: string;
}

/** One language's rules. */
export interface DeserializationRules {
  sinks: readonly DeserializationSink[];
  properties: readonly DeserializationProperty[];
  /** Methods called without an argument list on outside data (Ruby `params[:type].constantize`). */
  receiverSinks: readonly { callKind: string; method: RegExp; message: string }[];
}

const ADVICE_DATA = "parse a data-only format (JSON, or a safe YAML loader) into plain values instead";

const MESSAGE = {
  pickle:
    "Outside data unpickled (pickle/marshal/dill/joblib): loading a pickle can run any code its author chose; " +
    ADVICE_DATA,
  yaml:
    "Outside data loaded with a full YAML loader (yaml.load without Loader=SafeLoader, unsafe_load): a tag can " +
    "build any Python object; use yaml.safe_load or Loader=yaml.SafeLoader",
  jsonpickle: `Outside data decoded with jsonpickle, which rebuilds any class the input names: ${ADVICE_DATA}`,
  nodeSerialize:
    "Outside data passed to node-serialize's unserialize, which runs functions embedded in the input: use JSON.parse",
  javaSerialization:
    "Outside data read with Java deserialization (ObjectInputStream / XMLDecoder / XStream): a crafted stream " +
    `runs gadget chains while it is read; ${ADVICE_DATA}, or an ObjectInputFilter allow-list`,
  snakeYaml:
    "Outside data loaded with SnakeYAML's default constructor, which can build any class the document names: " +
    "use new Yaml(new SafeConstructor(new LoaderOptions()))",
  jacksonTyping:
    "Jackson default typing turned on: a JSON document can name any class to build (a deserialization gadget); " +
    "use concrete types, or a PolymorphicTypeValidator that allows only your own classes",
  scriptEval:
    "Outside data evaluated as code or an expression (ScriptEngine.eval / SpEL parseExpression / CSharpScript): " +
    "this is code injection; parse the data instead of executing it",
  binaryFormatter:
    "BinaryFormatter-family deserialization (BinaryFormatter, SoapFormatter, NetDataContractSerializer, " +
    "LosFormatter, ObjectStateFormatter): unsafe by design, any input can run code; use System.Text.Json or " +
    "DataContractSerializer with known types",
  typeResolver: "JavaScriptSerializer with a SimpleTypeResolver builds any type the input names: use System.Text.Json",
  typeNameHandling:
    "Json.NET TypeNameHandling other than None lets the input name the .NET type to build (a deserialization " +
    "gadget): keep TypeNameHandling.None, or bind types with a SerializationBinder allow-list",
  erlangTerm:
    "Outside data decoded with :erlang.binary_to_term: a crafted term can create atoms without bound and carry " +
    `functions that run when called; ${ADVICE_DATA}, or binary_to_term(data, [:safe]) on trusted data only`,
  phpUnserialize:
    "Outside data passed to unserialize(): a crafted string builds objects whose magic methods run (object " +
    "injection); use json_decode, or unserialize($s, ['allowed_classes' => false])",
  rubyMarshal:
    "Outside data loaded with Marshal.load: a crafted string builds any object and can run code; use JSON.parse",
  rubyYaml:
    "Outside data loaded with YAML.load / Psych.load (before Psych 4 a full loader that builds any object): use " +
    "YAML.safe_load with permitted classes",
  rubyUnsafeYaml:
    "YAML.unsafe_load builds any Ruby object the document names: use YAML.safe_load with permitted classes",
  rubyOj: "Outside data loaded with Oj.load in object mode, which builds any class: pass mode: :strict",
  rubyDynamic:
    "Outside data used as code or as a method or class name (eval / instance_eval / send / constantize / " +
    "const_get): the caller chooses what runs; map allowed values to methods explicitly",
  template:
    "A template compiled from outside data (server-side template injection): keep templates constant and pass " +
    "user data as template variables",
} as const;

const PYTHON: DeserializationRules = {
  properties: [],
  receiverSinks: [],
  sinks: [
    {
      methods: ["loads", "load", "Unpickler"],
      callee: /^(pickle|cPickle|_pickle|dill|cloudpickle|joblib|marshal)\.(loads|load|Unpickler)$/,
      exposure: "outside",
      message: MESSAGE.pickle,
    },
    { methods: ["read_pickle"], callee: /^(pd|pandas)\.read_pickle$/, exposure: "outside", message: MESSAGE.pickle },
    {
      methods: ["load", "load_all"],
      callee: /^(yaml|ruamel\.yaml)\.(load|load_all)$/,
      safeCall: /Loader\s*=\s*(yaml\.)?(Safe|CSafe|Base|CBase)Loader\b/,
      exposure: "outside",
      message: MESSAGE.yaml,
    },
    {
      methods: ["unsafe_load", "unsafe_load_all", "full_load", "full_load_all"],
      callee: /^yaml\.\w+$/,
      exposure: "outside",
      message: MESSAGE.yaml,
    },
    {
      methods: ["decode", "loads"],
      callee: /^jsonpickle\.(decode|loads)$/,
      exposure: "outside",
      message: MESSAGE.jsonpickle,
    },
  ],
};

const JS: DeserializationRules = {
  properties: [],
  receiverSinks: [],
  sinks: [
    {
      methods: ["unserialize"],
      callee: /^((node)?[sS]erialize|serializer|nodeSerialize|require\(["']node-serialize["']\))?\.?unserialize$/,
      exposure: "outside",
      message: MESSAGE.nodeSerialize,
    },
  ],
};

const JVM: DeserializationRules = {
  properties: [],
  receiverSinks: [],
  sinks: [
    { methods: ["ObjectInputStream", "XMLDecoder"], exposure: "outside", message: MESSAGE.javaSerialization },
    {
      methods: ["fromXML"],
      receiver: "any",
      exposure: "outside",
      safeFile: /\b(allowTypes\w*|addPermission|setupDefaultSecurity)\b/,
      message: MESSAGE.javaSerialization,
    },
    {
      methods: ["load", "loadAll", "loadAs"],
      receiver: /(^|\.|new)(\w*[yY]aml|Yaml\(\))$/,
      exposure: "outside",
      safeFile: /\bSafeConstructor\b/,
      message: MESSAGE.snakeYaml,
    },
    { methods: ["enableDefaultTyping"], receiver: "any", exposure: "always", message: MESSAGE.jacksonTyping },
    {
      methods: ["activateDefaultTyping"],
      receiver: "any",
      exposure: "always",
      callRequires: /LaissezFaireSubTypeValidator/,
      message: MESSAGE.jacksonTyping,
    },
    {
      methods: ["eval", "parseExpression", "parseRaw"],
      receiver: "any",
      exposure: "outside",
      message: MESSAGE.scriptEval,
    },
    { methods: ["evaluate"], receiver: /^Velocity$/, arg: 3, exposure: "outside", message: MESSAGE.template },
  ],
};

/** A language without deserialization sinks here. */
const NONE: DeserializationRules = { sinks: [], properties: [], receiverSinks: [] };

/** Every language's rules. */
export const DESERIALIZATION_RULES: Readonly<Record<SyntaxLanguage, DeserializationRules>> = {
  javascript: JS,
  typescript: JS,
  tsx: JS,
  python: PYTHON,
  go: NONE,
  java: JVM,
  kotlin: JVM,
  csharp: {
    receiverSinks: [],
    sinks: [
      {
        methods: [
          "BinaryFormatter",
          "SoapFormatter",
          "NetDataContractSerializer",
          "LosFormatter",
          "ObjectStateFormatter",
        ],
        exposure: "always",
        fileRequires: /\.(Deserialize|UnsafeDeserialize\w*)\s*\(/,
        message: MESSAGE.binaryFormatter,
      },
      {
        methods: ["JavaScriptSerializer"],
        exposure: "always",
        callRequires: /SimpleTypeResolver/,
        message: MESSAGE.typeResolver,
      },
      {
        methods: ["EvaluateAsync", "RunAsync", "Create"],
        receiver: /^CSharpScript$/,
        exposure: "outside",
        message: MESSAGE.scriptEval,
      },
    ],
    properties: [
      {
        property: /(^|\.)TypeNameHandling$/,
        value: /TypeNameHandling\.(All|Auto|Objects|Arrays)\b/,
        message: MESSAGE.typeNameHandling,
      },
    ],
  },
  php: {
    properties: [],
    receiverSinks: [],
    sinks: [
      {
        methods: ["unserialize"],
        receiver: "none",
        exposure: "outside",
        safeCall: /['"]allowed_classes['"]\s*=>\s*false\b/,
        message: MESSAGE.phpUnserialize,
      },
      { methods: ["createTemplate"], receiver: "any", exposure: "outside", message: MESSAGE.template },
    ],
  },
  ruby: {
    properties: [],
    receiverSinks: [{ callKind: "call", method: /^(safe_)?constantize$/, message: MESSAGE.rubyDynamic }],
    sinks: [
      { methods: ["load", "restore"], receiver: /^Marshal$/, exposure: "outside", message: MESSAGE.rubyMarshal },
      {
        methods: ["load", "load_stream"],
        callee: /^(YAML|Psych)\.(load|load_stream)$/,
        exposure: "outside",
        message: MESSAGE.rubyYaml,
      },
      {
        methods: ["unsafe_load", "unsafe_load_file"],
        receiver: /^(YAML|Psych)$/,
        exposure: "always",
        message: MESSAGE.rubyUnsafeYaml,
      },
      {
        methods: ["load"],
        receiver: /^Oj$/,
        exposure: "outside",
        safeCall: /mode:\s*:(strict|compat|null|json|rails)\b/,
        message: MESSAGE.rubyOj,
      },
      {
        methods: ["eval", "instance_eval", "class_eval", "module_eval", "send", "public_send", "__send__", "const_get"],
        exposure: "outside",
        reportedElsewhere: /^eval\s*\(/,
        message: MESSAGE.rubyDynamic,
      },
      {
        methods: ["new"],
        receiver: /^(ERB|Liquid\.Template|Haml\.Engine)$/,
        exposure: "outside",
        message: MESSAGE.template,
      },
      { methods: ["parse"], receiver: /^Liquid\.Template$/, exposure: "outside", message: MESSAGE.template },
    ],
  },
  rust: NONE,
  bash: NONE,
  scala: JVM,
  swift: NONE,
  c: NONE,
  cpp: NONE,
  dart: NONE,
  elixir: {
    properties: [],
    receiverSinks: [],
    sinks: [
      {
        methods: ["binary_to_term"],
        receiver: /^:erlang$/,
        exposure: "outside",
        message: MESSAGE.erlangTerm,
      },
      {
        methods: ["eval_string", "eval_quoted", "compile_string"],
        receiver: /^Code$/,
        exposure: "outside",
        message: MESSAGE.scriptEval,
      },
    ],
  },
  lua: {
    properties: [],
    receiverSinks: [],
    sinks: [
      {
        methods: ["loadstring", "load", "dostring"],
        receiver: "none",
        exposure: "outside",
        message: MESSAGE.scriptEval,
      },
    ],
  },
};
