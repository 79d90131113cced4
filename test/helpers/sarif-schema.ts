/**
 * The part of the SARIF 2.1.0 JSON schema (oasis-tcs/sarif-spec, Schemata/sarif-schema-2.1.0.json,
 * the version GitHub's code scanning docs link) that the objects the gate writes go through,
 * transcribed by hand: each definition's property names (the schema closes every object with
 * `additionalProperties: false`, so a misspelt name is an error), its `required` and `anyOf`
 * lists, and the types, enums and minimums of the properties the gate sets. Properties the gate
 * never writes are listed by name only (`ANY`). No network here, so the schema itself is not fetched.
 */

type Schema =
  | { kind: "any" }
  | { kind: "ref"; to: string }
  | { kind: "string"; enum?: readonly string[] }
  | { kind: "integer"; minimum?: number }
  | { kind: "boolean" }
  | { kind: "array"; items: Schema; unique?: boolean; minItems?: number }
  | {
      kind: "object";
      props: Record<string, Schema>;
      required?: readonly string[];
      /** The schema's `anyOf: [{ required: [...] }, ...]`. */
      anyOfRequired?: readonly (readonly string[])[];
      /** Values of properties not named in `props` (`additionalProperties`); absent: none allowed. */
      additional?: Schema;
    };

const ANY: Schema = { kind: "any" };
const ref = (to: string): Schema => ({ kind: "ref", to });
const str = (values?: readonly string[]): Schema => (values ? { kind: "string", enum: values } : { kind: "string" });
const int = (minimum?: number): Schema => (minimum === undefined ? { kind: "integer" } : { kind: "integer", minimum });
const arr = (items: Schema, unique = false, minItems?: number): Schema => ({
  kind: "array",
  items,
  unique,
  ...(minItems !== undefined ? { minItems } : {}),
});
const names = (list: string, typed: Record<string, Schema> = {}): Record<string, Schema> => ({
  ...Object.fromEntries(
    list
      .split(/\s+/)
      .filter(Boolean)
      .map((n) => [n, ANY]),
  ),
  ...typed,
});

/** The schema's `level` enum (result, notification, reportingConfiguration). */
export const SARIF_LEVELS = ["none", "note", "warning", "error"] as const;

