import { describe, expect, it } from "vitest";
import { weakCryptoDetector } from "../../../src/detectors/security/weak-crypto.js";
import { addedFilePatch, buildPr, detectContext } from "../pr-builder.js";

/** SEC-05 lines found in one added file, and the messages' first words. */
async function weak(filename: string, lines: string[]): Promise<Array<[number, string]>> {
  const pr = buildPr({ files: [{ filename, patch: addedFilePatch(lines) }] });
  const findings = await weakCryptoDetector.detect(detectContext(pr));
  for (const f of findings) expect(f).toMatchObject({ policy: "SEC-05", blocking: false, severity: "medium" });
  return findings.map((f) => [f.line ?? 0, f.message]);
}

type Kind = "hash" | "password" | "cipher" | "random" | "iv" | "tls";
const MESSAGE: Record<Kind, RegExp> = {
  hash: /MD5\/SHA-1 are broken/,
  password: /password is hashed with a fast hash/,
  cipher: /broken cipher or mode/,
  random: /predictable generator/,
  iv: /constant IV, nonce or salt/,
  tls: /TLS certificate or host name verification turned off/,
};

/** [file, kind, risky lines (the first one is flagged), clean look-alike lines (none flagged)]. */
const CASES: Array<[string, Kind, string[], string[]]> = [
  // Java
  [
    "src/main/java/com/acme/Checksums.java",
    "hash",
    ['MessageDigest md = MessageDigest.getInstance("SHA-1");'],
    ['MessageDigest md = MessageDigest.getInstance("SHA-256");', 'String s = "MessageDigest.getInstance(\\"MD5\\")";'],
  ],
  [
    "src/main/java/com/acme/Vault.java",
    "cipher",
    ['Cipher c = Cipher.getInstance("AES/ECB/PKCS5Padding");'],
    ['Cipher c = Cipher.getInstance("AES/GCM/NoPadding");'],
  ],
  [
    "src/main/java/com/acme/Tokens.java",
    "random",
    ["String resetToken = Long.toHexString(new Random().nextLong());"],
    [
      "String resetToken = Long.toHexString(new SecureRandom().nextLong());",
      "int jitterMs = new Random().nextInt(50);",
    ],
  ],
  [
    "src/main/java/com/acme/Vault2.java",
    "iv",
    ['IvParameterSpec spec = new IvParameterSpec("0123456789abcdef".getBytes());'],
    ["IvParameterSpec spec = new IvParameterSpec(ivBytes);"],
  ],
  [
    "src/main/java/com/acme/Http.java",
    "tls",
    [
      "public void checkServerTrusted(X509Certificate[] chain, String authType) { }",
      "conn.setHostnameVerifier((host, session) -> true);",
    ],
    [
      "public void checkServerTrusted(X509Certificate[] chain, String authType) throws CertificateException {",
      "  delegate.checkServerTrusted(chain, authType);",
      "}",
      "conn.setHostnameVerifier(HttpsURLConnection.getDefaultHostnameVerifier());",
    ],
  ],
  [
    "src/main/java/com/acme/Apache.java",
    "tls",
    ["builder.setSSLHostnameVerifier(NoopHostnameVerifier.INSTANCE);"],
    ["builder.setSSLHostnameVerifier(new DefaultHostnameVerifier());"],
  ],
  // Kotlin
  [
    "app/src/main/kotlin/acme/Accounts.kt",
    "password",
    ['val stored = MessageDigest.getInstance("SHA-256").digest(password.toByteArray())'],
    [
      'val etag = MessageDigest.getInstance("SHA-256").digest(body)',
      "val stored = BCrypt.hashpw(password, BCrypt.gensalt(12))",
    ],
  ],
  [
    "app/src/main/kotlin/acme/Codes.kt",
    "random",
    ["val inviteCode = Random.nextInt(100000, 999999).toString()"],
    ["val inviteCode = SecureRandom().nextInt(900000) + 100000", "val colour = palette.random()"],
  ],
  [
    "app/src/main/kotlin/acme/Client.kt",
    "tls",
    ["val client = OkHttpClient.Builder().hostnameVerifier { _, _ -> true }.build()"],
    ["val client = OkHttpClient.Builder().certificatePinner(pinner).build()"],
  ],
  [
    "app/src/main/kotlin/acme/Trust.kt",
    "tls",
    ["override fun checkServerTrusted(chain: Array<X509Certificate>, authType: String) {}"],
    ["override fun checkServerTrusted(chain: Array<X509Certificate>, authType: String) = pinned.check(chain)"],
  ],
  // C#
  [
    "src/Api/Security/Hashing.cs",
    "hash",
    ["using var md5 = MD5.Create();"],
    ["using var sha = SHA256.Create();", "var cacheKey = Convert.ToHexString(SHA256.HashData(body));"],
  ],
  [
    "src/Api/Security/Passwords.cs",
    "password",
    ["var stored = Convert.ToBase64String(SHA256.HashData(Encoding.UTF8.GetBytes(password)));"],
    ["var stored = BCrypt.Net.BCrypt.HashPassword(password, workFactor: 12);"],
  ],
  [
    "src/Api/Security/Legacy.cs",
    "cipher",
    ["using var des = TripleDES.Create();"],
    ["using var aes = new AesGcm(key, 16);"],
  ],
  [
    "src/Api/Security/Tokens.cs",
    "random",
    ['var apiKey = new Random().Next().ToString("x");'],
    ["var apiKey = Convert.ToHexString(RandomNumberGenerator.GetBytes(32));", "var delay = new Random().Next(100);"],
  ],
  [
    "src/Api/Clients/Partner.cs",
    "tls",
    ["var handler = new HttpClientHandler { ServerCertificateCustomValidationCallback = (m, c, ch, e) => true };"],
    [
      "var handler = new HttpClientHandler { ServerCertificateCustomValidationCallback = (m, c, ch, e) => e == SslPolicyErrors.None };",
    ],
  ],
  [
    "src/Api/Clients/Legacy.cs",
    "tls",
    ["ServicePointManager.ServerCertificateValidationCallback += delegate { return true; };"],
    ["ServicePointManager.SecurityProtocol = SecurityProtocolType.Tls12;"],
  ],
  [
    "src/Api/Clients/Dev.cs",
    "tls",
    [
      "handler.ServerCertificateCustomValidationCallback = HttpClientHandler.DangerousAcceptAnyServerCertificateValidator;",
    ],
    [
      "// never use HttpClientHandler.DangerousAcceptAnyServerCertificateValidator",
      'var note = "DangerousAcceptAnyServerCertificateValidator";',
    ],
  ],
  // PHP
  [
    "src/Legacy/Login.php",
    "password",
    ["<?php", "$hash = md5($password);"],
    ["<?php", "$hash = password_hash($password, PASSWORD_ARGON2ID);"],
  ],
  ["src/Legacy/Cache.php", "hash", ["<?php", "$key = sha1($url);"], ["<?php", "$key = hash('sha256', $url);"]],
  [
    "src/Legacy/Crypt.php",
    "cipher",
    ["<?php", "$out = openssl_encrypt($data, 'des-ede3-cbc', $key, 0, $iv);"],
    ["<?php", "$out = openssl_encrypt($data, 'aes-256-gcm', $key, OPENSSL_RAW_DATA, $iv, $tag);"],
  ],
  [
    "src/Legacy/Reset.php",
    "random",
    ["<?php", "$resetToken = base_convert(mt_rand(), 10, 36);"],
    ["<?php", "$resetToken = bin2hex(random_bytes(32));", "$dice = mt_rand(1, 6);"],
  ],
  [
    "src/Legacy/Box.php",
    "iv",
    ["<?php", "$iv = '1234567890123456';"],
    ["<?php", "$iv = random_bytes(openssl_cipher_iv_length('aes-256-cbc'));"],
  ],
  [
    "src/Integrations/Partner.php",
    "tls",
    ["<?php", "curl_setopt($ch, CURLOPT_SSL_VERIFYPEER, false);"],
    ["<?php", "curl_setopt($ch, CURLOPT_SSL_VERIFYPEER, true);", "curl_setopt($ch, CURLOPT_CAINFO, $bundle);"],
  ],
  [
    "src/Integrations/Guzzle.php",
    "tls",
    ["<?php", "$client = new Client(['base_uri' => $url, 'verify' => false]);"],
    ["<?php", "$client = new Client(['base_uri' => $url, 'verify' => $caBundle]);"],
  ],
  [
    "src/Integrations/Curl.php",
    "tls",
    ["<?php", "curl_setopt_array($ch, [CURLOPT_URL => $url, CURLOPT_SSL_VERIFYHOST => 0]);"],
    ["<?php", "curl_setopt_array($ch, [CURLOPT_URL => $url, CURLOPT_SSL_VERIFYHOST => 2]);"],
  ],
  // Ruby
  [
    "app/models/legacy_user.rb",
    "password",
    ["self.password_digest = Digest::SHA256.hexdigest(password)"],
    ["has_secure_password", "self.etag = Digest::SHA256.hexdigest(body)"],
  ],
  [
    "app/services/signer.rb",
    "hash",
    ["sig = Digest::MD5.hexdigest(payload)"],
    ["sig = OpenSSL::HMAC.hexdigest('SHA256', key, payload)"],
  ],
  [
    "app/services/vault.rb",
    "cipher",
    ["cipher = OpenSSL::Cipher.new('aes-128-ecb')"],
    ["cipher = OpenSSL::Cipher.new('aes-256-gcm')"],
  ],
  [
    "app/services/invites.rb",
    "random",
    ["invite_token = rand(10**12).to_s(36)"],
    [
      "invite_token = SecureRandom.hex(20)",
      "delay = rand(5)",
      "invite_code = CHARS.sample(8, random: SecureRandom).join",
    ],
  ],
  ["app/services/vault_iv.rb", "iv", ["cipher.iv = '0000000000000000'"], ["cipher.iv = cipher.random_iv"]],
  [
    "app/services/partner_client.rb",
    "tls",
    ["http.verify_mode = OpenSSL::SSL::VERIFY_NONE"],
    ["http.verify_mode = OpenSSL::SSL::VERIFY_PEER", "# never OpenSSL::SSL::VERIFY_NONE"],
  ],
  [
    "app/services/faraday_client.rb",
    "tls",
    ["conn = Faraday.new(url: base, ssl: { verify: false })"],
    ["conn = Faraday.new(url: base, ssl: { verify: true, ca_file: bundle })", "record.update(verify: false)"],
  ],
  // Rust
  ["src/integrity.rs", "hash", ["let digest = md5::compute(&bytes);"], ["let digest = Sha256::digest(&bytes);"]],
  [
    "src/accounts/store.rs",
    "password",
    ["let stored = Sha256::digest(password.as_bytes());"],
    ["let stored = Argon2::default().hash_password(password.as_bytes(), &salt)?.to_string();"],
  ],
  [
    "src/vault.rs",
    "cipher",
    ["let enc = ecb::Encryptor::<Aes128>::new(&key.into());"],
    ["let cipher = Aes256Gcm::new(&key.into());"],
  ],
  [
    "src/tokens.rs",
    "random",
    ["let session_id = fastrand::u64(..);"],
    ["let session_id = OsRng.next_u64();", "let jitter = fastrand::u64(0..50);"],
  ],
  [
    "src/vault_nonce.rs",
    "iv",
    ['let nonce = Nonce::from_slice(b"unique nonce");'],
    ["let nonce = Aes256Gcm::generate_nonce(&mut OsRng);"],
  ],
  [
    "src/client.rs",
    "tls",
    ["let client = reqwest::Client::builder().danger_accept_invalid_certs(true).build()?;"],
    ["let client = reqwest::Client::builder().add_root_certificate(ca).build()?;"],
  ],
  [
    "src/tls_verifier.rs",
    "tls",
    [
      "fn verify_server_cert(&self, _e: &CertificateDer, _i: &[CertificateDer], _n: &ServerName, _o: &[u8], _t: UnixTime) -> Result<ServerCertVerified, Error> {",
      "    Ok(ServerCertVerified::assertion())",
      "}",
    ],
    [
      "fn verify_server_cert(&self, e: &CertificateDer, i: &[CertificateDer], n: &ServerName, o: &[u8], t: UnixTime) -> Result<ServerCertVerified, Error> {",
      "    self.inner.verify_server_cert(e, i, n, o, t)?;",
      "    Ok(ServerCertVerified::assertion())",
      "}",
    ],
  ],
];

