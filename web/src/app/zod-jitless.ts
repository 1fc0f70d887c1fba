import { z } from 'zod';

// Zod compiles object parsers with `new Function` when it can, and probes for that by calling it: under the
// console's Content-Security-Policy (no 'unsafe-eval') the probe is a reported violation. Jitless parsing is
// what zod falls back to anyway. Imported first by main.tsx: schemas decide this when they are built.
z.config({ jitless: true });
