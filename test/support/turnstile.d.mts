import type { TurnstileVars } from '../../scripts/turnstile-stand-in.mjs';
export declare function startTurnstileForTests(): Promise<TurnstileVars>;
export default function setup(): () => Promise<void>;
