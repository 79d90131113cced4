/** One problem in a configuration file: where (file, line, column), which key, what. */
export interface ConfigProblem {
  file: string;
  line: number;
  col: number;
  /** The key's path, dotted (`licenses.allow.1`), or `(file)` for the whole file. */
  key: string;
  message: string;
}
