// Background steps (a send batch's rendering and encoding) give way to a request in flight, one step per timer turn,
// and cost nothing otherwise (src/lib/requests-first.ts).
import { describe, expect, it } from 'vitest';
import { answeringRequest, backgroundStep } from '../../../src/lib/requests-first';

const turn = () => new Promise<void>((resolve) => setTimeout(resolve, 0));

/** Three background steps and, started after them, two pieces of a request's own work, a timer turn each; the order they ran in. */
async function race(whileAnswering: boolean): Promise<string[]> {
  const order: string[] = [];
  let finish!: () => void;
  const request = whileAnswering ? answeringRequest(() => new Promise<void>((resolve) => (finish = resolve))) : null;
  const steps = [1, 2, 3].map(async (n) => {
    await backgroundStep();
    order.push(`step ${n}`);
  });
  const requestWork = turn()
    .then(() => order.push('request 1'))
    .then(turn)
    .then(() => order.push('request 2'));
  await Promise.all([...steps, requestWork]);
  finish?.();
  await request;
  return order;
}

describe('requests first', () => {
  it('lets a request in flight run between background steps, one step per turn', async () => {
    expect(await race(true)).toEqual(['request 1', 'step 1', 'request 2', 'step 2', 'step 3']);
  });

  it('costs background steps nothing while no request is in flight', async () => {
    expect(await race(false)).toEqual(['step 1', 'step 2', 'step 3', 'request 1', 'request 2']);
  });

  it('is back to nothing once the request has been answered, even if it failed', async () => {
    await expect(answeringRequest(() => Promise.reject(new Error('refused')))).rejects.toThrow('refused');
    expect(await race(false)).toEqual(['step 1', 'step 2', 'step 3', 'request 1', 'request 2']);
  });
});
