import { authChangeDetector } from "./security/auth-change.js";
import { copyleftSourceDetector } from "./licensing/copyleft-source.js";
import { credentialsDetector } from "./security/credentials.js";
import { gateConfigChangeDetector } from "./security/gate-config-change.js";
import { dependencyLicensesDetector } from "./licensing/dependency-licenses.js";
import type { Detector } from "./detector.js";
import { injectionDetector } from "./security/injection.js";
import { unsafeDeserializationDetector } from "./security/unsafe-deserialization.js";
import { piiLoggingDetector } from "./data/pii-logging.js";
import { piiStorageDetector } from "./data/pii-storage.js";
import { piiThirdPartyDetector } from "./data/pii-third-party.js";
import { weakCryptoDetector } from "./security/weak-crypto.js";
import { workflowRiskDetector } from "./security/workflow-risk.js";
import { vulnerableDependenciesDetector } from "./security/vulnerable-dependencies.js";

/** Every deterministic detector, one or more per policy of the starting catalogue. */
export const ALL_DETECTORS: readonly Detector[] = [
  credentialsDetector,
  injectionDetector,
  unsafeDeserializationDetector,
  authChangeDetector,
  workflowRiskDetector,
  weakCryptoDetector,
  gateConfigChangeDetector,
  vulnerableDependenciesDetector,
  dependencyLicensesDetector,
  copyleftSourceDetector,
  piiLoggingDetector,
  piiStorageDetector,
  piiThirdPartyDetector,
];
