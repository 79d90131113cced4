import { describe, expect, it } from "vitest";
import { injectionDetector } from "../../../src/detectors/security/injection.js";
import { authChangeDetector } from "../../../src/detectors/security/auth-change.js";
import { weakCryptoDetector } from "../../../src/detectors/security/weak-crypto.js";
import { addedFilePatch, buildPr, detectContext } from "../pr-builder.js";

/** Forms seen in real projects, each one line that must give exactly one finding. */
const cases: Array<[string, string[]]> = [
  ["a.py", ["users = User.objects.raw(\"SELECT * FROM auth_user WHERE username = '%s'\" % username)"]],
  ["b.py", ['cursor.execute("SELECT * FROM t WHERE id = " + str(item_id))']],
  ["c.js", ["connection.query('SELECT * FROM users WHERE id = ' + req.params.id, cb);"]],
  ["d.ts", ["const rows = await prisma.$queryRawUnsafe(`SELECT * FROM users WHERE email = '${email}'`);"]],
  ["e.go", ["\tdb.Raw(fmt.Sprintf(\"SELECT * FROM users WHERE name = '%s'\", name)).Scan(&u)"]],
  ["f.go", ["\terr := db.Select(&users, fmt.Sprintf(\"SELECT * FROM users WHERE team = '%s'\", team))"]],
  ["g.js", ["require('child_process').execSync(`git checkout ${branch}`);"]],
  ["h.py", ['out = subprocess.check_output("git log %s" % ref, shell=True)']],
  ["i.go", ['\tout, err := exec.Command("bash", "-c", fmt.Sprintf("tar xzf %s -C %s", archive, dest)).Output()']],
  ["j.py", ["    await conn.execute(f\"UPDATE accounts SET plan = '{plan}' WHERE id = {account_id}\")"]],
  ["k.ts", ["  const result = await this.dataSource.query(`DELETE FROM sessions WHERE user_id = ${userId}`);"]],
  ["l.py", ["    df = pd.read_sql(f\"SELECT * FROM events WHERE kind = '{kind}'\", engine)"]],
];
describe("SEC-02 in forms real projects use (ORMs, drivers, promisified exec)", () => {
  it.each(cases)("%s", async (f, lines) => {
    const pr = buildPr({ files: [{ filename: f, patch: addedFilePatch(lines) }] });
    expect((await injectionDetector.detect(detectContext(pr))).length).toBe(1);
  });
});

const auth: Array<[string, string[]]> = [
  ["m.ts", ["const payload = await new jose.SignJWT({ sub }).setProtectedHeader({ alg: 'HS256' }).sign(key);"]],
  ["n.py", ["    token = jwt.encode({'sub': user.id}, SECRET, algorithm='HS256')"]],
  ["o.go", ["\ttoken := jwt.NewWithClaims(jwt.SigningMethodHS256, claims)"]],
  ["p.py", ["    ok = bcrypt.checkpw(pw.encode(), row.hash)"]],
  ["q.ts", ["  const ok = await argon2.verify(user.hash, password);"]],
  ["r.py", ["    login_user(user, remember=True)"]],
  // How sessions are signed is session validation; a value stored in one is a use (no finding).
  ["s.go", ['\tstore := sessions.NewCookieStore([]byte(os.Getenv("SESSION_KEY")))', '\tsession.Values["uid"] = u.ID']],
];
describe("SEC-03 in forms real projects use (JWT, password and session libraries)", () => {
  it.each(auth)("%s", async (f, lines) => {
    const pr = buildPr({ files: [{ filename: f, patch: addedFilePatch(lines) }] });
    expect((await authChangeDetector.detect(detectContext(pr))).length).toBe(1);
  });
});

const rnd: Array<[string, string[]]> = [
  ["t.py", ["    otp = str(random.randint(100000, 999999))"]],
  ["u.ts", ["  const sessionId = Math.random().toString(36).substring(2);"]],
  ["v.go", ["\tnonce := rand.Int63()"]],
  ["w.py", ["    salt = ''.join(random.choices(string.ascii_letters, k=16))"]],
  ["x.js", ["  user.passwordHash = crypto.createHash('md5').update(req.body.password).digest('hex');"]],
];
describe("SEC-05 in forms real projects use", () => {
  it.each(rnd)("%s", async (f, lines) => {
    const pr = buildPr({ files: [{ filename: f, patch: addedFilePatch(lines) }] });
    expect((await weakCryptoDetector.detect(detectContext(pr))).length).toBe(1);
  });
});

const clean: Array<[string, string[]]> = [
  ["a.py", ['users = User.objects.raw("SELECT * FROM auth_user WHERE username = %s", [username])']],
  ["f.go", ['\terr := db.Select(&users, "SELECT * FROM users WHERE team = $1", team)']],
  ["g.js", ["require('child_process').execFileSync('git', ['checkout', branch]);"]],
  ["l.py", ['    df = pd.read_sql("SELECT * FROM events WHERE kind = %(kind)s", engine, params={"kind": kind})']],
  ["t.py", ["    if random.random() < SAMPLE_RATE:", "        metrics.emit(event)"]],
  ["u.ts", ["  const token = crypto.randomUUID();", "  const delay = base + Math.random() * 100;"]],
];
describe("their clean counterparts give no SEC-02, SEC-03 or SEC-05 finding", () => {
  it.each(clean)("%s", async (f, lines) => {
    const pr = buildPr({ files: [{ filename: f, patch: addedFilePatch(lines) }] });
    const ctx = detectContext(pr);
    const findings = (
      await Promise.all([injectionDetector, authChangeDetector, weakCryptoDetector].map((d) => d.detect(ctx)))
    ).flat();
    expect(findings).toEqual([]);
  });
});
