import type { SyntaxLanguage } from "../code/grammars.js";
import type { CallRule, MethodRule, ValueRule } from "./call-rules.js";

/**
 * SEC-05's rules per grammar, as data: which calls are predictable generators, fast or broken
 * hashes, broken ciphers and modes, constant IVs, and which calls, values and method bodies turn
 * TLS verification off. `crypto-calls.ts` applies them; nothing here runs.
 *
 * @example CRYPTO_RULES.java.weakCipher[0]?.callee // /^Cipher\.getInstance$/
 */
export interface CryptoRules {
  /** A word (any case) every rule of this table needs in the file's text: none, and no parse is needed. */
  words: RegExp;
  /** Predictable generators: flagged when the value is named as a token, id, secret or password, or reaches a cookie or such a name (`random-flow.ts`). */
  random: readonly CallRule[];
  /** Fast hashes (MD5, SHA-1, SHA-2): flagged when their input names a password. */
  fastHash: readonly CallRule[];
  /** MD5 and SHA-1, whatever they hash. */
  weakHash: readonly CallRule[];
  /** DES, 3DES, RC4, RC2, Blowfish, ECB mode. */
  weakCipher: readonly CallRule[];
  /** A cipher given a constant IV or nonce. */
  fixedIv: readonly CallRule[];
  /** Calls that turn certificate or host name checks off. */
  tlsOff: readonly CallRule[];
  /** Names given a constant IV, nonce or salt. */
  ivValues: readonly ValueRule[];
  /** Names given a value that turns TLS checks off (`verify => false`, a callback that accepts all). */
  tlsValues: readonly ValueRule[];
  /** Trust managers and verifiers whose body accepts everything. */
  tlsMethods: readonly MethodRule[];
  /** Code (strings and comments dropped) naming a constant that only means "verify nothing". */
  tlsNames?: RegExp;
  /** Code naming a broken mode (`CipherMode.ECB`). */
  weakCipherNames?: RegExp;
  /** Node kinds that give a name a value, read for `ivValues` and `tlsValues`. */
  valueKinds: readonly string[];
  /** A word every target of `ivValues` and `tlsValues` has: a file without one needs no search of its values. */
  valueWords?: RegExp;
  /** Method declaration kinds, read for `tlsMethods`. */
  methodKinds: readonly string[];
  /**
   * Calls that put a value in a cookie (`new Cookie(name, value)`, `res.cookie`, `set_cookie`,
   * `http.SetCookie`): a predictable random value reaching one is a guessable cookie.
   */
  randomSinks: readonly CallRule[];
  /** Calls that take an algorithm's name, resolved by value (constants, locals, properties) and judged. */
  algorithmCalls: readonly AlgorithmCall[];
  /** Predictable generators that fill their first argument (`rng.nextBytes(buf)`): the flow starts at that name. */
  randomFills?: readonly CallRule[];
  /**
   * A cryptographic generator's name: a generator held by a variable, or a parameter, given one
   * (`Random numGen = SecureRandom.getInstance(...)`, a `Random` parameter every caller passes a
   * `SecureRandom`) is not predictable, whatever its declared type.
   */
  secureGenerator?: RegExp;
  /** Calls that read a key of a properties file, the default value (if any) as the second argument. */
  propertyLookups?: CallRule;
}

/**
 * A call whose argument names an algorithm, and how the name is judged: `digest` (MD5, SHA-1),
 * `transformation` (a Java cipher transformation: its algorithm and mode, `AES` alone being ECB),
 * `cipher` (a cipher name: DES, 3DES, RC4, RC2, Blowfish, an ECB mode), `mac` (HMAC over MD5),
 * `kdf` (a password-based key factory over DES, RC2, RC4 or MD5).
 */
export interface AlgorithmCall {
  call: CallRule;
  /** The argument holding the name. */
  index: number;
  judge: "digest" | "transformation" | "cipher" | "mac" | "kdf";
}

