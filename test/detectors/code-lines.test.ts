import { describe, expect, it } from "vitest";
import { type CodeLanguage, codeLanguage, sanitizeCode } from "../../src/detectors/code-lines.js";
import { GRAMMARS } from "../../src/detectors/code/grammars.js";

describe("codeLanguage and the grammars agree on each file's line family", () => {
  it.each([
    ["src/main/java/app/UserService.java", "c-like", "java"],
    ["app/src/main/kotlin/Routes.kt", "kotlin", "kotlin"],
    ["build.gradle.kts", "kotlin", "kotlin"],
    ["Api/Controllers/UsersController.cs", "csharp", "csharp"],
    ["src/handlers.rs", "rust", "rust"],
    ["app/Http/Controllers/UserController.php", "php", "php"],
    ["app/controllers/users_controller.rb", "ruby", "ruby"],
  ] as const)("%s reads as %s", (path, family, grammar) => {
    expect(codeLanguage(path)).toBe(family);
    expect(GRAMMARS[grammar].family).toBe(family);
  });

  it("keeps Java, C and C++ in one family; Swift, Scala, Dart, Elixir, Lua and the shell splice their own way", () => {
    expect(codeLanguage("src/Main.java")).toBe("c-like");
    expect(codeLanguage("src/util.c")).toBe("c-like");
    expect(codeLanguage("src/util.hpp")).toBe("c-like");
    expect(codeLanguage("Sources/App/main.swift")).toBe("swift");
    expect(codeLanguage("src/app.scala")).toBe("scala");
    expect(codeLanguage("lib/main.dart")).toBe("dart");
    expect(codeLanguage("lib/app.ex")).toBe("elixir");
    expect(codeLanguage("lua/init.lua")).toBe("lua");
    expect(codeLanguage("scripts/deploy.sh")).toBe("shell");
  });
});

describe("sanitizeCode: interpolated values stay code, string text and comments go", () => {
  it.each<[label: string, lang: CodeLanguage, line: string, code: string]>([
    // JavaScript, Python and Go read exactly as before.
    ["a JS template literal", "js", 'log(`to ${user.email}`, "email") // email', 'log(` user.email `, "") '],
    ["a Python f-string", "python", 'log(f"to {user.email} {{x}}", "email")  # email', 'log(f" user.email ", "")  '],
    ["a Go string and comment", "go", 'log.Printf("%s", u.Email) // u.Email', 'log.Printf("", u.Email) '],
    // Java: plain strings, getParameter keys read as members.
    ["a Java string", "c-like", 'log.info("email {}", id); // user.email', 'log.info("", id); '],
    [
      "a Java request parameter",
      "c-like",
      'log.info("{}", request.getParameter("email"));',
      'log.info("", request.email);',
    ],
    // Kotlin: $name and ${expr}; "$user.email" splices `user` only, as Kotlin does.
    ["Kotlin ${expr}", "kotlin", 'logger.info { "signup ${user.email}" } // x', 'logger.info { " user.email " } '],
    ["Kotlin $name", "kotlin", 'log.info("otp sent to $phone.")', 'log.info(" phone ")'],
    ["Kotlin $name.member", "kotlin", 'println("$user.email")', 'println(" user ")'],
    ["a Kotlin raw string", "kotlin", 'val s = """a "b" $email"""', 'val s = " email "'],
    ["a Kotlin char literal", "kotlin", "val q = '\"'; log(x)", "val q = ''; log(x)"],
    // C#: $"{expr}" with formats and {{ }}, verbatim @$ and $@, raw """ strings.
    ['C# $"{expr}"', "csharp", 'Log.Information($"User {user.Email:l} {{x}}");', 'Log.Information($" user.Email ");'],
    ["C# @$ verbatim", "csharp", 'var p = @$"C:\\{user.Email}\\"; f(p);', 'var p = @$" user.Email "; f(p);'],
    ["C# $@ verbatim", "csharp", 'var p = $@"a ""{name}"""; f(p);', 'var p = $@" name "; f(p);'],
    [
      "a C# plain string keeps no braces",
      "csharp",
      '_logger.LogInformation("User {Email}", user.Email);',
      '_logger.LogInformation("", user.Email);',
    ],
    ["a C# raw string", "csharp", 'var r = $"""{user.Email} "q" """;', 'var r = $" user.Email ";'],
    // Rust: lifetimes and char literals are not strings; {name} in a format string is a variable.
    [
      "Rust lifetimes",
      "rust",
      "fn f<'a>(s: &'a str) -> &'static str { info!(\"{}\", user.email); s }",
      "fn f<'a>(s: &'a str) -> &'static str { info!(\"\", user.email); s }",
    ],
    ["Rust char literals", "rust", "let c = '\"'; let d = '\\n'; log(c)", "let c = ''; let d = ''; log(c)"],
    ["Rust captured names", "rust", 'println!("{email} {} {:?} {{x}} {n:>5}", id);', 'println!(" email  n ", id);'],
    ["a Rust raw string", "rust", 'let q = r#"a "b" c"#; run(q) // x', 'let q = r#""; run(q) '],
    ["a Rust dereference", "rust", "*self.count += 1;", "*self.count += 1;"],
    // PHP: double quotes and heredoc-style splices, single quotes plain, attributes are code.
    ["PHP {$expr}", "php", 'error_log("signup {$user->email}"); // x', 'error_log(" $user->email "); '],
    [
      "PHP $name and $name->prop",
      "php",
      'Log::info("to $email from $user->phone");',
      'Log::info(" $email  $user->phone ");',
    ],
    ["PHP $name[key]", "php", 'log("ssn $u[ssn]");', 'log(" $u.ssn ");'],
    ["PHP single quotes", "php", "Log::info('plain $email'); # x", "Log::info(''); "],
    [
      "a PHP attribute",
      "php",
      '#[Route("/users")] public function index() {}',
      '#[Route("")] public function index() {}',
    ],
    ["a PHP request input", "php", "$e = $request->input('email');", "$e = $request->email;"],
    // Ruby: #{expr} and #@ivar in double quotes, single quotes plain, symbol keys as members.
    ["Ruby #{expr}", "ruby", 'Rails.logger.info "signup #{user.email}" # x', 'Rails.logger.info " user.email " '],
    ["Ruby #@ivar", "ruby", 'puts "token #@token"', 'puts " @token "'],
    ["Ruby single quotes", "ruby", "logger.info('no #{splice}')", "logger.info('')"],
    [
      "Ruby symbol keys",
      "ruby",
      "logger.info(params[:email], params.fetch(:phone))",
      "logger.info(params.email, params.phone)",
    ],
  ])("%s", (_label, lang, line, code) => {
    expect(sanitizeCode(line, lang)).toBe(code);
  });
});
