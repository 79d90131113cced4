import { describe, expect, it } from "vitest";
import { injectionDetector } from "../../../src/detectors/security/injection.js";
import { addedFileFindingLines } from "../pr-builder.js";

/** Head lines of SEC-02 findings for one added file. */
const flagged = (filename: string, lines: string[]) => addedFileFindingLines(injectionDetector, filename, lines);

describe("Python: what a script is given from outside reaches a shell", () => {
  it("sys.argv, `from sys import argv` and input() built into a shell command, in the script's body and in a function", async () => {
    expect(
      await flagged("ridenum.py", [
        "import os, sys, subprocess",
        "from sys import argv",
        "ip = sys.argv[1]",
        'auth = ""',
        "if len(sys.argv) > 2:",
        "    auth = sys.argv[2]",
        "try:",
        "    proc = subprocess.Popen(\"rpcclient -U '{0}' {1} -c 'x'\".format(auth, ip), shell=True)",
        '    os.system("ping -c 1 " + argv[1])',
        "except KeyboardInterrupt:",
        "    pass",
        "def lookup():",
        '    target = input("Select a target: ")',
        '    subprocess.call("nslookup %s" % target, shell=True)',
        "    line = sys.stdin.readline()",
        '    os.popen(f"host {line}")',
      ]),
    ).toEqual([8, 9, 14, 16]);
  });

  it("the same inputs as an argument list without a shell, quoted, converted to a number, or a constant command: nothing", async () => {
    expect(
      await flagged("ridenum.py", [
        "import os, sys, shlex, subprocess",
        "from sys import argv",
        "ip = sys.argv[1]",
        'subprocess.Popen(["rpcclient", "-U", ip, "-c", "lsaquery"], shell=False)',
        'subprocess.run(["ping", "-c", "1", argv[1]], check=True)',
        'subprocess.run("ping -c 1 " + shlex.quote(ip), shell=True)',
        'os.system("sleep %d" % int(sys.argv[2]))',
        'name = input("name: ")',
        'subprocess.call(["echo", name])',
        'os.system("ls -la")',
      ]),
    ).toEqual([]);
  });

  it("shell=True given through a name or a dict of options (`**opts`) is a shell; the same set to False is not", async () => {
    expect(
      await flagged("tools/sync.py", [
        "import subprocess",
        "def sync(path, dest):",
        "    use_shell = True",
        '    subprocess.run("rsync -a " + path + " " + dest, shell=use_shell)',
        '    opts = {"shell": True, "check": True}',
        '    subprocess.check_call("rm -rf " + dest, **opts)',
        "def safe(path, dest):",
        "    use_shell = False",
        '    subprocess.run("rsync -a " + path + " " + dest, shell=use_shell)',
        '    opts = {"shell": False, "check": True}',
        '    subprocess.check_call("rm -rf " + dest, **opts)',
        '    subprocess.run(["rsync", "-a", path, dest], **{"check": True})',
      ]),
    ).toEqual([4, 6]);
  });
});
