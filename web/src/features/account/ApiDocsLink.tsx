import { Anchor, Group } from '@mantine/core';
import { IconExternalLink } from '@tabler/icons-react';
import { useApiDocsUrl } from './account-state';

/** The API documentation, in a new tab, when the platform serves it (the API key screens' header link). */
export function ApiDocsLink({ label, testId }: { label: string; testId: string }) {
  const docsUrl = useApiDocsUrl();
  if (!docsUrl) return null;
  return (
    <Anchor href={docsUrl} target="_blank" rel="noopener noreferrer" data-testid={testId}>
      <Group gap={4} wrap="nowrap">
        {label}
        <IconExternalLink size={14} />
      </Group>
    </Anchor>
  );
}