/** Fast hashes read by name in JavaScript/TypeScript, Python and Go (the rule before the table). */
const FAST_HASH_CALL =
  /^(hashlib\.(md5|sha1|sha224|sha256|sha384|sha512|new)|md5\.Sum|sha1\.Sum|sha256\.Sum256|sha512\.Sum512|md5|sha1|sha256|CryptoJS\.(MD5|SHA1|SHA256|SHA512))$/;
/** `createHash("sha256").update(password)`: the algorithm on the inner call, the data on this one. */
const CREATE_HASH_UPDATE: CallRule = {
  method: /^update$/,
  receiver: /createHash\(\s*["'`](md5|sha1|sha-1|sha256|sha512)["'`]\s*\)/i,
};
const FIRST_WORDS = /rand|choice|md5|sha|hashlib|update|cipher|createhash|createhmac/i;

/** The rules of a language whose weak crypto is read from its calls alone (its text rules do the rest). */
const CALLS_ONLY = {
  weakHash: [],
  weakCipher: [],
  fixedIv: [],
  tlsOff: [],
  ivValues: [],
  tlsValues: [],
  tlsMethods: [],
  valueKinds: [],
  methodKinds: [],
  randomSinks: [],
  algorithmCalls: [],
} as const satisfies Partial<CryptoRules>;

/** JavaScript and TypeScript: `Math.random`, fast hashes of passwords. */
const JS: CryptoRules = {
  words: FIRST_WORDS,
  random: [{ callee: /^Math\.random$/ }],
  fastHash: [{ callee: FAST_HASH_CALL }, CREATE_HASH_UPDATE],
  ...CALLS_ONLY,
  randomSinks: [
    { method: /^(cookie|setCookie)$/ },
    { callee: /(^|\.)cookies\.set$/ },
    { method: /^(setHeader|set|append)$/, args: [{ index: 0, matches: /^["'`]Set-Cookie["'`]$/i }] },
  ],
  algorithmCalls: [
    { call: { callee: /(^|\.)createHash$/ }, index: 0, judge: "digest" },
    { call: { callee: /(^|\.)createHmac$/ }, index: 0, judge: "mac" },
    { call: { callee: /(^|\.)create(De)?[Cc]ipheriv$/ }, index: 0, judge: "cipher" },
  ],
};

/** A function value that accepts whatever it is given: `(h, s) -> true`, `{ _, _ -> true }`, `delegate { return true; }`. */
const ACCEPTS_ALL =
  /^(\([^()]*\)|[\w$]+) ?(=>|->) ?(true|\{ ?return true;? ?\})$|^\{ ?[\w$, :?<>[\]]*-> ?true ?\}$|^delegate ?(\([^()]*\))? ?\{ ?return true;? ?\}$|^\|[^|]*\| ?true$/;
/** A body that checks nothing (a trust manager's `checkServerTrusted`). */
const EMPTY_BODY = /^\{ ?\}$/;
/** A body that says yes to everything. */
const TRUE_BODY = /^(\{ ?return true;? ?\}|=>? ?true;?)$/;
/** Words every JVM TLS rule needs. */
const JVM_TLS = /trusted|hostnameverifier|trustmaterial|allow_all|truststrategy|insecuretrust/i;
/** A constant byte value: a string literal's bytes, zeroed bytes, a literal byte array. */
const CONSTANT_BYTES =
  /^b?"[^"$]{4,}"(\.(getBytes|toByteArray|as_bytes|encode|bytes)\(.*\))?;?$|^'[^']{4,}'$|^new byte ?\[ ?\d+ ?\]$|^(new byte ?\[ ?\] ?)?\{ ?(0x)?\d|^byteArrayOf\( ?(0x)?\d|^ByteArray\( ?\d+ ?\)$|^\[ ?0u8 ?; ?\d+ ?\]$|^&?b"[^"]{4,}"$|^(Encoding\.\w+\.GetBytes|str_repeat)\( ?["']|^"\\0" ?\* ?\d+$|^\[ ?(0x)?\d+(u8)? ?,/;
/** A word every IV, nonce or salt name has. */
const IV_WORDS = /\b(iv|IV|nonce|NONCE|salt|SALT)\b|_(iv|IV|nonce|NONCE|salt|SALT)\b|(Iv|IV|Nonce|Salt)\b/;
/** Names of an IV, a nonce or a salt. */
const IV_NAME =
  /^(iv|IV|Iv|nonce|Nonce|NONCE|salt|Salt|SALT)$|_(iv|IV|nonce|NONCE|salt|SALT)$|^(iv|IV|nonce|salt|SALT|NONCE)_|[a-z0-9](Iv|IV|Nonce|Salt)$/;

/** Java and Kotlin share the JDK and its libraries. */
const JVM: Omit<CryptoRules, "valueKinds" | "methodKinds"> = {
  words:
    /random|digest|hash|md5|sha|cipher|keygenerator|secretkeyfactory|\bmac\b|parameterspec|trusted|verifier|allow_all|truststrategy|insecuretrust|iv|nonce|salt/i,
  random: [
    { callee: /^(java\.lang\.)?(Strict)?Math\.random$/ },
    { callee: /(^|\.)ThreadLocalRandom\.current\(\)\.next\w*$/ },
    { callee: /^(org\.apache\.commons\.lang3?\.)?RandomStringUtils\.random\w*$/ },
    { method: /^(next\w*|ints|longs)$/, receiver: /^(new)?(java\.util\.)?Random\(.*\)$/ },
    // Kotlin's default generator and its collection helpers.
    { callee: /^(kotlin\.random\.)?Random(\.Default)?\.next\w*$/ },
    { method: /^(next\w*|ints|longs)$/, receiverDeclared: /^(java\.util\.)?Random$/ },
    { method: /^random$/, noArguments: true, fileText: /\bfun\b|\bval\b/ },
  ],
  fastHash: [
    { callee: /^MessageDigest\.getInstance\(.*\)\.(digest|update)$/ },
    { method: /^(digest|update)$/, fileText: /\bMessageDigest\b/ },
    { callee: /^DigestUtils\.(md5|sha1|sha|sha256|sha384|sha512)(Hex)?$/ },
    { callee: /^Hashing\.(md5|sha1|sha256|sha384|sha512)\(\)\.(hashString|hashBytes|hashUnencodedChars)$/ },
  ],
  weakHash: [
    {
      callee: /^(java\.security\.)?MessageDigest\.getInstance$/,
      args: [{ index: 0, matches: /^"(MD5|MD4|MD2|SHA-?1|SHA)"$/i }],
    },
    { callee: /^Signature\.getInstance$/, args: [{ index: 0, matches: /^"(MD5|MD2|SHA1)with/i }] },
    { callee: /^DigestUtils\.(md5|md2|sha1|sha)(Hex)?$|^DigestUtils\.get(Md5|Md2|Sha1)Digest$/ },
    { callee: /^Hashing\.(md5|sha1)$/ },
  ],
  weakCipher: [
    {
      callee: /^(javax\.crypto\.)?Cipher\.getInstance$/,
      // `RSA/ECB/...` names no block mode (RSA encrypts one block): not ECB.
      args: [
        {
          index: 0,
          matches: /^"(DES|DESede|TripleDES|RC4|ARCFOUR|RC2|Blowfish)(\/|")|^"(?!RSA\/)[^"]*\/ECB\/|^"AES"$/i,
        },
      ],
    },
  ],
  fixedIv: [
    { callee: /^(javax\.crypto\.spec\.)?IvParameterSpec$/, args: [{ index: 0, matches: CONSTANT_BYTES }] },
    { callee: /^(javax\.crypto\.spec\.)?GCMParameterSpec$/, args: [{ index: 1, matches: CONSTANT_BYTES }] },
  ],
  tlsOff: [
    {
      method:
        /^(setHostnameVerifier|setDefaultHostnameVerifier|setSSLHostnameVerifier|hostnameVerifier|HostnameVerifier)$/,
      anyArgument: ACCEPTS_ALL,
    },
    { method: /^loadTrustMaterial$/, args: [{ index: 1, matches: ACCEPTS_ALL }] },
  ],
  ivValues: [{ target: IV_NAME, value: CONSTANT_BYTES }],
  tlsValues: [{ target: /^hostnameVerifier$/, value: ACCEPTS_ALL }],
  tlsMethods: [
    { name: /^checkServerTrusted$/, body: EMPTY_BODY },
    { name: /^verify$/, body: TRUE_BODY, fileText: /HostnameVerifier/ },
    { name: /^isTrusted$/, body: TRUE_BODY, fileText: /TrustStrategy/ },
  ],
  randomSinks: [
    { callee: /^(javax\.servlet\.http\.|jakarta\.servlet\.http\.)?Cookie$/ },
    { callee: /(^|\.)ResponseCookie\.(from|fromClientResponse)$/ },
    { method: /^addCookie$/ },
  ],
  algorithmCalls: [
    { call: { callee: /^(java\.security\.)?MessageDigest\.getInstance$/ }, index: 0, judge: "digest" },
    { call: { callee: /^(javax\.crypto\.)?Cipher\.getInstance$/ }, index: 0, judge: "transformation" },
    { call: { callee: /^(javax\.crypto\.)?KeyGenerator\.getInstance$/ }, index: 0, judge: "cipher" },
    { call: { callee: /^(javax\.crypto\.)?SecretKeyFactory\.getInstance$/ }, index: 0, judge: "kdf" },
    { call: { callee: /^(javax\.crypto\.)?Mac\.getInstance$/ }, index: 0, judge: "mac" },
  ],
  propertyLookups: { method: /^getProperty$/ },
  randomFills: [{ method: /^nextBytes$/ }],
  secureGenerator: /\bSecureRandom\b/,
  tlsNames:
    /\b(ALLOW_ALL_HOSTNAME_VERIFIER|NoopHostnameVerifier|AllowAllHostnameVerifier|TrustAllStrategy|InsecureTrustManagerFactory)\b/,
};

/** The rules, by grammar. */
/** C and C++: the C library's generator, OpenSSL's and libcrypto's MD5/SHA-1, DES, RC4 and ECB, TLS checks off. */
const C_CRYPTO: CryptoRules = {
  ...CALLS_ONLY,
  words: /rand|md5|md4|sha1|des_|_des|rc4|ecb|bf_|verify|ssl_verify|curlopt_ssl/i,
  random: [{ callee: /^(rand|random|rand_r|drand48|lrand48|mrand48|std\.rand)$/ }],
  fastHash: [],
  weakHash: [
    {
      callee:
        /^(MD5|MD5_Init|MD5_Update|MD5_Final|MD4|SHA1|SHA1_Init|SHA1_Update|SHA1_Final|EVP_md5|EVP_md4|EVP_sha1)$/,
    },
  ],
  weakCipher: [
    {
      callee: /^(DES_\w+|EVP_des_\w+|EVP_rc4\w*|RC4|RC4_set_key|BF_\w+|EVP_bf_\w+|EVP_aes_\d+_ecb|AES_ecb_encrypt)$/,
    },
  ],
  tlsOff: [
    { callee: /^(SSL_CTX_set_verify|SSL_set_verify)$/, args: [{ index: 1, matches: /^SSL_VERIFY_NONE$/ }] },
    {
      callee: /^curl_easy_setopt$/,
      args: [
        { index: 1, matches: /^CURLOPT_SSL_VERIFY(PEER|HOST)$/ },
        { index: 2, matches: /^0L?$/ },
      ],
    },
  ],
};

export const CRYPTO_RULES: Readonly<Record<SyntaxLanguage, CryptoRules>> = {
  javascript: JS,
  typescript: JS,
  tsx: JS,
  python: {
    words: FIRST_WORDS,
    random: [
      {
        callee:
          /^random\.(random|randint|randrange|choice|choices|getrandbits|sample|uniform|shuffle|randbytes|triangular|normalvariate|gauss|betavariate|expovariate|gammavariate|lognormvariate|vonmisesvariate|paretovariate|weibullvariate)$/,
      },
      // `from random import choice`: the bare names are the predictable ones.
      {
        callee: /^(randint|randrange|choice|choices|getrandbits|randbytes)$/,
        fileText: /^\s*from\s+random\s+import\b/m,
      },
    ],
    fastHash: [{ callee: FAST_HASH_CALL }, CREATE_HASH_UPDATE],
    ...CALLS_ONLY,
    randomSinks: [{ method: /^set_cookie$/ }],
    algorithmCalls: [{ call: { callee: /^hashlib\.new$/ }, index: 0, judge: "digest" }],
  },
  go: {
    words: FIRST_WORDS,
    random: [
      // math/rand functions that crypto/rand does not have, unless only crypto/rand is imported.
      {
        callee:
          /^rand\.(Intn|IntN|Int31|Int31n|Int63|Int63n|Int64|Int64N|Int32|Int32N|Uint32|Uint64|Uint|UintN|Float32|Float64|Perm|Shuffle|N|NewSource|New|Seed|ExpFloat64|NormFloat64)$/,
        unlessFileText: /^(?![\s\S]*"math\/rand(\/v2)?")[\s\S]*"crypto\/rand"/,
      },
      { callee: /^rand\.(Read|Int)$/, fileText: /"math\/rand(\/v2)?"/ },
    ],
    fastHash: [{ callee: FAST_HASH_CALL }, CREATE_HASH_UPDATE],
    ...CALLS_ONLY,
    weakHash: [{ callee: /^(md5|sha1)\.(Sum|New)$/ }],
    randomSinks: [{ callee: /^http\.SetCookie$/ }],
    randomFills: [{ callee: /^rand\.Read$/ }],
  },
  java: {
    ...JVM,
    valueWords: new RegExp(`${IV_WORDS.source}|hostnameVerifier`),
    valueKinds: ["variable_declarator", "assignment_expression"],
    methodKinds: ["method_declaration"],
  },
  kotlin: {
    ...JVM,
    valueWords: new RegExp(`${IV_WORDS.source}|hostnameVerifier`),
    valueKinds: ["property_declaration", "assignment"],
    methodKinds: ["function_declaration"],
  },
  csharp: {
    words: /random|md5|sha|hash|des|rc2|ecb|\biv\b|certificat|callback|symmetricalgorithm/i,
    random: [
      { callee: /^(new)?(System\.)?Random\(.*\)\.Next\w*$/ },
      { callee: /^(System\.)?Random\.Shared\.Next\w*$/ },
      { method: /^Next\w*$/, receiverDeclared: /^(System\.)?Random$/ },
    ],
    fastHash: [{ method: /^(ComputeHash|HashData|TryHashData)$/ }],
    weakHash: [
      { callee: /(^|\.)(MD5|SHA1)\.(Create|HashData|TryHashData)$/ },
      { callee: /(^|\.)(MD5CryptoServiceProvider|SHA1CryptoServiceProvider|SHA1Managed|MD5Cng|SHA1Cng)$/ },
      { callee: /(^|\.)HashAlgorithm\.Create$/, args: [{ index: 0, matches: /^"(MD5|SHA1)"$/i }] },
    ],
    weakCipher: [
      { callee: /(^|\.)(DES|TripleDES|RC2)\.Create$/ },
      { callee: /(^|\.)(DESCryptoServiceProvider|TripleDESCryptoServiceProvider|RC2CryptoServiceProvider)$/ },
      { method: /^(EncryptEcb|DecryptEcb)$/ },
    ],
    fixedIv: [],
    tlsOff: [{ callee: /(^|\.)RemoteCertificateValidationCallback$/, anyArgument: ACCEPTS_ALL }],
    ivValues: [{ target: IV_NAME, value: CONSTANT_BYTES }],
    tlsValues: [
      {
        target:
          /^(ServerCertificateCustomValidationCallback|ServerCertificateValidationCallback|RemoteCertificateValidationCallback)$/,
        value: ACCEPTS_ALL,
      },
    ],
    tlsMethods: [{ name: /Certificate|Certs?$/, body: TRUE_BODY }],
    tlsNames: /\bDangerousAcceptAnyServerCertificateValidator\b/,
    weakCipherNames: /\bCipherMode\.ECB\b/,
    randomSinks: [{ callee: /(^|\.)Cookies\.Append$/ }, { callee: /(^|\.)HttpCookie$/ }],
    randomFills: [{ method: /^NextBytes$/ }],
    secureGenerator: /\bRandomNumberGenerator\b/,
    algorithmCalls: [
      { call: { callee: /(^|\.)HashAlgorithm\.Create$/ }, index: 0, judge: "digest" },
      { call: { callee: /(^|\.)SymmetricAlgorithm\.Create$/ }, index: 0, judge: "cipher" },
      { call: { callee: /(^|\.)KeyedHashAlgorithm\.Create$/ }, index: 0, judge: "mac" },
    ],
    valueKinds: ["assignment_expression", "variable_declarator"],
    valueWords: new RegExp(`${IV_WORDS.source}|ValidationCallback`),
    methodKinds: ["method_declaration", "local_function_statement"],
  },
  php: {
    words: /rand|uniqid|shuffle|md5|sha|hash|openssl|mcrypt|curl|verify|\biv\b|nonce|salt/i,
    random: [{ callee: /^(rand|mt_rand|uniqid|lcg_value|str_shuffle|array_rand|shuffle)$/ }],
    fastHash: [
      { callee: /^(md5|sha1)$/ },
      { callee: /^hash$/, args: [{ index: 0, matches: /^["'](md5|sha1|sha256|sha384|sha512)["']$/i }] },
    ],
    weakHash: [
      { callee: /^(md5|sha1|md5_file|sha1_file)$/ },
      { callee: /^(hash|hash_file)$/, args: [{ index: 0, matches: /^["'](md5|md4|md2|sha1)["']$/i }] },
    ],
    weakCipher: [
      {
        callee: /^(openssl_encrypt|openssl_decrypt)$/,
        args: [{ index: 1, matches: /^["'](des|rc4|rc2|bf)|ecb["']$/i }],
      },
      {
        callee: /^(mcrypt_encrypt|mcrypt_decrypt)$/,
        anyArgument: /^MCRYPT_(DES|TRIPLEDES|3DES|RC2|ARCFOUR|MODE_ECB)$/,
      },
    ],
    fixedIv: [
      {
        callee: /^(openssl_encrypt|openssl_decrypt)$/,
        args: [{ index: 4, matches: /^["'][^"'$]{4,}["']$|^str_repeat\(/ }],
      },
    ],
    tlsOff: [
      {
        callee: /^curl_setopt$/,
        args: [
          { index: 1, matches: /^CURLOPT_SSL_VERIFY(PEER|HOST)$/ },
          { index: 2, matches: /^(false|FALSE|False|0)$/ },
        ],
      },
      { method: /^withoutVerifying$/ },
    ],
    ivValues: [{ target: IV_NAME, value: /^["'][^"'$]{4,}["']$|^str_repeat\( ?["']/ }],
    tlsValues: [
      { target: /^CURLOPT_SSL_VERIFY(PEER|HOST)$/, value: /^(false|FALSE|False|0)$/ },
      { target: /^(verify|verify_peer|verify_peer_name)$/, value: /^(false|FALSE|False)$/ },
      { target: /^allow_self_signed$/, value: /^(true|TRUE|True)$/ },
    ],
    tlsMethods: [],
    randomSinks: [{ callee: /^(setcookie|setrawcookie)$/ }, { method: /^cookie$/ }],
    algorithmCalls: [
      { call: { callee: /^(hash|hash_file|hash_init)$/ }, index: 0, judge: "digest" },
      { call: { callee: /^(hash_hmac|hash_hmac_file)$/ }, index: 0, judge: "mac" },
      { call: { callee: /^(openssl_encrypt|openssl_decrypt)$/ }, index: 1, judge: "cipher" },
    ],
    valueKinds: ["assignment_expression", "array_element_initializer"],
    valueWords: new RegExp(`${IV_WORDS.source}|CURLOPT_SSL_VERIFY|verify|allow_self_signed`),
    methodKinds: [],
  },
  ruby: {
    words: /rand|sample|shuffle|digest|md5|sha|cipher|verify|\biv\b|nonce|salt/i,
    random: [
      { callee: /^(Kernel\.)?rand$|^Random\.(rand|bytes)$|^Random\.new(\(.*\))?\.(rand|bytes)$/ },
      { method: /^(sample|shuffle)$/, noArgument: /SecureRandom/ },
    ],
    fastHash: [
      { callee: /^(OpenSSL\.)?Digest\.(MD5|SHA1|SHA256|SHA384|SHA512|SHA2)\.(hexdigest|digest|base64digest)$/ },
    ],
    weakHash: [
      { callee: /^(OpenSSL\.)?Digest\.(MD5|SHA1)\.\w+$/ },
      { callee: /^(OpenSSL\.)?Digest\.new$/, args: [{ index: 0, matches: /^["'](MD5|SHA1)["']$/i }] },
    ],
    weakCipher: [
      { callee: /^OpenSSL\.Cipher\.new$/, args: [{ index: 0, matches: /^["'](des|rc4|rc2|bf)|ecb["']$/i }] },
      { callee: /^OpenSSL\.Cipher\.(DES|RC4|RC2|BF)\.new$/ },
    ],
    fixedIv: [],
    tlsOff: [],
    ivValues: [{ target: IV_NAME, value: /^["'][^"'#]{4,}["']$|^"\\0" ?\* ?\d+$/ }],
    tlsValues: [
      { target: /^(verify_ssl|ssl_verify|ssl_verify_peer|verify_peer)$/, value: /^false$/ },
      { target: /^verify$/, value: /^false$/, parentKey: /^ssl$/ },
    ],
    tlsMethods: [],
    tlsNames: /\bVERIFY_NONE\b/,
    randomSinks: [{ method: /^set_cookie$/ }],
    algorithmCalls: [
      { call: { callee: /^OpenSSL\.Cipher\.new$/ }, index: 0, judge: "cipher" },
      { call: { callee: /^(OpenSSL\.)?Digest\.new$/ }, index: 0, judge: "digest" },
    ],
    valueKinds: ["assignment", "pair"],
    valueWords: new RegExp(`${IV_WORDS.source}|verify`),
    methodKinds: [],
  },
  rust: {
    words: /rng|fastrand|md5|sha|md4|ecb|des|rc4|nonce|\biv\b|danger|verif|ssl/i,
    random: [
      { callee: /^(fastrand|oorandom)\.\w+$/ },
      { callee: /(^|\.)(SmallRng|StdRng)\.(seed_from_u64|from_seed|from_entropy)$/ },
    ],
    fastHash: [
      { callee: /(^|\.)(Md5|Sha1|Sha256|Sha384|Sha512)\.digest$|^md5\.compute$/ },
      { method: /^(update|chain_update)$/, fileText: /\b(Sha1|Sha256|Sha384|Sha512|Md5)\b/ },
    ],
    weakHash: [{ callee: /(^|\.)(Md5|Md4|Sha1)\.(new|digest|new_with_prefix|default)$|^md5\.compute$/ }],
    weakCipher: [
      {
        callee: /(^|\.)(Ecb|ecb\.Encryptor|ecb\.Decryptor|Des|TdesEde3|TdesEde2|Rc4|Blowfish)(\.<.*>)?\.(new\w*)$/,
      },
    ],
    fixedIv: [
      { callee: /(^|\.)(Nonce|GenericArray|Iv|IV)(\.<.*>)?\.from_slice$/, args: [{ index: 0, matches: /^&?b"/ }] },
    ],
    tlsOff: [
      {
        method: /^(danger_accept_invalid_certs|danger_accept_invalid_hostnames)$/,
        args: [{ index: 0, matches: /^true$/ }],
      },
      { method: /^(ssl_verify_peer|ssl_verify_host)$/, args: [{ index: 0, matches: /^false$/ }] },
      { method: /^set_verify$/, args: [{ index: 0, matches: /SslVerifyMode::NONE$/ }] },
    ],
    ivValues: [{ target: IV_NAME, value: CONSTANT_BYTES }],
    tlsValues: [],
    tlsMethods: [
      { name: /^verify_server_cert$/, body: /^\{ ?Ok\( ?(\w+::)*ServerCertVerified::assertion\(\) ?\) ?\}$/ },
    ],
    randomSinks: [],
    algorithmCalls: [],
    valueKinds: ["let_declaration", "assignment_expression"],
    valueWords: IV_WORDS,
    methodKinds: ["function_item"],
  },
  // The shell turns TLS checks off with flags: `curl -k`, `wget --no-check-certificate`.
  bash: {
    ...CALLS_ONLY,
    words: /curl|wget|insecure|no-check/i,
    random: [],
    fastHash: [],
    tlsOff: [
      { callee: /^curl$/, anyArgument: /^(-k|--insecure|-\w*k\w*)$/ },
      { callee: /^wget$/, anyArgument: /^--no-check-certificate$/ },
    ],
  },
  scala: {
    ...JVM,
    random: [...JVM.random, { callee: /^(scala\.util\.)?Random\.(next\w*|alphanumeric|shuffle)$/ }],
    valueKinds: [],
    methodKinds: [],
  },
  // CryptoKit's `Insecure` namespace and CommonCrypto's MD5/SHA-1.
  swift: {
    ...CALLS_ONLY,
    words: /insecure|cc_md5|cc_sha1|random/i,
    random: [{ callee: /^(random|rand|drand48|srand48)$/ }],
    fastHash: [],
    weakHash: [{ callee: /^(CryptoKit\.)?Insecure\.(MD5|SHA1)\.hash$|^CC_(MD5|SHA1)$/ }],
  },
  c: C_CRYPTO,
  cpp: C_CRYPTO,
  // dart:math's `Random()` (not `Random.secure()`), package:crypto's `md5` and `sha1`.
  dart: {
    ...CALLS_ONLY,
    words: /random|md5|sha1/i,
    random: [{ method: /^next(Int|Double|Bool)$/, receiver: /^(math\.)?Random\((\d+)?\)$/ }],
    fastHash: [],
    weakHash: [{ callee: /^(crypto\.)?(md5|sha1)\.convert$/ }],
  },
  // Erlang's `:rand` and `Enum.random` are not for secrets; `:crypto.hash(:md5, x)` is MD5.
  elixir: {
    ...CALLS_ONLY,
    words: /rand|random|md5|sha|crypto/i,
    random: [{ callee: /^(:rand\.uniform|:rand\.uniform_real|:random\.uniform|Enum\.random|Enum\.take_random)$/ }],
    fastHash: [],
    weakHash: [{ callee: /^:crypto\.(hash|hash_init)$/, args: [{ index: 0, matches: /^:(md5|md4|sha)$/ }] }],
    weakCipher: [
      {
        callee: /^:crypto\.(crypto_one_time|crypto_init|block_encrypt|block_decrypt)$/,
        args: [{ index: 0, matches: /^:(des\w*|rc4|blowfish\w*|\w+_ecb)$/ }],
      },
    ],
  },
  // `math.random` is not for secrets; OpenResty's `ngx.md5`, lua-resty-string's md5 and sha1.
  lua: {
    ...CALLS_ONLY,
    words: /random|md5|sha1/i,
    random: [{ callee: /^math\.random$/ }],
    fastHash: [],
    weakHash: [{ callee: /^(ngx\.md5|ngx\.md5_bin|ngx\.sha1_bin|resty\.md5\.new|resty\.sha1\.new)$/ }],
  },
};

/** JVM TLS words, for `crypto-calls.ts` to skip the declaration search where none appear. */
export const TLS_DECLARATION_WORDS: Partial<Record<SyntaxLanguage, RegExp>> = {
  java: JVM_TLS,
  kotlin: JVM_TLS,
  csharp: /certificat/i,
  rust: /ServerCertVerified/,
};
