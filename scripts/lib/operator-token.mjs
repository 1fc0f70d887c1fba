// The operator token for the command-line tools that call the operator API (npm run operator, npm run smoke):
// OPERATOR_TOKEN from the environment, else the OPERATOR_TOKEN line of .dev.vars (local development). Builtins only.
import { readFileSync } from 'node:fs';
import path from 'node:path';

export function operatorToken() {
  if (process.env.OPERATOR_TOKEN) return process.env.OPERATOR_TOKEN.trim();
  try {
    const vars = readFileSync(path.resolve(import.meta.dirname, '..', '..', '.dev.vars'), 'utf8');
    const line = vars.split(/\r?\n/).find((l) => /^\s*OPERATOR_TOKEN\s*=/.test(l));
    return line
      ? line
          .slice(line.indexOf('=') + 1)
          .trim()
          .replace(/^(["'])(.*)\1$/, '$2')
      : '';
  } catch {
    // no .dev.vars: no token
    return '';
  }
}
