import type { TestProject } from "vitest/node";

declare module "vitest" {
  export interface ProvidedContext {
    /** The PostgreSQL server the *.pg.test.ts files create their databases on. */
    postgresUrl: string;
    /** Why the PostgreSQL suite was left out of this run ("" when it runs). */
    postgresNotRun: string;
  }
}

/** Says plainly, before and after the run, that the PostgreSQL suite was not run (and why). */
export default function setup(project: TestProject) {
  const notRun = project.config.provide?.postgresNotRun ?? "";
  if (notRun) process.stderr.write(`${notRun}\n`);
  return () => {
    if (notRun) process.stderr.write(`${notRun}\n`);
  };
}