const DEFINITIONS: Record<string, Schema> = {
  sarifLog: {
    kind: "object",
    props: names("inlineExternalProperties", {
      $schema: str(),
      version: str(["2.1.0"]),
      runs: arr(ref("run")),
      properties: ref("propertyBag"),
    }),
    required: ["version", "runs"],
  },
  run: {
    kind: "object",
    props: names(
      `invocations conversion language versionControlProvenance originalUriBaseIds artifacts logicalLocations graphs
       automationDetails runAggregates baselineGuid redactionTokens defaultEncoding defaultSourceLanguage newlineSequences
       columnKind externalPropertyFileReferences threadFlowLocations taxonomies addresses translations policies
       webRequests webResponses specialLocations`,
      { tool: ref("tool"), results: arr(ref("result")), properties: ref("propertyBag") },
    ),
    required: ["tool"],
  },
  tool: {
    kind: "object",
    props: names("extensions", { driver: ref("toolComponent"), properties: ref("propertyBag") }),
    required: ["driver"],
  },
  toolComponent: {
    kind: "object",
    props: names(
      `guid organization product productSuite shortDescription fullDescription fullName dottedQuadFileVersion
       releaseDateUtc downloadUri informationUri globalMessageStrings notifications taxa locations language contents
       isComprehensive localizedDataSemanticVersion minimumRequiredLocalizedDataSemanticVersion associatedComponent
       translationMetadata supportedTaxonomies`,
      {
        name: str(),
        version: str(),
        semanticVersion: str(),
        rules: arr(ref("reportingDescriptor"), true),
        properties: ref("propertyBag"),
      },
    ),
    required: ["name"],
  },
  reportingDescriptor: {
    kind: "object",
    props: names("deprecatedIds guid deprecatedGuids deprecatedNames messageStrings helpUri relationships", {
      id: str(),
      name: str(),
      shortDescription: ref("multiformatMessageString"),
      fullDescription: ref("multiformatMessageString"),
      help: ref("multiformatMessageString"),
      defaultConfiguration: ref("reportingConfiguration"),
      properties: ref("propertyBag"),
    }),
    required: ["id"],
  },
  reportingConfiguration: {
    kind: "object",
    props: names("enabled rank parameters", { level: str(SARIF_LEVELS), properties: ref("propertyBag") }),
  },
  multiformatMessageString: {
    kind: "object",
    props: { text: str(), markdown: str(), properties: ref("propertyBag") },
    required: ["text"],
  },
  message: {
    kind: "object",
    props: names("arguments", { text: str(), markdown: str(), id: str(), properties: ref("propertyBag") }),
    anyOfRequired: [["text"], ["id"]],
  },
  result: {
    kind: "object",
    props: names(
      `rule kind analysisTarget guid correlationGuid occurrenceCount fingerprints stacks codeFlows graphs
       graphTraversals relatedLocations baselineState rank attachments hostedViewerUri workItemUris provenance fixes
       taxa webRequest webResponse`,
      {
        ruleId: str(),
        ruleIndex: int(-1),
        level: str(SARIF_LEVELS),
        message: ref("message"),
        locations: arr(ref("location")),
        partialFingerprints: { kind: "object", props: {}, additional: str() },
        suppressions: arr(ref("suppression"), true),
        properties: ref("propertyBag"),
      },
    ),
    required: ["message"],
  },
  location: {
    kind: "object",
    props: names("id logicalLocations message annotations relationships", {
      physicalLocation: ref("physicalLocation"),
      properties: ref("propertyBag"),
    }),
  },
  physicalLocation: {
    kind: "object",
    props: names("address contextRegion", {
      artifactLocation: ref("artifactLocation"),
      region: ref("region"),
      properties: ref("propertyBag"),
    }),
    anyOfRequired: [["address"], ["artifactLocation"]],
  },
  artifactLocation: {
    kind: "object",
    props: names("uriBaseId index description", { uri: str(), properties: ref("propertyBag") }),
  },
  region: {
    kind: "object",
    props: names(
      "startColumn endLine endColumn charOffset charLength byteOffset byteLength snippet message sourceLanguage",
      {
        startLine: int(1),
        properties: ref("propertyBag"),
      },
    ),
    anyOfRequired: [["startLine"], ["charOffset"], ["byteOffset"]],
  },
  suppression: {
    kind: "object",
    props: names("guid location", {
      kind: str(["inSource", "external"]),
      status: str(["accepted", "underReview", "rejected"]),
      justification: str(),
      properties: ref("propertyBag"),
    }),
    required: ["kind"],
  },
  propertyBag: { kind: "object", props: { tags: arr(str(), true) }, additional: ANY },
};

function typeName(v: unknown): string {
  return v === null ? "null" : Array.isArray(v) ? "array" : typeof v;
}

