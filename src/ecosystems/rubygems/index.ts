import type { Ecosystem } from "../ecosystem.js";
import { versionOrder } from "../common/version-order.js";
import { gemfileParser } from "./gemfile.js";
import { gemfileLockReader } from "./gemfile-lock.js";
import { gemspecParser } from "./gemspec.js";
import { createRubygemsResolver } from "./rubygems-resolver.js";

/** RubyGems: Gemfile, .gemspec; Gemfile.lock; Bundler's version order; rubygems.org. */
export const rubygems: Ecosystem = {
  name: "rubygems",
  osvName: "RubyGems",
  manifestParsers: [gemfileParser, gemspecParser],
  versionReaders: [gemfileLockReader],
  versionOrder: () => versionOrder("rubygems"),
  licenseRegistry: {
    urlSetting: "rubygemsUrl",
    create: (http, baseUrl) => createRubygemsResolver({ ...http, ...(baseUrl ? { baseUrl } : {}) }),
  },
};
