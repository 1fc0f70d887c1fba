import { defineConfig } from 'drizzle-kit';

// `npm run db:generate` writes the next migration into migrations/ (append-only; applied by wrangler).
export default defineConfig({
  dialect: 'sqlite',
  schema: './src/db/schema/index.ts',
  out: './migrations',
});
