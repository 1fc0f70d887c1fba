// Prism (@stoplight/prism-cli) serving Twilio's own OpenAPI description as a validating mock: any request that
// breaks Twilio's contract (missing To, no basic auth, wrong encoding...) is refused, valid ones get Twilio's
// documented example answers.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import net from 'node:net';
import path from 'node:path';

/** ../shared/twilio/ next to the repository (see its README). */
export const TWILIO_SPEC = path.resolve(import.meta.dirname, '../../../shared/twilio/twilio_messaging_subset.json');

export async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const { port } = server.address() as net.AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

export interface RunningPrism {
  url: string;
  close(): Promise<void>;
}

/** Starts Prism on a free port and waits until it listens; null plus the reason when the spec is not there. */
export async function startPrism(root: string): Promise<{ prism: RunningPrism | null; skipReason: string | null }> {
  if (!existsSync(TWILIO_SPEC)) {
    return { prism: null, skipReason: `Twilio contract tests skipped: ${TWILIO_SPEC} is absent (it lives in ../shared/twilio/ beside the repository).` };
  }
  const port = await freePort();
  const bin = path.join(root, 'node_modules', '@stoplight', 'prism-cli', 'dist', 'index.js');
  const child: ChildProcess = spawn(process.execPath, [bin, 'mock', '-h', '127.0.0.1', '-p', String(port), TWILIO_SPEC], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.on('data', (d) => (output += d.toString()));
  child.stderr?.on('data', (d) => (output += d.toString()));
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`Prism exited (${child.exitCode}):\n${output.slice(-2000)}`);
    if (/Prism is listening/.test(output)) break;
    if (Date.now() > deadline) {
      child.kill();
      throw new Error(`Prism did not start within 60 s:\n${output.slice(-2000)}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  return {
    prism: {
      url,
      close: () =>
        new Promise<void>((resolve) => {
          if (child.exitCode !== null) return resolve();
          child.once('exit', () => resolve());
          child.kill();
        }),
    },
    skipReason: null,
  };
}