function check(value: unknown, schema: Schema, at: string, errors: string[]): void {
  switch (schema.kind) {
    case "any":
      return;
    case "ref": {
      const target = DEFINITIONS[schema.to];
      if (!target) throw new Error(`no definition ${schema.to}`);
      check(value, target, at, errors);
      return;
    }
    case "string":
      if (typeof value !== "string") errors.push(`${at}: expected a string, got ${typeName(value)}`);
      else if (schema.enum && !schema.enum.includes(value))
        errors.push(`${at}: ${JSON.stringify(value)} is not one of ${schema.enum.join(", ")}`);
      return;
    case "integer":
      if (typeof value !== "number" || !Number.isInteger(value))
        errors.push(`${at}: expected an integer, got ${typeName(value)}`);
      else if (schema.minimum !== undefined && value < schema.minimum)
        errors.push(`${at}: ${value} is below ${schema.minimum}`);
      return;
    case "boolean":
      if (typeof value !== "boolean") errors.push(`${at}: expected a boolean, got ${typeName(value)}`);
      return;
    case "array": {
      if (!Array.isArray(value)) {
        errors.push(`${at}: expected an array, got ${typeName(value)}`);
        return;
      }
      if (schema.minItems !== undefined && value.length < schema.minItems)
        errors.push(`${at}: fewer than ${schema.minItems} items`);
      if (schema.unique && new Set(value.map((v) => JSON.stringify(v))).size !== value.length)
        errors.push(`${at}: items are not unique`);
      for (const [i, item] of value.entries()) check(item, schema.items, `${at}[${i}]`, errors);
      return;
    }
    case "object": {
      if (typeof value !== "object" || value === null || Array.isArray(value)) {
        errors.push(`${at}: expected an object, got ${typeName(value)}`);
        return;
      }
      const record = value as Record<string, unknown>;
      for (const key of schema.required ?? []) if (!(key in record)) errors.push(`${at}: missing required ${key}`);
      if (schema.anyOfRequired && !schema.anyOfRequired.some((keys) => keys.every((k) => k in record))) {
        errors.push(`${at}: needs one of ${schema.anyOfRequired.map((k) => k.join("+")).join(" | ")}`);
      }
      for (const [key, v] of Object.entries(record)) {
        const prop = schema.props[key] ?? schema.additional;
        if (!prop) errors.push(`${at}: property ${key} is not in the schema`);
        else check(v, prop, `${at}.${key}`, errors);
      }
      return;
    }
  }
}

/**
 * Every way `log` breaks the transcribed SARIF 2.1.0 schema, as `path: problem` lines; empty when
 * it conforms.
 *
 * @example expect(sarifSchemaErrors(JSON.parse(text))).toEqual([]);
 */
export function sarifSchemaErrors(log: unknown): string[] {
  const errors: string[] = [];
  check(log, ref("sarifLog"), "$", errors);
  return errors;
}

/**
 * What GitHub code scanning needs beyond the schema (docs "SARIF support for code scanning"):
 * `$schema`, a driver name and rules with ids, and for every result a ruleId naming one of the
 * rules, message text, and at least one location with a file and a start line (a result without
 * a location makes GitHub refuse the whole upload).
 */
export function githubIngestionErrors(log: unknown): string[] {
  const errors: string[] = [];
  const l = log as {
    $schema?: unknown;
    runs?: Array<{
      tool?: { driver?: { name?: unknown; rules?: Array<{ id?: unknown }> } };
      results?: Array<{
        ruleId?: unknown;
        message?: { text?: unknown };
        locations?: Array<{
          physicalLocation?: { artifactLocation?: { uri?: unknown }; region?: { startLine?: unknown } };
        }>;
      }>;
    }>;
  };
  if (typeof l.$schema !== "string" || l.$schema === "") errors.push("$schema: missing");
  for (const [r, run] of (l.runs ?? []).entries()) {
    const driver = run.tool?.driver;
    if (typeof driver?.name !== "string" || driver.name === "") errors.push(`runs[${r}].tool.driver.name: missing`);
    const ids = new Set((driver?.rules ?? []).map((rule) => rule.id));
    if (!Array.isArray(run.results)) errors.push(`runs[${r}].results: missing`);
    for (const [i, res] of (run.results ?? []).entries()) {
      const at = `runs[${r}].results[${i}]`;
      if (typeof res.ruleId !== "string" || !ids.has(res.ruleId)) errors.push(`${at}.ruleId: names no rule`);
      if (typeof res.message?.text !== "string" || res.message.text === "") errors.push(`${at}.message.text: missing`);
      const loc = res.locations?.[0]?.physicalLocation;
      if (typeof loc?.artifactLocation?.uri !== "string" || loc.artifactLocation.uri === "") {
        errors.push(`${at}.locations[0].physicalLocation.artifactLocation.uri: missing`);
      }
      if (typeof loc?.region?.startLine !== "number")
        errors.push(`${at}.locations[0].physicalLocation.region.startLine: missing`);
    }
  }
  return errors;
}
