import type { SgNode } from "@ast-grep/napi";
import type { SyntaxLanguage } from "../code/grammars.js";
import { kindOf, type StringBuilderReader } from "./built-string.js";
import { STRING_SYNTAX } from "./string-syntax.js";

/**
 * Where data comes from outside the program, per language, as data: the expressions that read a
 * request, a cookie, an upload, a socket or a fetched response (`reads`), and the handler
 * parameters a framework fills from the request (`parameters`, whose first group is the name).
 *
 * @example OUTSIDE_DATA.ruby.reads.test("cookies[:session]") // true
 */
export interface OutsideData {
  reads: RegExp;
  parameters?: RegExp;
}

const JS: OutsideData = {
  reads:
    /\b(req|request|ctx\.request|ctx)\s*\??\.\s*(body|query|params|cookies|headers|rawBody|files?)\b|\bevent\.(body|queryStringParameters)\b|\b(searchParams|formData)\b|\bawait\s+[\w.]+\.(text|json|arrayBuffer|blob)\(\)|\bfetch\(|\baxios\b|\.data\b/,
};
const JVM_READS =
  /\b(request|req|httpRequest|servletRequest)\.(getParameter\w*|getInputStream|getReader|getHeader\w*|getCookies|getQueryString|getPart\w*|inputStream|reader)\b|\bgetCookies\(\)|\bcookie\.(getValue|value)\b|\b(socket|sock|client|connection|conn)\.(getInputStream|inputStream)\b|\bexchange\.getRequestBody\b|\bcall\.(receive\w*|parameters|request)\b|\b(getRequestBody|getInputStream)\(\)|\.body\(\)/;
const JVM_PARAMETERS =
  /@(?:RequestBody|RequestParam|PathVariable|RequestHeader|CookieValue|RequestPart|ModelAttribute)\b(?:\([^)]*\))?\s+(?:final\s+)?(?:[\w.]+(?:<[^>]*>)?(?:\[\])?\s+)?(\w+)\s*[:,)]|\b(\w+)\s*:\s*MultipartFile\b|\bMultipartFile\s+(\w+)/g;

