import * as z from 'zod/v4';

// Zod compiles object parsers with `new Function` when it can, and probes for that by calling it: under the
// console's Content-Security-Policy (no 'unsafe-eval') the probe is a reported violation. Jitless parsing is
// what zod falls back to anyway. The console's build resolves `zod` to this module (web/vite.config.ts), so every
// schema, in whichever chunk, is built by a zod that was told first: an import in main.tsx alone runs after the
// chunks main.tsx's own imports share with the pages.
z.config({ jitless: true });

export * from 'zod/v4';
export { z };
export default z;
