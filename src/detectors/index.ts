import { authChangeDetector } from "./auth-change.js";
import { copyleftSourceDetector } from "./copyleft-source.js";
import { credentialsDetector } from "./credentials.js";
import { dependencyLicensesDetector } from "./dependency-licenses.js";
import type { Detector } from "./detector.js";
import { injectionDetector } from "./injection.js";
import { piiLoggingDetector } from "./pii-logging.js";
import { piiStorageDetector } from "./pii-storage.js";
import { piiThirdPartyDetector } from "./pii-third-party.js";
import { weakCryptoDetector } from "./weak-crypto.js";
import { workflowRiskDetector } from "./workflow-risk.js";

/** Every deterministic detector, one or more per policy of the starting catalogue. */
export const ALL_DETECTORS: readonly Detector[] = [
  credentialsDetector,
  injectionDetector,
  authChangeDetector,
  workflowRiskDetector,
  weakCryptoDetector,
  dependencyLicensesDetector,
  copyleftSourceDetector,
  piiLoggingDetector,
  piiStorageDetector,
  piiThirdPartyDetector,
];
