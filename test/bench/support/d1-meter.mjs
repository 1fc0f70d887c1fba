// The worker's D1 meter (src/db/d1-meter.ts), switched on and read through wrangler dev's DevTools inspector: every
// statement the worker isolate sends to D1 while it runs, with the rows D1's result meta says it read and wrote, by
// statement. Under wrangler dev the API, the queue consumers and the Durable Objects share that isolate.

/** Switches the worker's D1 meter on ('start'), or reads it and switches it off ('stop': answers the meter). */
export async function d1Meter(inspector, action) {
  const expression =
    action === 'start'
      ? 'globalThis.__relayD1Meter = { statements: 0, rowsRead: 0, rowsWritten: 0, writers: {}, readers: {}, runs: {} }, "on"'
      : '(() => { const m = globalThis.__relayD1Meter; delete globalThis.__relayD1Meter; return JSON.stringify(m ?? null); })()';
  await inspector.call('Runtime.enable');
  const context = inspector.contexts[0];
  if (!context) throw new Error('the inspector announced no JavaScript context of the worker');
  const { result, exceptionDetails } = await inspector.call('Runtime.evaluate', { expression, returnByValue: true, contextId: context.id });
  if (exceptionDetails) throw new Error(`the D1 meter: ${exceptionDetails.text}`);
  if (action === 'start') return null;
  const meter = JSON.parse(result.value);
  if (!meter) throw new Error('the D1 meter was not running in the worker isolate');
  return meter;
}
