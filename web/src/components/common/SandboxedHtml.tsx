import type { CSSProperties } from 'react';

const FRAME_STYLE: CSSProperties = { width: '100%', minHeight: 420, border: '1px solid var(--mantine-color-default-border)', borderRadius: 8, background: 'white' };

/** An email's html as the recipient would see it, in a sandboxed frame: no script runs, no same-origin access. */
export function SandboxedHtml({ html, title, testId }: { html: string; title: string; testId: string }) {
  return <iframe title={title} sandbox="" srcDoc={html} data-testid={testId} style={FRAME_STYLE} />;
}