describe("SEC-05 in Java, Kotlin, C#, PHP, Ruby and Rust, by calls, values and verifier bodies", () => {
  it.each(CASES)("%s (%s): the risky form is flagged", async (file, kind, risky) => {
    const found = await weak(file, risky);
    const first = risky[0]?.startsWith("<?php") ? 2 : 1;
    expect(found[0]?.[0], JSON.stringify(found)).toBe(first);
    expect(found[0]?.[1]).toMatch(MESSAGE[kind]);
  });

  it.each(CASES)("%s (%s): the look-alike is clean", async (file, _kind, _risky, clean) => {
    expect(await weak(file, clean)).toEqual([]);
  });

  it("a removed TLS bypass is hardening: nothing is flagged", async () => {
    const patch = [
      "@@ -10,4 +10,3 @@ public class PartnerClient {",
      "   HttpClient build() {",
      "-    builder.setSSLHostnameVerifier(NoopHostnameVerifier.INSTANCE);",
      "     return builder.build();",
      "   }",
    ].join("\n");
    const pr = buildPr({ files: [{ filename: "src/main/java/com/acme/PartnerClient.java", patch }] });
    expect(await weakCryptoDetector.detect(detectContext(pr))).toEqual([]);
  });

  it("a PHP hunk from the middle of a file (no opening tag in the patch) is read as PHP", async () => {
    const patch = [
      "@@ -40,2 +40,3 @@ function fetchRates($url) {",
      "     $ch = curl_init($url);",
      "+    curl_setopt($ch, CURLOPT_SSL_VERIFYPEER, 0);",
      "     return curl_exec($ch);",
    ].join("\n");
    const pr = buildPr({ files: [{ filename: "lib/rates.php", patch }] });
    const findings = await weakCryptoDetector.detect(detectContext(pr));
    expect(findings.map((f) => f.line)).toEqual([41]);
  });
});
