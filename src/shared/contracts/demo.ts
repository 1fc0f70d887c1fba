// The shared demo organisation (spec sections 1 and 9).

/** GET /demo: the shared demo's sign-in and its reset schedule (the demo organisation only). */
export interface DemoInfo {
  /** Hours between resets (the spec's reset_length). */
  reset_length: number;
  reset_at: string | null;
  next_reset_at: string | null;
  login: string;
  password: string;
}