/** C and C++: a CGI environment, what is read from a socket or standard input. */
const C_SOURCES: OutsideData = {
  reads:
    /\bgetenv\s*\(\s*"(QUERY_STRING|HTTP_\w+|CONTENT_\w+)"|\b(recv|recvfrom|read|fgets|gets|scanf|getline)\s*\(|\bargv\b/,
};

/** Every language's outside data. */
export const OUTSIDE_DATA: Readonly<Record<SyntaxLanguage, OutsideData>> = {
  javascript: JS,
  typescript: JS,
  tsx: JS,
  python: {
    reads:
      /\b(request|self\.request)\.(data|get_data|form|args|json|get_json|files|body|POST|GET|COOKIES|cookies|values|stream|content|read|headers|FILES|query_params|stream)\b|\.recv(from)?\(|\brequests\.(get|post|put|request)\(|\b(resp|response|r|res)\.(content|text|body|read\(\)|raw)\b|\burlopen\(|\bawait\s+request\.(body|read|json|text|form)\(|\bhttpx\.(get|post)\(/,
    parameters:
      /\b(\w+)\s*:\s*(?:bytes|str|UploadFile)\s*=\s*(?:File|Body|Form|Cookie|Header)\(|\b(\w+)\s*:\s*UploadFile\b/g,
  },
  go: {
    reads:
      /\b(r|req|request)\.(Body|Form|PostForm|URL\.Query|FormValue|PostFormValue|Cookie|Header)\b|\bc\.(Query|Param|PostForm|Cookie|Body|Bind\w*)\b/,
  },
  java: { reads: JVM_READS, parameters: JVM_PARAMETERS },
  kotlin: { reads: JVM_READS, parameters: JVM_PARAMETERS },
  csharp: {
    reads:
      /\b(Request|HttpContext\.Request|context\.Request|req)\.(Form|Query|QueryString|Cookies|Body|BodyReader|Headers|InputStream|Params|Files|RouteValues)\b|\.OpenReadStream\(\)|\.ReadAs(Stream|String|ByteArray)Async\(|\.GetStream\(\)|\bReadFromJsonAsync\b/,
    parameters:
      /\[From(?:Body|Query|Form|Header|Route)[^\]]*\]\s*[\w.<>[\]?]+\s+(\w+)|\bIFormFile\s+(\w+)|\bHttpRequest\s+(\w+)/g,
  },
  php: {
    reads:
      /\$_(GET|POST|REQUEST|COOKIE|FILES|SERVER)\b|php:\/\/input|\$request\s*->\s*(input|get|query|post|cookie|getContent|all|json|file|header)\b|->getContent\(\)|\bRequest::(input|get|query|cookie|all)\b|\b(request|cookie)\(\)/,
  },
  ruby: {
    reads:
      /\b(params|cookies)\b|\brequest\.(body|raw_post|params|query_string|cookies|headers|env|POST|GET)\b|\bNet::HTTP\.(get|post)\b|\bHTTParty\.\w+|\bFaraday\b|\bURI\.open\b|\bresponse\.body\b|\.recv\(/,
  },
  rust: {
    reads: /\b(req|request)\.(body|uri|headers|query_string|cookie)\b/,
    parameters:
      /\b(?:Json|Query|Form|Path|web::Json|web::Query|web::Form|web::Path|axum::Json)\s*\(\s*(\w+)\s*\)|\b(\w+)\s*:\s*(?:Bytes|web::Bytes|String|web::Payload|Multipart|axum::body::Bytes)\s*[,)]/g,
  },
  // A script's arguments, what it reads, a CGI query: the shell's outside data.
  bash: { reads: /\$\{?[1-9@*]|\bread\b|\$\{?QUERY_STRING\b|\$\{?HTTP_\w+/ },
  // Play (`request.getQueryString`, `request.body`), Akka HTTP directives, servlets.
  scala: {
    reads:
      /\b(request|req)\.(getQueryString|queryString|body|headers|cookies|getParameter\w*|getHeader\w*)\b|\b(parameters?|formFields?|entity|headerValueByName|cookie)\s*\(/,
  },
  // Vapor: `req.query`, `req.content`, `req.parameters`, `req.headers`; URLSession data.
  swift: { reads: /\b(req|request)\.(query|content|parameters|headers|body|cookies)\b|\bURLComponents\b/ },
  c: C_SOURCES,
  cpp: C_SOURCES,
  // shelf and dart:io: `request.url.queryParameters`, `request.readAsString()`, `HttpRequest`.
  dart: {
    reads: /\b(request|req)\.(url|uri|requestedUri|headers|readAsString|read|params|cookies)\b|\bqueryParameters\b/,
  },
  // Phoenix and Plug: the action's `params`, `conn.params`, `conn.body_params`, `Plug.Conn.read_body`.
  elixir: {
    reads: /\bparams\b|\bconn\.(params|body_params|query_params|path_params|req_headers|cookies)\b|\bread_body\b/,
  },
  // OpenResty: `ngx.req.get_uri_args()`, `ngx.var.arg_x`, `ngx.req.get_body_data()`.
  lua: { reads: /\bngx\.(req\.\w+|var\.\w+)|\bngx\.var\b|\bio\.read\b/ },
};

const MAX_DEPTH = 3;

/**
 * Whether a value comes from outside: it reads a request, cookie, upload, socket or fetched
 * response itself, or a name in it is a request-filled handler parameter, or was assigned (in
 * about the same function) a value that does, followed a few names deep.
 *
 * @example new OutsideReader("ruby", reader, text).fromOutside(argNode) // true for `Base64.decode64(cookies[:s])`
 */
export class OutsideReader {
  private readonly data: OutsideData;
  private parameterNames: Set<string> | undefined;

  constructor(
    private readonly lang: SyntaxLanguage,
    private readonly reader: StringBuilderReader,
    private readonly text: string,
  ) {
    this.data = OUTSIDE_DATA[lang];
  }

  /** True when the value (or what its names were given) reads outside data. */
  fromOutside(node: SgNode, depth = 0, seen: Set<string> = new Set()): boolean {
    if (this.data.reads.test(node.text())) return true;
    if (depth >= MAX_DEPTH) return false;
    const kinds = STRING_SYNTAX[this.lang].identifierKinds;
    const names = kinds.includes(kindOf(node))
      ? [node]
      : node.findAll({ rule: { any: kinds.map((kind) => ({ kind })) } });
    const row = node.range().start.line;
    for (const name of names) {
      const text = name.text();
      if (seen.has(text)) continue;
      seen.add(text);
      if (this.parameters().has(text)) return true;
      for (const value of this.reader.assignmentsTo(text, row + 1))
        if (this.fromOutside(value, depth + 1, seen)) return true;
    }
    return false;
  }

  /** The handler parameters the file's framework fills from the request. */
  private parameters(): Set<string> {
    if (this.parameterNames) return this.parameterNames;
    const names = new Set<string>();
    if (this.data.parameters) {
      for (const m of this.text.matchAll(this.data.parameters)) {
        const name = m.slice(1).find((g) => g !== undefined);
        if (name) names.add(this.lang === "php" ? `$${name}` : name);
      }
    }
    this.parameterNames = names;
    return names;
  }
}
