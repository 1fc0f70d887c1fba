import { createMiddleware } from 'hono/factory';
import type { AppEnv } from '../context';

/** Refuses the features locked in the shared demo organisation (filled in by the demo module). */
export const demoGuard = createMiddleware<AppEnv>(async (_c, next) => {
  await next();
});
